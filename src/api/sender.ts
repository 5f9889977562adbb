import { DeviceError } from '../errors';
import type { CallerSignal } from './abort';
import type { Answer } from './bodies';
import { clientClosedError, errorFromTransport } from './errors';
import type { HttpMethod } from './protocol';
import type { RequestLimiter } from './request-limiter';
import type { StreamAnswer } from './stream-body';
import type { DeviceTransport } from './transport';
import type { VendorWords } from './vendor-words';

export interface SenderOptions {
  limiter: RequestLimiter;
  vendor: VendorWords;
  transport: DeviceTransport;
  isClosed: () => boolean;
  secrets: () => readonly (string | undefined)[];
  /** Every failure on the way, before it is thrown: the client turns some into its connection state. */
  onFailure: (error: DeviceError) => void;
}

/**
 * Sends one request to the device as the device wants it: under the request ceiling, with the client
 * headers under the vendor word in force (learning the device's own word when it names one), and the
 * token when there is one. Knows nothing of what an answer means.
 */
export class RequestSender {
  readonly #options: SenderOptions;

  constructor(options: SenderOptions) {
    this.#options = options;
  }

  /** The word in the Authorization scheme and the client header names: configured, or the device's own. */
  get vendorWord(): string {
    return this.#options.vendor.word;
  }

  /** One exchange and its whole answer. */
  async exchange(
    method: HttpMethod,
    path: string,
    payload: string | undefined,
    token: string | undefined,
    signal: AbortSignal | undefined,
  ): Promise<Answer> {
    const { limiter, vendor, transport } = this.#options;
    // The usual case (a slot free, no caller signal) goes on without waiting for a promise (bench/overhead).
    if (signal !== undefined || !limiter.tryAcquire()) await limiter.acquire(signal);
    this.#assertOpen();
    try {
      return await vendor.send(method, path, () => {
        // Object.assign, not a spread: V8 makes adding the authorization to a spread copy slow (bench/overhead).
        const headers: Record<string, string> = Object.assign({}, vendor.headers, {
          accept: 'application/json',
        });
        if (token !== undefined) headers.authorization = `${vendor.word} ${token}`;
        if (payload !== undefined) headers['content-type'] = 'application/json';
        return transport.exchange({ method, path, headers, payload, signal });
      });
    } catch (error) {
      throw this.failure(error);
    }
  }

  /** A long-lived GET with `Accept: text/event-stream`; its body is the caller's to read and end. */
  async openStream(path: string, token: string, signal: CallerSignal): Promise<StreamAnswer> {
    const { limiter, vendor, transport } = this.#options;
    if (!limiter.tryAcquire()) await limiter.acquire(signal);
    this.#assertOpen();
    const headers: Record<string, string> = Object.assign({}, vendor.headers, {
      accept: 'text/event-stream',
      authorization: `${vendor.word} ${token}`,
    });
    try {
      return await transport.openStream(path, headers, signal);
    } catch (error) {
      throw this.failure(error);
    }
  }

  /** Any failure as a DeviceError (CLOSED once the client is closed), reported to `onFailure`. */
  failure(error: unknown): DeviceError {
    const { isClosed, transport, secrets, onFailure } = this.#options;
    let failure: DeviceError;
    if (error instanceof DeviceError) failure = error;
    else if (isClosed()) failure = clientClosedError();
    else failure = errorFromTransport(error, transport.baseUrl, transport.timeoutMs, secrets());
    onFailure(failure);
    return failure;
  }

  #assertOpen(): void {
    if (this.#options.isClosed()) throw clientClosedError();
  }
}
