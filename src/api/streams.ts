import { EventEmitter } from 'node:events';
import { createParser, type EventSourceParser } from 'eventsource-parser';
import { DeviceError } from '../errors';
import { MAX_JSON_DEPTH, nestsDeeperThan } from './bodies';

/** One Server-Sent Event from the device: its name as sent, and its data (parsed JSON, or the text). */
export interface DeviceEvent {
  event: string;
  data: unknown;
  /** Date.now() when the event was read. */
  receivedAt: number;
}

export type StreamState = 'connecting' | 'streaming' | 'reconnecting' | 'auth_failed' | 'closed';

export interface StreamStateDetail {
  /** What ended the last connection or attempt. */
  error?: DeviceError;
  /** When the next attempt starts. */
  retryInMs?: number;
}

export interface EventStreamEvents {
  event: [event: DeviceEvent];
  state: [state: StreamState, detail: StreamStateDetail];
  /** Something was skipped and the stream goes on (an event over the size cap). */
  warning: [warning: DeviceError];
}

/** An open event-stream response, as the client's `openStream` hands it over. */
export interface StreamResponse {
  statusCode: number;
  headers: Record<string, string>;
  body: AsyncIterable<Buffer | Uint8Array>;
}

/** What an EventStream needs of the client: open the path once, and ask leave for a new connection. */
export interface StreamSource {
  open(signal: AbortSignal): Promise<StreamResponse>;
  /** 0 when a connection may be opened now (and counts it), else how long to wait. */
  reserveConnect(): number;
}

export interface EventStreamOptions {
  /** A stream that sends no byte for this long is taken as dead and reopened. Default 30000. */
  idleTimeoutMs?: number;
  /** Delay before the n-th reconnect: initialMs * 2^(n-1), capped at maxMs, with jitter. Defaults 1000, 30000. */
  reconnect?: { initialMs?: number; maxMs?: number };
  /** One event larger than this is dropped (with a `warning`); the stream goes on. Default 64 KiB. */
  maxEventBytes?: number;
}

export const STREAM_DEFAULTS = {
  idleTimeoutMs: 30_000,
  reconnect: { initialMs: 1000, maxMs: 30_000 },
  maxEventBytes: 64 * 1024,
} as const;

/** Events end at a blank line; a dropped oversized event is skipped up to it. */
const EVENT_END = /\r\n\r\n|\n\n|\r\r/;

/** The event's data parsed from JSON; the text itself when it is not JSON, or nested absurdly deep. */
function parseData(text: string): unknown {
  if (nestsDeeperThan(text, MAX_JSON_DEPTH)) return text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function positive(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value <= 0 || value > 2_147_483_647) {
    throw new DeviceError('INVALID_CONFIG', `${name} must be a number of milliseconds from 1 to 2147483647`);
  }
  return value;
}

/**
 * A device event stream that stays open: it reconnects after a drop, after the device ends the response,
 * and after a silence longer than the idle timeout, waiting longer after each failure (capped, with
 * jitter) and never opening more connections than the client's budget allows. A 429 means wait; a
 * refused login waits as long as the client's login backoff says. Nothing happens before `start()`.
 */
export class EventStream extends EventEmitter<EventStreamEvents> {
  readonly path: string;
  readonly #source: StreamSource;
  readonly #idleTimeoutMs: number;
  readonly #reconnect: { initialMs: number; maxMs: number };
  readonly #maxEventBytes: number;
  #state: StreamState = 'connecting';
  #started = false;
  #closed = false;
  #failures = 0;
  #connection: AbortController | undefined;
  #wake: (() => void) | undefined;
  #running: Promise<void> | undefined;

  constructor(path: string, source: StreamSource, options: EventStreamOptions = {}) {
    super();
    this.path = path;
    this.#source = source;
    this.#idleTimeoutMs = positive(options.idleTimeoutMs, STREAM_DEFAULTS.idleTimeoutMs, 'idleTimeoutMs');
    const initialMs = positive(
      options.reconnect?.initialMs,
      STREAM_DEFAULTS.reconnect.initialMs,
      'reconnect.initialMs',
    );
    const maxMs = positive(
      options.reconnect?.maxMs,
      Math.max(STREAM_DEFAULTS.reconnect.maxMs, initialMs),
      'reconnect.maxMs',
    );
    this.#reconnect = { initialMs, maxMs: Math.max(maxMs, initialMs) };
    this.#maxEventBytes = positive(options.maxEventBytes, STREAM_DEFAULTS.maxEventBytes, 'maxEventBytes');
  }

  get state(): StreamState {
    return this.#state;
  }

  start(): void {
    if (this.#started || this.#closed) return;
    this.#started = true;
    this.#running = this.#run();
  }

  /** Ends the stream for good: the open connection and every timer are gone when it resolves. */
  async close(): Promise<void> {
    if (!this.#closed) {
      this.#closed = true;
      this.#connection?.abort();
      this.#wake?.();
      this.#setState('closed', {});
    }
    await this.#running;
  }

  async #run(): Promise<void> {
    while (!this.#closed) {
      const waitMs = this.#source.reserveConnect();
      if (waitMs > 0) {
        // The client's connection budget is spent for now: waiting is the only polite thing to do.
        this.#setState('reconnecting', { retryInMs: waitMs });
        await this.#sleep(waitMs);
        continue;
      }
      const failure = await this.#connectAndRead();
      if (this.#closed) break;
      this.#failures += 1;
      const delay = this.#delayAfter(failure);
      this.#setState(failure.code === 'AUTH_FAILED' ? 'auth_failed' : 'reconnecting', {
        error: failure,
        retryInMs: delay,
      });
      await this.#sleep(delay);
    }
  }

  /** One connection from open to end; resolves with what ended it. */
  async #connectAndRead(): Promise<DeviceError> {
    const connection = new AbortController();
    this.#connection = connection;
    if (this.#state !== 'reconnecting' && this.#state !== 'auth_failed') this.#setState('connecting', {});
    try {
      const response = await this.#source.open(connection.signal);
      if (this.#closed) return new DeviceError('CLOSED', 'The event stream was closed');
      this.#setState('streaming', {});
      return await this.#read(response, connection);
    } catch (error) {
      if (error instanceof DeviceError) return error;
      return new DeviceError('UNREACHABLE', `The event stream ${this.path} failed: ${String(error)}`);
    } finally {
      connection.abort();
      if (this.#connection === connection) this.#connection = undefined;
    }
  }

  async #read(response: StreamResponse, connection: AbortController): Promise<DeviceError> {
    let idle = false;
    let idleTimer: NodeJS.Timeout | undefined;
    const armIdle = (): void => {
      clearTimeout(idleTimer);
      idleTimer = setTimeout(() => {
        idle = true;
        connection.abort();
      }, this.#idleTimeoutMs);
    };
    const decoder = new TextDecoder();
    let pendingBytes = 0;
    let skipping = false;
    let tail = '';
    const parser: EventSourceParser = createParser({
      onEvent: (message) => {
        pendingBytes = 0;
        if (message.data.length > this.#maxEventBytes) {
          this.#warnOversized();
          return;
        }
        // A healthy connection that delivers events earns the short reconnect delay back.
        this.#failures = 0;
        this.emit('event', {
          event: message.event ?? 'message',
          data: parseData(message.data),
          receivedAt: Date.now(),
        });
      },
    });
    try {
      armIdle();
      for await (const chunk of response.body) {
        armIdle();
        let text = decoder.decode(chunk, { stream: true });
        if (skipping) {
          const combined = tail + text;
          const end = EVENT_END.exec(combined);
          if (end === null) {
            tail = combined.slice(-3);
            continue;
          }
          skipping = false;
          tail = '';
          text = combined.slice(end.index + end[0].length);
        }
        pendingBytes += Buffer.byteLength(text);
        if (pendingBytes > this.#maxEventBytes && !EVENT_END.test(text)) {
          parser.reset({ consume: false });
          skipping = true;
          tail = text.slice(-3);
          pendingBytes = 0;
          this.#warnOversized();
          continue;
        }
        parser.feed(text);
        if (pendingBytes > this.#maxEventBytes) pendingBytes = 0;
      }
      return new DeviceError('UNREACHABLE', `The device ended the event stream ${this.path}`);
    } catch (error) {
      if (idle) {
        return new DeviceError(
          'TIMEOUT',
          `No byte on the event stream ${this.path} for ${this.#idleTimeoutMs} ms: reconnecting`,
        );
      }
      if (error instanceof DeviceError) return error;
      return new DeviceError('UNREACHABLE', `The event stream ${this.path} broke off: ${errorText(error)}`);
    } finally {
      clearTimeout(idleTimer);
    }
  }

  #warnOversized(): void {
    this.emit(
      'warning',
      new DeviceError(
        'BAD_RESPONSE',
        `An event on ${this.path} is larger than ${this.#maxEventBytes} bytes: dropped it, the stream goes on`,
      ),
    );
  }

  #delayAfter(failure: DeviceError): number {
    const backoff = Math.min(this.#reconnect.initialMs * 2 ** (this.#failures - 1), this.#reconnect.maxMs);
    // Jitter spreads the reconnects of many clients after one device restart.
    const jittered = Math.round(backoff * (0.5 + Math.random() * 0.5));
    return Math.max(jittered, failure.retryAfterMs ?? 0);
  }

  #sleep(ms: number): Promise<void> {
    if (this.#closed) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done(): void {
        clearTimeout(timer);
        resolve();
      }
      this.#wake = () => {
        this.#wake = undefined;
        done();
      };
    });
  }

  #setState(state: StreamState, detail: StreamStateDetail): void {
    if (state === this.#state && state === 'streaming') return;
    this.#state = state;
    this.emit('state', state, detail);
  }
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * At most `perMinute` new stream connections in any minute: the device allows about 60 a minute per
 * client and answers 429 past it. One budget per client, shared by all its streams.
 */
export class StreamConnectBudget {
  readonly #perMinute: number;
  readonly #now: () => number;
  #stamps: number[] = [];

  constructor(perMinute: number, now: () => number = Date.now) {
    this.#perMinute = perMinute;
    this.#now = now;
  }

  reserve(): number {
    const now = this.#now();
    this.#stamps = this.#stamps.filter((stamp) => stamp > now - 60_000);
    if (this.#stamps.length < this.#perMinute) {
      this.#stamps.push(now);
      return 0;
    }
    return Math.max(1, (this.#stamps[0] as number) + 60_000 - now);
  }
}
