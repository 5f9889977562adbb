import { EventEmitter } from 'node:events';
import { inspect } from 'node:util';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { type buildConnector, type Dispatcher, Pool } from 'undici';
import { DeviceError } from '../errors';
import type { ZoneReadResult } from '../zones/types';
import { MAX_JSON_DEPTH, nestsDeeperThan } from './bodies';
import {
  deviceMessageFrom,
  errorFromStatus,
  errorFromTransport,
  isTooManyRequests,
  redact,
  safeCause,
} from './errors';
import { RequestLimiter } from './limiter';
import { readRoomZones } from './room-zones';
import { type Backoff, resolveClientSettings } from './settings';
import { isHeaderValue } from './settings-rules';
import { EventStream, type EventStreamOptions, StreamConnectBudget, type StreamResponse } from './streams';
import { createPinningConnector } from './tls';
import type {
  Account,
  ConnectionState,
  DeviceClientOptions,
  DeviceRequester,
  DeviceResponse,
  HttpMethod,
  RequestOptions,
} from './types';
import { validateApiPath } from './url';

export const LOGIN_PATH = '/api/v1/auth/login';

const HTTP_METHODS: readonly HttpMethod[] = ['GET', 'POST', 'PATCH', 'PUT', 'DELETE'];
/** Far above any zone list or settings answer; a proxy or a broken device streaming more is cut short. */
export const MAX_RESPONSE_BYTES = 1024 * 1024;
const MINUTE_MS = 60_000;
/** Tokens refused right after their login, in a row, before logins wait (see #uselessLogin). */
const USELESS_LOGINS_BEFORE_BACKOFF = 3;

/**
 * Aborts one request. undici takes an EventEmitter as `signal`; adding and removing its listener costs a
 * fraction of an AbortSignal's (an EventTarget), which bench/overhead.ts showed on every read.
 */
class RequestAbort extends EventEmitter<{ abort: [] }> {
  aborted = false;

  abort(): void {
    if (this.aborted) return;
    this.aborted = true;
    this.emit('abort');
  }
}

export interface DeviceClientEvents {
  /** Emitted on every change of state; the error that caused it, when one did. */
  state: [state: ConnectionState, error?: DeviceError];
  /** Trust on first use pinned this certificate fingerprint. */
  pinned: [fingerprint256: string];
}

/** What came back from the device, before it is judged. */
interface Answer {
  statusCode: number;
  headers: Record<string, string>;
  contentType: string;
  text: string;
}

function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}

function isSuccess(statusCode: number): boolean {
  return statusCode >= 200 && statusCode < 300;
}

/**
 * The device client: logs in lazily, keeps `authParameters` in memory only, retries once after a
 * 401, backs off after a refused login or a rate-limit answer, keeps under a request ceiling, shares
 * identical GETs in flight, and turns every failure into a DeviceError with a stable code.
 */
export class DeviceClient extends EventEmitter<DeviceClientEvents> implements DeviceRequester {
  readonly baseUrl: string;
  readonly account: Account;
  readonly vendor: string;

  #password: string;
  #authParameters: string | undefined;
  #loginFlight: Promise<string> | undefined;
  #loginRefusals = 0;
  #loginBlockedUntil = 0;
  /** Logins in a row whose fresh token the device refused at once (a 401 right after a 200 login). */
  #uselessLogins = 0;
  /** Why logins wait: a refused password, or tokens refused right after a successful login. */
  #blockedBecause: 'password' | 'token' = 'password';
  #lastLoginRefusal: DeviceError | undefined;
  #rateLimitStrikes = 0;
  #state: ConnectionState = 'idle';
  #closed = false;
  #closing: Promise<void> | undefined;
  readonly #clientHeaders: Record<string, string>;
  readonly #timeoutMs: number;
  readonly #loginBackoff: Backoff;
  readonly #rateLimitBackoff: Backoff;
  readonly #limiter: RequestLimiter;
  readonly #pool: Pool;
  readonly #pinnedFingerprint: () => string | undefined;
  readonly #inFlightGets = new Map<string, Promise<DeviceResponse>>();
  readonly #activeRequests = new Set<RequestAbort>();
  readonly #streamConnects: StreamConnectBudget;
  readonly #eventStreams = new Set<EventStream>();

  constructor(options: DeviceClientOptions) {
    super();
    const settings = resolveClientSettings(options);
    this.baseUrl = settings.baseUrl;
    this.account = settings.account;
    this.#password = settings.password;
    this.vendor = settings.vendor;
    this.#clientHeaders = {
      [`${this.vendor}-Client-Id`]: settings.clientId,
      [`${this.vendor}-Client-Version`]: settings.clientVersion,
    };
    this.#timeoutMs = settings.timeoutMs;
    const maxRequestsPerMinute = settings.maxRequestsPerMinute;
    this.#loginBackoff = settings.loginBackoff;
    this.#rateLimitBackoff = settings.rateLimitBackoff;
    const tls = settings.tls;

    let connect: buildConnector.connector | Partial<buildConnector.BuildOptions>;
    if (tls.mode === 'pin') {
      const pinning = createPinningConnector({
        fingerprint: tls.fingerprint,
        timeoutMs: this.#timeoutMs,
        baseUrl: this.baseUrl,
        onPinned: (fingerprint256) => {
          try {
            this.emit('pinned', fingerprint256);
          } catch {
            // A listener's failure must not break the connection being made.
          }
        },
      });
      connect = pinning.connector;
      this.#pinnedFingerprint = pinning.pinned;
    } else {
      connect =
        tls.mode === 'ca'
          ? { ca: tls.ca, rejectUnauthorized: true, timeout: this.#timeoutMs }
          : { rejectUnauthorized: false, timeout: this.#timeoutMs };
      this.#pinnedFingerprint = () => undefined;
    }
    this.#limiter = new RequestLimiter(maxRequestsPerMinute, MINUTE_MS);
    this.#streamConnects = new StreamConnectBudget(settings.maxStreamConnectsPerMinute);
    this.#pool = new Pool(this.baseUrl, {
      connect,
      // Two of them may be held by the data and change streams; four stay for requests.
      connections: 6,
      headersTimeout: this.#timeoutMs,
      bodyTimeout: this.#timeoutMs,
    });
  }

  get state(): ConnectionState {
    return this.#state;
  }

  /** The certificate fingerprint in force in pin mode (configured, or learned on first use). */
  get pinnedFingerprint(): string | undefined {
    return this.#pinnedFingerprint();
  }

  /** Only safe facts: the password, the token and the connection pool stay out of logs. */
  [inspect.custom](): string {
    return `DeviceClient { baseUrl: '${this.baseUrl}', account: '${this.account}', state: '${this.#state}' }`;
  }

  toJSON(): { baseUrl: string; account: Account; state: ConnectionState } {
    return { baseUrl: this.baseUrl, account: this.account, state: this.#state };
  }

  async request<T = unknown>(
    method: HttpMethod,
    path: string,
    body?: unknown,
    options: RequestOptions = {},
  ): Promise<DeviceResponse<T>> {
    try {
      this.#assertOpen();
      if (!HTTP_METHODS.includes(method)) {
        throw new DeviceError(
          'INVALID_INPUT',
          `Method ${String(method)} is not one of ${HTTP_METHODS.join(', ')}`,
        );
      }
      const apiPath = validateApiPath(path);
      if (apiPath.split('?')[0] === LOGIN_PATH) {
        throw new DeviceError(
          'INVALID_INPUT',
          'The client logs in by itself: do not call the login endpoint directly',
        );
      }
      const payload = encodeBody(body);
      if (method === 'GET' && payload === undefined && options.signal === undefined) {
        return (await this.#sharedGet(apiPath)) as DeviceResponse<T>;
      }
      return (await this.#authorizedRequest(method, apiPath, payload, options.signal)) as DeviceResponse<T>;
    } catch (error) {
      throw this.#asDeviceError(error);
    }
  }

  readRoomZones(): Promise<ZoneReadResult> {
    return readRoomZones(this);
  }

  /**
   * A device event stream on `path` (for example `/api/v1/events`) that reconnects by itself; it opens on
   * `start()`. Every stream of this client shares its session, TLS settings, headers and connection budget.
   */
  eventStream(path: string, options: EventStreamOptions = {}): EventStream {
    this.#assertOpen();
    const apiPath = validateApiPath(path);
    const stream = new EventStream(
      apiPath,
      {
        open: (signal) => this.openStream(apiPath, { signal }),
        reserveConnect: () => this.#streamConnects.reserve(),
      },
      options,
    );
    this.#eventStreams.add(stream);
    stream.on('state', (state) => {
      if (state === 'closed') this.#eventStreams.delete(stream);
    });
    return stream;
  }

  /**
   * One long-lived GET with `Accept: text/event-stream`, logged in as every request is (one fresh login
   * and one retry after a 401). Only the connection and the headers have a timeout; the body is the
   * caller's to read and to end through `signal`.
   */
  async openStream(path: string, options: { signal: AbortSignal }): Promise<StreamResponse> {
    try {
      this.#assertOpen();
      const apiPath = validateApiPath(path);
      let token = this.#authParameters ?? (await this.#ensureToken());
      let response = await this.#openStreamOnce(apiPath, token, options.signal);
      if (response.statusCode === 401) {
        await this.#readShort(response);
        this.#forgetToken(token);
        token = await this.#ensureToken();
        response = await this.#openStreamOnce(apiPath, token, options.signal);
      }
      const headers = flattenHeaders(response.headers);
      const contentType = headers['content-type'] ?? '';
      if (!isSuccess(response.statusCode)) {
        const answer: Answer = {
          statusCode: response.statusCode,
          headers,
          contentType,
          text: await this.#readShort(response),
        };
        if (answer.statusCode === 401) {
          this.#forgetToken(token);
          const error =
            this.#uselessLogin() ??
            new DeviceError(
              'AUTH_FAILED',
              `The device refused account '${this.account}' for the event stream ${apiPath} even right after a fresh login (HTTP 401)`,
              { statusCode: 401 },
            );
          this.#setState('auth_failed', error);
          throw error;
        }
        this.#checkRateLimit('GET', apiPath, answer);
        this.#setState('connected');
        throw errorFromStatus(
          'GET',
          apiPath,
          answer.statusCode,
          this.#redact(deviceMessageFrom(answer.text, answer.contentType)),
          this.account,
        );
      }
      if (!/^text\/event-stream\b/i.test(contentType)) {
        discard(response.body);
        throw new DeviceError(
          'BAD_RESPONSE',
          `The device answered GET ${apiPath} with ${contentType || 'no content type'}, not an event stream`,
          { statusCode: response.statusCode },
        );
      }
      this.#setState('connected');
      return { statusCode: response.statusCode, headers, body: response.body };
    } catch (error) {
      throw this.#asDeviceError(error);
    }
  }

  async #openStreamOnce(path: string, token: string, signal: AbortSignal): Promise<Dispatcher.ResponseData> {
    if (!this.#limiter.tryAcquire()) await this.#limiter.acquire(signal);
    this.#assertOpen();
    const headers: Record<string, string> = Object.assign({}, this.#clientHeaders, {
      accept: 'text/event-stream',
      authorization: `${this.vendor} ${token}`,
    });
    try {
      return await this.#pool.request({
        method: 'GET',
        path,
        headers,
        signal,
        headersTimeout: this.#timeoutMs,
        // The stream has no end; a silent one is the EventStream's idle timeout to judge.
        bodyTimeout: 0,
      });
    } catch (error) {
      throw this.#transportError(error, false, signal);
    }
  }

  /** At most 64 KiB of an error answer: enough for any message, and a stream never ends by itself. */
  async #readShort(response: Dispatcher.ResponseData): Promise<string> {
    const chunks: Buffer[] = [];
    let received = 0;
    try {
      for await (const chunk of response.body) {
        const buffer = chunk as Buffer;
        chunks.push(buffer);
        received += buffer.length;
        if (received > 64 * 1024) break;
      }
    } catch {
      // What arrived is enough to name the error.
    } finally {
      discard(response.body);
    }
    return Buffer.concat(chunks).toString('utf8');
  }

  /** Frees every socket and timer; queued and later calls reject with CLOSED. */
  close(): Promise<void> {
    if (this.#closing !== undefined) return this.#closing;
    this.#closed = true;
    this.#limiter.close();
    const streams = [...this.#eventStreams].map((stream) => stream.close());
    for (const controller of this.#activeRequests) controller.abort();
    this.#authParameters = undefined;
    this.#password = '';
    this.#closing = Promise.all(streams)
      .then(() => this.#pool.destroy())
      .catch(() => undefined);
    return this.#closing;
  }

  /** Identical GETs in flight share one device request; each caller gets its own copy of the answer. */
  async #sharedGet(path: string): Promise<DeviceResponse> {
    const pending = this.#inFlightGets.get(path);
    if (pending !== undefined) return structuredClone(await pending);
    const request = this.#authorizedRequest('GET', path, undefined, undefined).finally(() => {
      this.#inFlightGets.delete(path);
    });
    this.#inFlightGets.set(path, request);
    return request;
  }

  async #authorizedRequest(
    method: HttpMethod,
    path: string,
    payload: string | undefined,
    signal: AbortSignal | undefined,
  ): Promise<DeviceResponse> {
    // Not awaiting a token already held spares every read a trip through the microtask queue.
    let token = this.#authParameters ?? (await this.#ensureToken());
    let answer = await this.#exchange(method, path, payload, token, signal);
    if (answer.statusCode === 401) {
      // The device forgot this token (reboot, password change): one fresh login, one retry.
      this.#forgetToken(token);
      token = await this.#ensureToken();
      answer = await this.#exchange(method, path, payload, token, signal);
      if (answer.statusCode === 401) {
        this.#forgetToken(token);
        const deviceMessage = this.#redact(deviceMessageFrom(answer.text, answer.contentType));
        const error =
          this.#uselessLogin() ??
          new DeviceError(
            'AUTH_FAILED',
            `The device refused account '${this.account}' for ${method} ${path} even right after a fresh login` +
              (deviceMessage === undefined ? ' (HTTP 401)' : ` (device said: ${deviceMessage})`),
            { statusCode: 401, ...(deviceMessage === undefined ? {} : { deviceMessage }) },
          );
        this.#setState('auth_failed', error);
        throw error;
      }
    }
    return this.#judge(method, path, answer);
  }

  /** A non-401 answer to an authorized request: the data, or the error it stands for. */
  #judge(method: HttpMethod, path: string, answer: Answer): DeviceResponse {
    this.#setState('connected');
    this.#uselessLogins = 0;
    if (!isSuccess(answer.statusCode)) {
      throw errorFromStatus(
        method,
        path,
        answer.statusCode,
        this.#redact(deviceMessageFrom(answer.text, answer.contentType)),
        this.account,
      );
    }
    let body: unknown;
    try {
      body = parseBody(method, path, answer);
    } catch (error) {
      // JSON.parse quotes part of the text in its message: keep anything secret out of it.
      throw error instanceof DeviceError
        ? new DeviceError(error.code, redact(error.message, this.#secrets()), {
            statusCode: answer.statusCode,
          })
        : error;
    }
    return { statusCode: answer.statusCode, body, headers: answer.headers };
  }

  #ensureToken(): Promise<string> {
    if (this.#authParameters !== undefined) return Promise.resolve(this.#authParameters);
    if (this.#loginFlight !== undefined) return this.#loginFlight;
    const waitMs = this.#loginBlockedUntil - Date.now();
    if (waitMs > 0) return Promise.reject(this.#backoffError(waitMs));
    this.#loginFlight = this.#login().finally(() => {
      this.#loginFlight = undefined;
    });
    return this.#loginFlight;
  }

  async #login(): Promise<string> {
    this.#setState('connecting');
    const body = JSON.stringify({ account: this.account, password: this.#password });
    const answer = await this.#exchange('POST', LOGIN_PATH, body, undefined, undefined);
    const deviceMessage = this.#redact(deviceMessageFrom(answer.text, answer.contentType));
    const details = {
      statusCode: answer.statusCode,
      ...(deviceMessage === undefined ? {} : { deviceMessage }),
    };
    if (answer.statusCode === 401) {
      this.#loginRefusals += 1;
      const delay = Math.min(
        this.#loginBackoff.initialMs * 2 ** (this.#loginRefusals - 1),
        this.#loginBackoff.maxMs,
      );
      this.#loginBlockedUntil = Date.now() + delay;
      this.#blockedBecause = 'password';
      const error = new DeviceError(
        'AUTH_FAILED',
        `Login refused: wrong password for account '${this.account}'` +
          (deviceMessage === undefined ? ' (HTTP 401)' : ` (device said: ${deviceMessage})`),
        { ...details, retryAfterMs: delay },
      );
      this.#lastLoginRefusal = error;
      this.#setState('auth_failed', error);
      throw error;
    }
    if (!isSuccess(answer.statusCode)) {
      const error = errorFromStatus('POST', LOGIN_PATH, answer.statusCode, deviceMessage, this.account);
      const hint = answer.statusCode === 400 ? '; check the vendor word, client id and account' : '';
      throw new DeviceError(error.code, `Login failed: ${error.message}${hint}`, details);
    }
    const token = readAuthParameters(answer);
    this.#loginRefusals = 0;
    this.#loginBlockedUntil = 0;
    this.#lastLoginRefusal = undefined;
    this.#authParameters = token;
    this.#setState('connected');
    return token;
  }

  /**
   * The device refused a token it had just issued. Once or twice is a token that expired in between; from
   * the third time in a row logins wait, growing like a refused password's, so a device that refuses every
   * token is not asked for a new one in a loop.
   */
  #uselessLogin(): DeviceError | undefined {
    this.#uselessLogins += 1;
    if (this.#uselessLogins < USELESS_LOGINS_BEFORE_BACKOFF) return undefined;
    const delay = Math.min(
      this.#loginBackoff.initialMs * 2 ** (this.#uselessLogins - USELESS_LOGINS_BEFORE_BACKOFF),
      this.#loginBackoff.maxMs,
    );
    this.#loginBlockedUntil = Date.now() + delay;
    this.#blockedBecause = 'token';
    const error = new DeviceError(
      'AUTH_FAILED',
      `The device accepts the login of account '${this.account}' but refuses the token at once ` +
        `(${this.#uselessLogins} logins in a row); not logging in again for ${Math.ceil(delay / 1000)} s`,
      { statusCode: 401, retryAfterMs: delay },
    );
    this.#lastLoginRefusal = error;
    return error;
  }

  #backoffError(waitMs: number): DeviceError {
    const seconds = Math.ceil(waitMs / 1000);
    const previous = this.#lastLoginRefusal;
    const message =
      this.#blockedBecause === 'token'
        ? `The device refused every fresh token of account '${this.account}' right after its login; not ` +
          `logging in again for ${seconds} s so the device is not flooded with logins. Check the account's ` +
          'permissions and the vendor word on the device'
        : `Login refused earlier for account '${this.account}'; not asking the device again for ${seconds} s ` +
          'so a wrong password cannot flood it. Fix the password (a new configuration starts afresh).';
    return new DeviceError('AUTH_FAILED', message, {
      ...(previous?.statusCode === undefined ? {} : { statusCode: previous.statusCode }),
      ...(previous?.deviceMessage === undefined ? {} : { deviceMessage: previous.deviceMessage }),
      retryAfterMs: waitMs,
    });
  }

  #forgetToken(token: string): void {
    // Concurrent callers may all see a 401 for the same old token; only the first clears it.
    if (this.#authParameters === token) this.#authParameters = undefined;
  }

  /** One HTTP exchange under the request ceiling and the timeout; rate-limit answers become errors here. */
  async #exchange(
    method: HttpMethod,
    path: string,
    payload: string | undefined,
    token: string | undefined,
    signal: AbortSignal | undefined,
  ): Promise<Answer> {
    // The usual case (a slot free, no caller signal) goes on without waiting for a promise.
    if (signal !== undefined || !this.#limiter.tryAcquire()) await this.#limiter.acquire(signal);
    this.#assertOpen();
    const controller = new RequestAbort();
    this.#activeRequests.add(controller);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, this.#timeoutMs);
    const abortFromCaller = (): void => controller.abort();
    signal?.addEventListener('abort', abortFromCaller, { once: true });
    if (signal?.aborted) controller.abort();
    let answer: Answer;
    try {
      // Object.assign, not a spread: V8 makes adding the authorization to a spread copy slow.
      const headers: Record<string, string> = Object.assign({}, this.#clientHeaders, {
        accept: 'application/json',
      });
      if (token !== undefined) headers.authorization = `${this.vendor} ${token}`;
      if (payload !== undefined) headers['content-type'] = 'application/json';
      const response = await this.#pool.request({
        method,
        path,
        headers,
        signal: controller,
        ...(payload === undefined ? {} : { body: payload }),
      });
      const flatHeaders = flattenHeaders(response.headers);
      const text = await this.#readBody(
        method,
        path,
        response,
        flatHeaders['content-length'],
        flatHeaders['content-encoding'],
        controller,
      );
      answer = {
        statusCode: response.statusCode,
        headers: flatHeaders,
        contentType: flatHeaders['content-type'] ?? '',
        text,
      };
    } catch (error) {
      throw this.#transportError(error, timedOut, signal);
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', abortFromCaller);
      this.#activeRequests.delete(controller);
    }
    this.#checkRateLimit(method, path, answer);
    return answer;
  }

  /**
   * The body as text, at most MAX_RESPONSE_BYTES of it. A body that breaks off after the headers came is
   * BAD_RESPONSE: the device was reached, its answer could not be read. Timeouts and aborts pass through.
   */
  async #readBody(
    method: HttpMethod,
    path: string,
    response: Dispatcher.ResponseData,
    contentLength: string | undefined,
    contentEncoding: string | undefined,
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
    return decodeBody(Buffer.concat(chunks), contentEncoding, method, path, response.statusCode);
  }

  #checkRateLimit(method: HttpMethod, path: string, answer: Answer): void {
    const { statusCode } = answer;
    const deviceMessage =
      statusCode === 429 || statusCode === 409
        ? deviceMessageFrom(answer.text, answer.contentType)
        : undefined;
    if (statusCode === 429 || (statusCode === 409 && isTooManyRequests(deviceMessage))) {
      this.#rateLimitStrikes += 1;
      const pauseMs = Math.min(
        this.#rateLimitBackoff.initialMs * 2 ** (this.#rateLimitStrikes - 1),
        this.#rateLimitBackoff.maxMs,
      );
      this.#limiter.pauseUntil(Date.now() + pauseMs);
      const error = errorFromStatus(method, path, statusCode, this.#redact(deviceMessage), this.account, {
        retryAfterMs: pauseMs,
      });
      this.#setState('rate_limited', error);
      throw error;
    }
    if (statusCode !== 401) this.#rateLimitStrikes = 0;
  }

  #transportError(error: unknown, timedOut: boolean, callerSignal: AbortSignal | undefined): DeviceError {
    if (this.#closed)
      return new DeviceError('CLOSED', 'The device client was closed while the request was running');
    if (timedOut) {
      const timeout = new DeviceError(
        'TIMEOUT',
        `The device at ${this.baseUrl} did not answer within ${this.#timeoutMs} ms`,
      );
      this.#setState('unreachable', timeout);
      return timeout;
    }
    if (callerSignal?.aborted) return new DeviceError('CLOSED', 'The request was aborted by its caller');
    const deviceError = errorFromTransport(error, this.baseUrl, this.#timeoutMs, this.#secrets());
    if (deviceError.code === 'UNREACHABLE' || deviceError.code === 'TIMEOUT' || deviceError.code === 'TLS') {
      this.#setState('unreachable', deviceError);
    }
    return deviceError;
  }

  #asDeviceError(error: unknown): DeviceError {
    if (error instanceof DeviceError) return error;
    if (this.#closed) return new DeviceError('CLOSED', 'The device client is closed');
    return errorFromTransport(error, this.baseUrl, this.#timeoutMs, this.#secrets());
  }

  #assertOpen(): void {
    if (this.#closed) throw new DeviceError('CLOSED', 'The device client is closed');
  }

  #setState(state: ConnectionState, error?: DeviceError): void {
    if (this.#state === state) return;
    this.#state = state;
    if (error === undefined) this.emit('state', state);
    else this.emit('state', state, error);
  }

  #secrets(): (string | undefined)[] {
    return [this.#password, this.#authParameters];
  }

  #redact(text: string | undefined): string | undefined {
    return text === undefined ? undefined : redact(text, this.#secrets());
  }
}

const DECODERS: Record<string, (bytes: Buffer, options: { maxOutputLength: number }) => Buffer> = {
  gzip: gunzipSync,
  'x-gzip': gunzipSync,
  deflate: inflateSync,
  br: brotliDecompressSync,
};

/**
 * The body as text. A device or a proxy in front of it may compress an answer nobody asked to be
 * compressed; it is decoded here, and never to more than the size cap, so a small bomb stays small.
 */
function decodeBody(
  bytes: Buffer,
  contentEncoding: string | undefined,
  method: HttpMethod,
  path: string,
  statusCode: number,
): string {
  const encoding = (contentEncoding ?? '').trim().toLowerCase();
  if (encoding === '' || encoding === 'identity' || bytes.length === 0) return bytes.toString('utf8');
  const decoder = DECODERS[encoding];
  if (decoder === undefined) {
    throw new DeviceError(
      'BAD_RESPONSE',
      `The device's answer to ${method} ${path} is encoded as "${encoding}", which the client cannot read`,
      { statusCode },
    );
  }
  try {
    return decoder(bytes, { maxOutputLength: MAX_RESPONSE_BYTES }).toString('utf8');
  } catch (error) {
    const tooLarge = (error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE';
    throw new DeviceError(
      'BAD_RESPONSE',
      tooLarge
        ? `The device's ${encoding} answer to ${method} ${path} unpacks to more than ${MAX_RESPONSE_BYTES / 1024 / 1024} MiB; stopped`
        : `The device's ${encoding} answer to ${method} ${path} cannot be unpacked: ${(error as Error).message}`,
      { statusCode },
    );
  }
}

/** Stops reading a body; undici reports that as an error that nobody needs to hear. */
function discard(body: Dispatcher.ResponseData['body']): void {
  body.on('error', () => undefined);
  body.destroy();
}

function encodeBody(body: unknown): string | undefined {
  if (body === undefined) return undefined;
  try {
    const text = JSON.stringify(body);
    if (text === undefined) throw new Error('not serialisable');
    return text;
  } catch (error) {
    throw new DeviceError(
      'INVALID_INPUT',
      `Request body cannot be sent as JSON: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

function looksLikeJson(answer: Answer): boolean {
  return /[/+]json\b/i.test(answer.contentType) || /^\s*[{[]/.test(answer.text);
}

function parseBody(method: HttpMethod, path: string, answer: Answer): unknown {
  if (answer.text.trim().length === 0) return undefined;
  if (!looksLikeJson(answer)) return answer.text;
  if (nestsDeeperThan(answer.text, MAX_JSON_DEPTH)) {
    throw new DeviceError(
      'BAD_RESPONSE',
      `The device answered ${method} ${path} with JSON nested deeper than ${MAX_JSON_DEPTH} levels; refused, as no device answer is`,
      { statusCode: answer.statusCode },
    );
  }
  try {
    return JSON.parse(answer.text);
  } catch (error) {
    throw new DeviceError(
      'BAD_RESPONSE',
      `The device answered ${method} ${path} with JSON that cannot be read: ${error instanceof Error ? error.message : String(error)}`,
      { statusCode: answer.statusCode },
    );
  }
}

function readAuthParameters(answer: Answer): string {
  let body: unknown;
  try {
    body = JSON.parse(answer.text);
  } catch {
    throw new DeviceError(
      'BAD_RESPONSE',
      'The login answer is not JSON: expected {"authParameters": "..."}',
      {
        statusCode: answer.statusCode,
      },
    );
  }
  const token = typeof body === 'object' && body !== null ? Reflect.get(body, 'authParameters') : undefined;
  if (typeof token !== 'string' || !isHeaderValue(token)) {
    throw new DeviceError(
      'BAD_RESPONSE',
      'The login answer has no usable authParameters (expected a non-empty printable string)',
      { statusCode: answer.statusCode },
    );
  }
  return token;
}
