import type { buildConnector, Dispatcher } from 'undici';
import { DeviceError } from '../errors';
import { type CallerSignal, RequestAbort } from './abort';
import { type Answer, decodeBody, flattenHeaders, MAX_RESPONSE_BYTES } from './bodies';
import { DeviceConnections } from './connections';
import { clientClosedError, errorFromTransport, safeCause } from './errors';
import { redact } from './redact';
import { timeoutText } from './settings-rules';
import type { StreamAnswer } from './stream-body';
import { createPinningConnector, unverifiedSecureContext } from './tls';
import type { HttpMethod, TlsOptions } from './types';

function ignoreFailure(call: () => void): void {
  try {
    call();
  } catch {
    // Reported through the connection's own outcome.
  }
}

export interface TransportOptions {
  baseUrl: string;
  tls: TlsOptions;
  timeoutMs: number;
  /** Trust on first use pinned this fingerprint. */
  onPinned: (fingerprint256: string) => void;
  /** Decides what trust on first use pins (DeviceClientOptions.trustFirstUse). */
  trustFirstUse?: ((fingerprint256: string) => string) | undefined;
  /** The device showed another certificate than the pinned one. */
  onPinMismatch: (expected: string, seen: string) => void;
  /** What must never appear in an error's text (the password, the token). */
  secrets: () => readonly (string | undefined)[];
}

export interface ExchangeRequest {
  method: HttpMethod;
  path: string;
  headers: Record<string, string>;
  payload?: string | undefined;
  signal?: AbortSignal | undefined;
}

/**
 * Moves bytes to and from one device: keep-alive connections (./connections.ts) with the TLS check the
 * settings ask for (a pinned fingerprint, a CA, or none), a timeout on every exchange, a size cap on every
 * answer, and long-lived event streams, each on a connection of its own. It knows nothing of logins or of what a status
 * means; every failure comes back as a DeviceError with a stable code.
 */
export class DeviceTransport {
  readonly baseUrl: string;
  readonly #timeoutMs: number;
  readonly #connections: DeviceConnections;
  readonly #pinned: () => string | undefined;
  readonly #secrets: () => readonly (string | undefined)[];
  readonly #active = new Set<RequestAbort>();
  #closed = false;

  constructor(options: TransportOptions) {
    this.baseUrl = options.baseUrl;
    this.#timeoutMs = options.timeoutMs;
    this.#secrets = options.secrets;
    const { tls } = options;
    let connect: buildConnector.connector | Partial<buildConnector.BuildOptions>;
    if (tls.mode === 'pin') {
      const pinning = createPinningConnector({
        fingerprint: tls.fingerprint,
        timeoutMs: this.#timeoutMs,
        baseUrl: this.baseUrl,
        // A listener's failure must not break (or wrongly allow) the connection being made.
        onPinned: (fingerprint256) => ignoreFailure(() => options.onPinned(fingerprint256)),
        ...(options.trustFirstUse === undefined ? {} : { trustFirstUse: options.trustFirstUse }),
        onMismatch: (expected, seen) => ignoreFailure(() => options.onPinMismatch(expected, seen)),
      });
      connect = pinning.connector;
      this.#pinned = pinning.pinned;
    } else {
      connect =
        tls.mode === 'ca'
          ? { ca: tls.ca, rejectUnauthorized: true, timeout: this.#timeoutMs }
          : {
              rejectUnauthorized: false,
              timeout: this.#timeoutMs,
              secureContext: unverifiedSecureContext(),
            };
      this.#pinned = () => undefined;
    }
    this.#connections = new DeviceConnections(this.baseUrl, {
      connect,
      headersTimeout: this.#timeoutMs,
      bodyTimeout: this.#timeoutMs,
    });
  }

  /** The certificate fingerprint in force in pin mode (configured, or learned on first use). */
  get pinnedFingerprint(): string | undefined {
    return this.#pinned();
  }

  get timeoutMs(): number {
    return this.#timeoutMs;
  }

  /** One request and its whole answer, within the timeout and the size cap. */
  async exchange(request: ExchangeRequest): Promise<Answer> {
    this.#assertOpen();
    const { method, path, signal } = request;
    const controller = new RequestAbort();
    this.#active.add(controller);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, this.#timeoutMs);
    const abortFromCaller = (): void => controller.abort();
    signal?.addEventListener('abort', abortFromCaller, { once: true });
    if (signal?.aborted) controller.abort();
    try {
      const response = await this.#connections.request({
        method,
        path,
        headers: request.headers,
        signal: controller,
        ...(request.payload === undefined ? {} : { body: request.payload }),
      });
      const headers = flattenHeaders(response.headers);
      const text = await this.#readBody(method, path, response, headers, controller);
      return { statusCode: response.statusCode, headers, contentType: headers['content-type'] ?? '', text };
    } catch (error) {
      throw this.#failure(error, timedOut, signal);
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', abortFromCaller);
      this.#active.delete(controller);
    }
  }

  /** A long-lived GET: a timeout on connecting and on the headers, none on the body, which `signal` ends. */
  async openStream(
    path: string,
    headers: Record<string, string>,
    signal: CallerSignal,
  ): Promise<StreamAnswer> {
    this.#assertOpen();
    try {
      return await this.#connections.stream(
        {
          method: 'GET',
          path,
          headers,
          headersTimeout: this.#timeoutMs,
          // The stream has no end; a silent one is the EventStream's idle timeout to judge.
          bodyTimeout: 0,
        },
        signal,
      );
    } catch (error) {
      throw this.#failure(error, false, signal);
    }
  }

  /**
   * At most 64 KiB of an error answer to a stream request, within the timeout: enough for any message, and
   * a device that sends the headers of a 503 and then nothing must not hold the stream for good.
   */
  readShort(response: StreamAnswer): Promise<string> {
    const { body } = response;
    const chunks: Buffer[] = [];
    let received = 0;
    return new Promise((resolve) => {
      const timer = setTimeout(() => body.destroy(), this.#timeoutMs);
      body.read({
        onChunk: (chunk) => {
          if (received > 64 * 1024) return;
          chunks.push(chunk);
          received += chunk.length;
          if (received > 64 * 1024) body.destroy();
        },
        // However it ends, what arrived is enough to name the error.
        onEnd: () => {
          clearTimeout(timer);
          resolve(Buffer.concat(chunks).toString('utf8'));
        },
      });
    });
  }

  /** Ends every exchange under way and frees every socket. */
  close(): Promise<void> {
    this.#closed = true;
    for (const controller of this.#active) controller.abort();
    return this.#connections.destroy();
  }

  /**
   * The body as text, at most MAX_RESPONSE_BYTES of it. A body that breaks off after the headers came is
   * BAD_RESPONSE: the device was reached, its answer could not be read. Timeouts and aborts pass through.
   */
  async #readBody(
    method: HttpMethod,
    path: string,
    response: Dispatcher.ResponseData,
    headers: Record<string, string>,
    signal: { readonly aborted: boolean },
  ): Promise<string> {
    const tooLarge = (size: string): DeviceError => {
      response.body.destroy();
      return new DeviceError(
        'BAD_RESPONSE',
        `The device's answer to ${method} ${path} is larger than ${MAX_RESPONSE_BYTES / 1024 / 1024} MiB (${size}); ` +
          'stopped reading it. A proxy or a wrong address may be answering instead of the device',
        { statusCode: response.statusCode },
      );
    };
    const contentLength = headers['content-length'];
    const announced = contentLength === undefined ? Number.NaN : Number(contentLength);
    if (announced > MAX_RESPONSE_BYTES) throw tooLarge(`${announced} bytes announced`);
    const chunks: Buffer[] = [];
    let received = 0;
    try {
      for await (const chunk of response.body) {
        const buffer = chunk as Buffer;
        received += buffer.length;
        if (received > MAX_RESPONSE_BYTES) throw tooLarge(`${received} bytes received so far`);
        chunks.push(buffer);
      }
    } catch (error) {
      // Our own timer, the caller or close() stopped the read: the caller's catch names that.
      if (error instanceof DeviceError || this.#closed || signal.aborted) throw error;
      if (errorFromTransport(error, this.baseUrl, this.#timeoutMs, []).code === 'TIMEOUT') throw error;
      const expected = Number.isFinite(announced) ? ` of ${announced}` : '';
      const reason = redact(error instanceof Error ? error.message : String(error), this.#secrets());
      throw new DeviceError(
        'BAD_RESPONSE',
        `The device's answer to ${method} ${path} broke off after ${received}${expected} bytes: ${reason}`,
        { statusCode: response.statusCode, cause: safeCause(error, this.#secrets()) },
      );
    }
    return decodeBody(Buffer.concat(chunks), headers['content-encoding'], method, path, response.statusCode);
  }

  #failure(error: unknown, timedOut: boolean, callerSignal: CallerSignal | undefined): DeviceError {
    if (this.#closed) {
      return new DeviceError('CLOSED', 'The device client was closed while the request was running');
    }
    if (timedOut) {
      return new DeviceError(
        'TIMEOUT',
        `The device at ${this.baseUrl} did not answer within ${timeoutText(this.#timeoutMs)}`,
      );
    }
    if (callerSignal?.aborted) return new DeviceError('CLOSED', 'The request was aborted by its caller');
    return errorFromTransport(error, this.baseUrl, this.#timeoutMs, this.#secrets());
  }

  #assertOpen(): void {
    if (this.#closed) throw clientClosedError();
  }
}
