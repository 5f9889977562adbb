import { EventEmitter } from 'node:events';
import { DeviceError } from '../errors';
import { backoffDelay, withJitter } from '../timing/backoff';
import { RequestAbort } from './abort';
import { MAX_JSON_DEPTH, nestsDeeperThan } from './bodies';
import { STEADY_EVENT_STREAMS } from './protocol';
import { positive } from './settings';
import { MAX_TIMER_MS } from './settings-rules';
import { SseReader } from './sse-reader';
import {
  type DeviceEvent,
  type EventStreamEvents,
  type EventStreamOptions,
  STREAM_DEFAULTS,
  type StreamResponse,
  type StreamSource,
  type StreamState,
  type StreamStateDetail,
} from './stream-types';

export type {
  DeviceEvent,
  EventStreamEvents,
  EventStreamOptions,
  StreamResponse,
  StreamSource,
  StreamState,
  StreamStateDetail,
  StreamWarningDetail,
} from './stream-types';
export { STREAM_DEFAULTS };

/** The event's data parsed from JSON; the text itself when it is not JSON, or nested absurdly deep. */
function parseData(text: string): unknown {
  if (nestsDeeperThan(text, MAX_JSON_DEPTH)) return text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function milliseconds(name: string, value: number | undefined, fallback: number): number {
  return positive(name, value, fallback, { max: MAX_TIMER_MS });
}

/**
 * A device event stream that stays open: it reconnects after a drop, after the device ends the response,
 * and after a silence longer than the idle timeout, waiting longer after each failure (capped, with
 * jitter) and never opening more connections than the device's budget allows. A 429 means wait; a
 * refused login waits as long as the client's login backoff says. Nothing happens before `start()`.
 */
export class EventStream extends EventEmitter<EventStreamEvents> {
  readonly path: string;
  readonly #source: StreamSource;
  readonly #idleTimeoutMs: number;
  readonly #aliveOnEventsOnly: boolean;
  readonly #reconnect: { initialMs: number; maxMs: number; resetAfterMs: number };
  readonly #maxEventBytes: number;
  readonly #onEvent: ((event: DeviceEvent) => void) | undefined;
  #state: StreamState = 'connecting';
  #started = false;
  #closed = false;
  #failures = 0;
  #connection: RequestAbort | undefined;
  #wake: (() => void) | undefined;
  #running: Promise<void> | undefined;

  constructor(path: string, source: StreamSource, options: EventStreamOptions = {}) {
    super();
    this.path = path;
    this.#source = source;
    this.#idleTimeoutMs = milliseconds('idleTimeoutMs', options.idleTimeoutMs, STREAM_DEFAULTS.idleTimeoutMs);
    this.#aliveOnEventsOnly = STEADY_EVENT_STREAMS.includes(path.split('?', 1)[0] ?? '');
    const defaults = STREAM_DEFAULTS.reconnect;
    const initialMs = milliseconds('reconnect.initialMs', options.reconnect?.initialMs, defaults.initialMs);
    const maxMs = milliseconds(
      'reconnect.maxMs',
      options.reconnect?.maxMs,
      Math.max(defaults.maxMs, initialMs),
    );
    const resetAfterMs = milliseconds(
      'reconnect.resetAfterMs',
      options.reconnect?.resetAfterMs,
      defaults.resetAfterMs,
    );
    this.#reconnect = { initialMs, maxMs: Math.max(maxMs, initialMs), resetAfterMs };
    this.#maxEventBytes = positive('maxEventBytes', options.maxEventBytes, STREAM_DEFAULTS.maxEventBytes, {
      integer: true,
      max: MAX_TIMER_MS,
    });
    this.#onEvent = options.onEvent;
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
        // The device's connection budget is spent for now: waiting is the only polite thing to do.
        this.#setState('reconnecting', { retryInMs: waitMs });
        await this.#sleep(waitMs);
        continue;
      }
      const failure = await this.#connectAndRead();
      if (this.#closed) break;
      this.#failures += 1;
      const delay = Math.max(
        withJitter(backoffDelay(this.#reconnect, this.#failures)),
        failure.retryAfterMs ?? 0,
      );
      this.#setState(failure.code === 'AUTH_FAILED' ? 'auth_failed' : 'reconnecting', {
        error: failure,
        retryInMs: delay,
      });
      await this.#sleep(delay);
    }
  }

  /** One connection from open to end; resolves with what ended it. */
  async #connectAndRead(): Promise<DeviceError> {
    const connection = new RequestAbort();
    this.#connection = connection;
    if (this.#state !== 'reconnecting' && this.#state !== 'auth_failed') this.#setState('connecting', {});
    try {
      const response = await this.#source.open(connection);
      if (this.#closed) return new DeviceError('CLOSED', 'The event stream was closed');
      this.#setState('streaming', {});
      return await this.#read(response, connection);
    } catch (error) {
      if (error instanceof DeviceError) return error;
      return new DeviceError('UNREACHABLE', `The event stream ${this.path} failed: ${errorText(error)}`);
    } finally {
      connection.abort();
      if (this.#connection === connection) this.#connection = undefined;
    }
  }

  /**
   * Reads the body until it ends, breaks off or goes silent. Each chunk comes in a direct call (see
   * StreamBody): an async iterator would cost a promise, a microtask and a `nextTick` per chunk, most of
   * what a reading costs on a fleet of devices (bench/README.md, many-rooms).
   */
  #read(response: StreamResponse, connection: RequestAbort): Promise<DeviceError> {
    const { body } = response;
    let idle = false;
    // Life is noted as a time, and the timer looks at it when it fires: moving a timer for every event of
    // every stream costs more than the rest of the stream's bookkeeping.
    let lastLifeAt = Date.now();
    let idleTimer: NodeJS.Timeout;
    const watchIdle = (delayMs: number): void => {
      idleTimer = setTimeout(() => {
        const now = Date.now();
        // A clock set back makes the last life look future: it counts from now then.
        if (lastLifeAt > now) lastLifeAt = now;
        const silentMs = now - lastLifeAt;
        if (silentMs < this.#idleTimeoutMs) {
          watchIdle(this.#idleTimeoutMs - silentMs);
          return;
        }
        idle = true;
        connection.abort();
      }, delayMs);
    };
    watchIdle(this.#idleTimeoutMs);
    // A connection that stays up this long has earned the short reconnect delay back.
    const healthy = setTimeout(() => {
      this.#failures = 0;
    }, this.#reconnect.resetAfterMs);
    const reader = new SseReader({
      maxEventBytes: this.#maxEventBytes,
      onEvent: (event, data) => {
        const receivedAt = Date.now();
        if (this.#aliveOnEventsOnly) lastLifeAt = receivedAt;
        const read: DeviceEvent = { event, data: parseData(data), receivedAt };
        this.#onEvent?.(read);
        if (this.listenerCount('event') > 0) this.emit('event', read);
      },
      onOversized: (name, bytes) => this.#warnOversized(name, bytes),
    });
    return new Promise<DeviceError>((resolve) => {
      let ended = false;
      const end = (result: DeviceError): void => {
        if (ended) return;
        ended = true;
        clearTimeout(idleTimer);
        clearTimeout(healthy);
        resolve(result);
      };
      const brokeOff = (error: unknown): void => {
        if (idle) {
          const silence = this.#aliveOnEventsOnly ? 'No event' : 'No byte';
          end(
            new DeviceError(
              'TIMEOUT',
              `${silence} on the event stream ${this.path} for ${this.#idleTimeoutMs} ms: reconnecting`,
            ),
          );
        } else if (error instanceof DeviceError) end(error);
        else
          end(new DeviceError('UNREACHABLE', `The event stream ${this.path} broke off: ${errorText(error)}`));
      };
      body.read({
        onChunk: (chunk) => {
          if (ended) return;
          if (!this.#aliveOnEventsOnly) lastLifeAt = Date.now();
          try {
            reader.feed(chunk);
          } catch (error) {
            // A listener that throws ends this connection as a broken one, not the process.
            brokeOff(error);
            connection.abort();
          }
        },
        onEnd: (error) => {
          if (error === undefined) {
            end(new DeviceError('UNREACHABLE', `The device ended the event stream ${this.path}`));
          } else brokeOff(error);
        },
      });
    });
  }

  #warnOversized(name: string | undefined, bytes: number): void {
    const which = name === undefined ? 'An event' : `The event '${name}'`;
    this.emit(
      'warning',
      new DeviceError(
        'BAD_RESPONSE',
        `${which} on ${this.path} (${bytes} bytes) is larger than ${this.#maxEventBytes} bytes: dropped it, the stream goes on`,
      ),
      name === undefined ? { bytes } : { droppedEvent: name, bytes },
    );
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
