import { EventEmitter } from 'node:events';
import { inspect } from 'node:util';
import { DeviceError } from '../errors';
import type { ZoneReadResult } from '../zones/types';
import { type Answer, discard, encodeBody, flattenHeaders, isSuccess, parseBody } from './bodies';
import { deviceMessageFrom, errorFromStatus, errorFromTransport, isTooManyRequests, redact } from './errors';
import { RequestLimiter } from './limiter';
import { HTTP_METHODS, LOGIN_PATH } from './protocol';
import { readRoomZones } from './room-zones';
import { Session } from './session';
import { type Backoff, resolveClientSettings } from './settings';
import { EventStream, type EventStreamOptions, StreamConnectBudget, type StreamResponse } from './streams';
import { DeviceTransport } from './transport';
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

export { MAX_RESPONSE_BYTES } from './bodies';

const MINUTE_MS = 60_000;

/**
 * The vendor word a device names when it does not know ours: real devices use their maker's word where
 * the spec writes `Vendor`, and answer 400 `<Word>-Client-Id is missing`.
 */
const NAMED_VENDOR = /\b([A-Za-z][A-Za-z0-9]*)-Client-Id is missing/;

export interface DeviceClientEvents {
  /** Emitted on every change of state; the error that caused it, when one did. */
  state: [state: ConnectionState, error?: DeviceError];
  /** Trust on first use pinned this certificate fingerprint. */
  pinned: [fingerprint256: string];
  /** In pin mode the device showed another certificate than the pinned one; the connection was refused. */
  pinMismatch: [expected: string, seen: string];
  /** The device uses another vendor word than the configured one; the client uses the device's from now. */
  vendor: [word: string, configured: string];
}

/**
 * The device client, the one object its users hold. It puts the layers together: the session (./session:
 * login and its backoff), the transport (./transport: pool, TLS, timeouts, caps) and the bodies
 * (./bodies), and adds what a caller needs on top: one fresh login and one retry after a 401, a request
 * ceiling, a pause after a rate-limit answer, identical GETs in flight shared, event streams, and one
 * connection state. Every failure is a DeviceError with a stable code.
 */
export class DeviceClient extends EventEmitter<DeviceClientEvents> implements DeviceRequester {
  readonly baseUrl: string;
  readonly account: Account;

  #rateLimitStrikes = 0;
  #state: ConnectionState = 'idle';
  #closed = false;
  #closing: Promise<void> | undefined;
  #vendor: string;
  #clientHeaders: Record<string, string>;
  readonly #clientId: string;
  readonly #clientVersion: string;
  /** Set once the device named its own word: a second word means no word will do (VENDOR_MISMATCH). */
  #vendorLearned = false;
  readonly #rateLimitBackoff: Backoff;
  readonly #limiter: RequestLimiter;
  readonly #session: Session;
  readonly #transport: DeviceTransport;
  readonly #inFlightGets = new Map<string, Promise<DeviceResponse>>();
  readonly #streamConnects: StreamConnectBudget;
  readonly #eventStreams = new Set<EventStream>();

  constructor(options: DeviceClientOptions) {
    super();
    const settings = resolveClientSettings(options);
    this.baseUrl = settings.baseUrl;
    this.account = settings.account;
    this.#vendor = settings.vendor;
    this.#clientId = settings.clientId;
    this.#clientVersion = settings.clientVersion;
    this.#clientHeaders = this.#headersForVendor(settings.vendor);
    this.#rateLimitBackoff = settings.rateLimitBackoff;
    this.#limiter = new RequestLimiter(settings.maxRequestsPerMinute, MINUTE_MS);
    this.#streamConnects = new StreamConnectBudget(settings.maxStreamConnectsPerMinute);
    this.#session = new Session({
      account: settings.account,
      password: settings.password,
      loginBackoff: settings.loginBackoff,
      postLogin: (body) => this.#exchange('POST', LOGIN_PATH, body, undefined, undefined),
      onState: (state, error) => this.#setState(state, error),
    });
    this.#transport = new DeviceTransport({
      baseUrl: settings.baseUrl,
      tls: settings.tls,
      timeoutMs: settings.timeoutMs,
      onPinned: (fingerprint256) => this.emit('pinned', fingerprint256),
      onPinMismatch: (expected, seen) => this.emit('pinMismatch', expected, seen),
      secrets: () => this.#session.secrets(),
    });
  }

  get state(): ConnectionState {
    return this.#state;
  }

  /** The word in the Authorization scheme and the client header names: configured, or the device's own. */
  get vendor(): string {
    return this.#vendor;
  }

  /** The certificate fingerprint in force in pin mode (configured, or learned on first use). */
  get pinnedFingerprint(): string | undefined {
    return this.#transport.pinnedFingerprint;
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
   * A device event stream on `path` (for example STREAM_PATHS.changes) that reconnects by itself; it opens on
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
      let token = this.#session.token ?? (await this.#session.ensureToken());
      let response = await this.#openStreamOnce(apiPath, token, options.signal);
      if (response.statusCode === 401) {
        await this.#transport.readShort(response);
        this.#session.forget(token);
        token = await this.#session.ensureToken();
        response = await this.#openStreamOnce(apiPath, token, options.signal);
      }
      const headers = flattenHeaders(response.headers);
      const contentType = headers['content-type'] ?? '';
      if (!isSuccess(response.statusCode)) {
        const text = await this.#transport.readShort(response);
        const answer: Answer = { statusCode: response.statusCode, headers, contentType, text };
        if (answer.statusCode === 401) {
          throw this.#refusedAfterLogin(token, `the event stream ${apiPath}`, answer);
        }
        this.#checkRateLimit('GET', apiPath, answer);
        this.#judge('GET', apiPath, answer);
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
      this.#session.confirmed();
      return { statusCode: response.statusCode, headers, body: response.body };
    } catch (error) {
      throw this.#asDeviceError(error);
    }
  }

  /** Frees every socket and timer; queued and later calls reject with CLOSED. */
  close(): Promise<void> {
    if (this.#closing !== undefined) return this.#closing;
    this.#closed = true;
    this.#limiter.close();
    const streams = [...this.#eventStreams].map((stream) => stream.close());
    this.#session.close();
    // Exchanges under way end at once (their callers get CLOSED); streams end with their sockets.
    this.#closing = Promise.all([this.#transport.close(), ...streams]).then(() => undefined);
    return this.#closing;
  }

  async #openStreamOnce(path: string, token: string, signal: AbortSignal) {
    if (!this.#limiter.tryAcquire()) await this.#limiter.acquire(signal);
    this.#assertOpen();
    const headers: Record<string, string> = Object.assign({}, this.#clientHeaders, {
      accept: 'text/event-stream',
      authorization: `${this.#vendor} ${token}`,
    });
    try {
      return await this.#transport.openStream(path, headers, signal);
    } catch (error) {
      throw this.#noteTransportFailure(error);
    }
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
    let token = this.#session.token ?? (await this.#session.ensureToken());
    let answer = await this.#exchange(method, path, payload, token, signal);
    if (answer.statusCode === 401) {
      // The device forgot this token (reboot, password change): one fresh login, one retry.
      this.#session.forget(token);
      token = await this.#session.ensureToken();
      answer = await this.#exchange(method, path, payload, token, signal);
      if (answer.statusCode === 401) throw this.#refusedAfterLogin(token, `${method} ${path}`, answer);
    }
    return this.#judge(method, path, answer);
  }

  /** A 401 for a token fresh from a login: AUTH_FAILED, and logins wait when it keeps happening. */
  #refusedAfterLogin(token: string, what: string, answer: Answer): DeviceError {
    this.#session.forget(token);
    const deviceMessage = this.#redact(deviceMessageFrom(answer.text, answer.contentType));
    const error =
      this.#session.refusedFreshToken() ??
      new DeviceError(
        'AUTH_FAILED',
        `The device refused account '${this.account}' for ${what} even right after a fresh login` +
          (deviceMessage === undefined ? ' (HTTP 401)' : ` (device said: ${deviceMessage})`),
        { statusCode: 401, ...(deviceMessage === undefined ? {} : { deviceMessage }) },
      );
    this.#setState('auth_failed', error);
    return error;
  }

  /** A non-401 answer to an authorized request: the data, or the error it stands for. */
  #judge(method: HttpMethod, path: string, answer: Answer): DeviceResponse {
    this.#setState('connected');
    this.#session.confirmed();
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
        ? new DeviceError(error.code, redact(error.message, this.#session.secrets()), {
            statusCode: answer.statusCode,
          })
        : error;
    }
    return { statusCode: answer.statusCode, body, headers: answer.headers };
  }

  /** One HTTP exchange under the request ceiling; rate-limit answers become errors here. */
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
    let answer = await this.#send(method, path, payload, token, signal);
    if (answer.statusCode === 400) {
      const named = this.#vendorNamedIn(answer);
      if (named !== undefined) {
        this.#adoptVendor(named, method, path);
        answer = await this.#send(method, path, payload, token, signal);
        // Still a header "missing", even with the word the device named: no word will do.
        const still = answer.statusCode === 400 ? this.#vendorNamedIn(answer, true) : undefined;
        if (still !== undefined) throw this.#vendorMismatch(still, method, path);
      }
    }
    this.#checkRateLimit(method, path, answer);
    return answer;
  }

  async #send(
    method: HttpMethod,
    path: string,
    payload: string | undefined,
    token: string | undefined,
    signal: AbortSignal | undefined,
  ): Promise<Answer> {
    // Object.assign, not a spread: V8 makes adding the authorization to a spread copy slow.
    const headers: Record<string, string> = Object.assign({}, this.#clientHeaders, {
      accept: 'application/json',
    });
    if (token !== undefined) headers.authorization = `${this.#vendor} ${token}`;
    if (payload !== undefined) headers['content-type'] = 'application/json';
    try {
      return await this.#transport.exchange({ method, path, headers, payload, signal });
    } catch (error) {
      throw this.#noteTransportFailure(error);
    }
  }

  #headersForVendor(vendor: string): Record<string, string> {
    return { [`${vendor}-Client-Id`]: this.#clientId, [`${vendor}-Client-Version`]: this.#clientVersion };
  }

  /** The vendor word a 400 answer names as missing: another than ours, or (`anyWord`) ours too. */
  #vendorNamedIn(answer: Answer, anyWord = false): string | undefined {
    const said = deviceMessageFrom(answer.text, answer.contentType);
    const word = said === undefined ? undefined : NAMED_VENDOR.exec(said)?.[1];
    if (word === undefined) return undefined;
    return anyWord || word.toLowerCase() !== this.#vendor.toLowerCase() ? word : undefined;
  }

  /** The device's word from now on, for the life of this client; the config node tells the user once. */
  #adoptVendor(word: string, method: HttpMethod, path: string): void {
    if (this.#vendorLearned) throw this.#vendorMismatch(word, method, path);
    const configured = this.#vendor;
    this.#vendorLearned = true;
    this.#vendor = word;
    this.#clientHeaders = this.#headersForVendor(word);
    this.emit('vendor', word, configured);
  }

  #vendorMismatch(word: string, method: HttpMethod, path: string): DeviceError {
    const error = new DeviceError(
      'VENDOR_MISMATCH',
      `The device wants the vendor word '${word}' for ${method} ${path}, and did not accept '${this.#vendor}' ` +
        "either: set the vendor word of the config node to the one in the device maker's documentation",
      { statusCode: 400 },
    );
    this.#setState('auth_failed', error);
    return error;
  }

  /** A failure below HTTP: the device is unreachable for every user of this client until it answers. */
  #noteTransportFailure(error: unknown): DeviceError {
    const failure = this.#asDeviceError(error);
    if (failure.code === 'UNREACHABLE' || failure.code === 'TIMEOUT' || failure.code === 'TLS') {
      this.#setState('unreachable', failure);
    }
    return failure;
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

  #asDeviceError(error: unknown): DeviceError {
    if (error instanceof DeviceError) return error;
    if (this.#closed) return new DeviceError('CLOSED', 'The device client is closed');
    return errorFromTransport(error, this.baseUrl, this.#transport.timeoutMs, this.#session.secrets());
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

  #redact(text: string | undefined): string | undefined {
    return text === undefined ? undefined : redact(text, this.#session.secrets());
  }
}
