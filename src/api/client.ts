import { EventEmitter } from 'node:events';
import { inspect } from 'node:util';
import type { DeviceError } from '../errors';
import type { CallerSignal } from './abort';
import { type Answer, assertEventStream, encodeBody, flattenHeaders, isSuccess, parseBody } from './bodies';
import { streamConnectBudget } from './connect-budget';
import { deviceMessageFrom } from './device-message';
import { clientClosedError, errorFromStatus } from './errors';
import { refusedAfterLogin, sendWithFreshLogin } from './fresh-login';
import { loginBudgetOf } from './login-budget';
import { DEVICE_PATHS } from './protocol';
import { RateLimitPause } from './rate-limit';
import { redact } from './redact';
import { RequestLimiter } from './request-limiter';
import { RequestSender } from './sender';
import { Session } from './session';
import { clientSettingsFor, type ResolvedClientSettings } from './settings';
import { EventStream, type EventStreamOptions, type StreamResponse } from './streams';
import { DeviceTransport } from './transport';
import type {
  Account,
  ConnectionState,
  DeviceClientEvents,
  DeviceClientOptions,
  DeviceRequester,
  DeviceResponse,
  HttpMethod,
  RequestOptions,
} from './types';
import { validateApiPath, validateRequest } from './url';
import { VendorWords } from './vendor-words';

const MINUTE_MS = 60_000;

/**
 * The device client, the one object its users hold. It puts the layers together: the session (login and
 * its budget), the transport (pool, TLS, timeouts, caps), the bodies, one fresh login after a 401
 * (./fresh-login), the vendor word (./vendor-words), the request ceiling and the pause after a rate-limit
 * answer (./limiter, ./rate-limit); and adds identical GETs in flight shared, event streams and one
 * connection state. Every failure is a DeviceError with a stable code.
 */
export class DeviceClient extends EventEmitter<DeviceClientEvents> implements DeviceRequester {
  readonly baseUrl: string;
  readonly account: Account;

  #state: ConnectionState = 'idle';
  #closed = false;
  #closing: Promise<void> | undefined;
  readonly #limiter: RequestLimiter;
  readonly #rateLimit: RateLimitPause;
  readonly #session: Session;
  readonly #transport: DeviceTransport;
  readonly #sender: RequestSender;
  readonly #inFlightGets = new Map<string, Promise<DeviceResponse>>();
  readonly #reserveStreamConnect: () => number;
  readonly #eventStreams = new Set<EventStream>();

  /** A library user's options are checked here; settings already checked (./settings) are taken as they are. */
  constructor(options: DeviceClientOptions | ResolvedClientSettings) {
    super();
    const settings = clientSettingsFor(options);
    this.baseUrl = settings.baseUrl;
    this.account = settings.account;
    this.#limiter = new RequestLimiter(settings.maxRequestsPerMinute, MINUTE_MS);
    this.#rateLimit = new RateLimitPause(settings.rateLimitBackoff, this.#limiter);
    this.#reserveStreamConnect = streamConnectBudget(settings.baseUrl, settings.maxStreamConnectsPerMinute);
    this.#session = new Session({
      account: settings.account,
      password: settings.password,
      loginBackoff: settings.loginBackoff,
      budget: loginBudgetOf(settings.baseUrl, settings.account),
      postLogin: (body) => this.#exchange('POST', DEVICE_PATHS.login, body, undefined, undefined),
      onState: (state, error) => this.#setState(state, error),
    });
    this.#transport = new DeviceTransport({
      baseUrl: settings.baseUrl,
      tls: settings.tls,
      timeoutMs: settings.timeoutMs,
      onPinned: (fingerprint256) => this.emit('pinned', fingerprint256),
      trustFirstUse: settings.trustFirstUse,
      onPinMismatch: (expected, seen) => this.emit('pinMismatch', expected, seen),
      secrets: () => this.#session.secrets(),
    });
    this.#sender = new RequestSender({
      limiter: this.#limiter,
      vendor: new VendorWords({
        vendor: settings.vendor,
        clientId: settings.clientId,
        clientVersion: settings.clientVersion,
        onLearned: (word, configured) => this.emit('vendor', word, configured),
      }),
      transport: this.#transport,
      isClosed: () => this.#closed,
      secrets: () => this.#session.secrets(),
      onFailure: (failure) => this.#noteFailure(failure),
    });
  }

  get state(): ConnectionState {
    return this.#state;
  }

  /** The word in the Authorization scheme and the client header names: configured, or the device's own. */
  get vendor(): string {
    return this.#sender.vendorWord;
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
      const apiPath = validateRequest(method, path);
      const payload = encodeBody(body);
      if (method === 'GET' && payload === undefined && options.signal === undefined) {
        // Identical GETs in flight share one device request; each caller gets its own copy of the answer.
        const shared = this.#inFlightGets.get(apiPath);
        if (shared !== undefined) return structuredClone(await shared) as DeviceResponse<T>;
        const read = this.#authorizedRequest('GET', apiPath, undefined, undefined).finally(() => {
          this.#inFlightGets.delete(apiPath);
        });
        this.#inFlightGets.set(apiPath, read);
        return (await read) as DeviceResponse<T>;
      }
      return (await this.#authorizedRequest(method, apiPath, payload, options.signal)) as DeviceResponse<T>;
    } catch (error) {
      throw this.#sender.failure(error);
    }
  }

  /**
   * A device event stream on `path` (for example STREAM_PATHS.changes) that reconnects by itself; it
   * opens on `start()`. Every stream shares the client's session, TLS settings and headers, and the
   * device's connection budget.
   */
  eventStream(path: string, options: EventStreamOptions = {}): EventStream {
    this.#assertOpen();
    const apiPath = validateApiPath(path);
    const stream = new EventStream(
      apiPath,
      {
        open: (signal) => this.openStream(apiPath, { signal }),
        reserveConnect: this.#reserveStreamConnect,
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
   * and one retry after a 401). The connection, the headers and an error answer's body have a timeout;
   * an event stream's body is the caller's to read and to end through `signal`.
   */
  async openStream(path: string, options: { signal: CallerSignal }): Promise<StreamResponse> {
    try {
      this.#assertOpen();
      const apiPath = validateApiPath(path);
      const { response, token } = await sendWithFreshLogin(
        this.#session,
        (token) => this.#sender.openStream(apiPath, token, options.signal),
        (refused) => this.#transport.readShort(refused),
      );
      const headers = flattenHeaders(response.headers);
      const contentType = headers['content-type'] ?? '';
      if (!isSuccess(response.statusCode)) {
        const text = await this.#transport.readShort(response);
        const answer: Answer = { statusCode: response.statusCode, headers, contentType, text };
        if (answer.statusCode === 401) throw this.#refused(token, `the event stream ${apiPath}`, answer);
        this.#checkRateLimit('GET', apiPath, answer);
        this.#judge('GET', apiPath, answer);
      }
      assertEventStream(apiPath, response.statusCode, headers, response.body);
      this.#setState('connected');
      this.#session.confirmed();
      return { statusCode: response.statusCode, headers, body: response.body };
    } catch (error) {
      throw this.#sender.failure(error);
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

  async #authorizedRequest(
    method: HttpMethod,
    path: string,
    payload: string | undefined,
    signal: AbortSignal | undefined,
  ): Promise<DeviceResponse> {
    const { response, token } = await sendWithFreshLogin(
      this.#session,
      (token) => this.#exchange(method, path, payload, token, signal),
      () => Promise.resolve(),
    );
    if (response.statusCode === 401) throw this.#refused(token, `${method} ${path}`, response);
    return this.#judge(method, path, response);
  }

  #refused(token: string, what: string, answer: Answer): DeviceError {
    const error = refusedAfterLogin(this.#session, token, what, answer, (text) => this.#redact(text));
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
    const body = parseBody(method, path, answer, this.#session.secrets());
    return { statusCode: answer.statusCode, body, headers: answer.headers };
  }

  /** One HTTP exchange under the request ceiling; rate-limit answers become errors here. */
  readonly #exchange: RequestSender['exchange'] = async (method, path, payload, token, signal) => {
    const answer = await this.#sender.exchange(method, path, payload, token, signal);
    this.#checkRateLimit(method, path, answer);
    return answer;
  };

  /** A failure below HTTP makes the device unreachable for every user until it answers again. */
  #noteFailure(failure: DeviceError): void {
    if (failure.code === 'UNREACHABLE' || failure.code === 'TIMEOUT' || failure.code === 'TLS') {
      this.#setState('unreachable', failure);
    } else if (failure.code === 'VENDOR_MISMATCH') {
      this.#setState('auth_failed', failure);
    }
  }

  #checkRateLimit(method: HttpMethod, path: string, answer: Answer): void {
    const error = this.#rateLimit.judge(method, path, answer, this.account, (text) => this.#redact(text));
    if (error === undefined) return;
    this.#setState('rate_limited', error);
    throw error;
  }

  #assertOpen(): void {
    if (this.#closed) throw clientClosedError();
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
