import type { DeviceError } from '../errors';
import type { CallerSignal } from './abort';
import type { StreamBody } from './stream-body';

/** What an event stream emits and takes: its events, states and options, without the stream itself. */

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

/** What a `warning` is about: the event that was dropped (when its name could be read) and its size. */
export interface StreamWarningDetail {
  droppedEvent?: string;
  /** The dropped event's size in bytes. */
  bytes?: number;
}

export interface EventStreamEvents {
  event: [event: DeviceEvent];
  state: [state: StreamState, detail: StreamStateDetail];
  /** Something was skipped and the stream goes on (an event over the size cap). */
  warning: [warning: DeviceError, detail: StreamWarningDetail];
}

/** An open event-stream response, as the client's `openStream` hands it over. */
export interface StreamResponse {
  statusCode: number;
  headers: Record<string, string>;
  /** Its chunks, for one listener: `body.read({ onChunk, onEnd })`; `body.destroy()` lets go. */
  body: StreamBody;
}

/** What an EventStream needs of the client: open the path once, and ask leave for a new connection. */
export interface StreamSource {
  open(signal: CallerSignal): Promise<StreamResponse>;
  /** 0 when a connection may be opened now (and counts it), else how long to wait. */
  reserveConnect(): number;
}

export interface EventStreamOptions {
  /**
   * A stream silent for this long is taken as dead and reopened. Default 30000. Silent means no byte, or
   * on the data stream (which the device feeds every 5 s) no event: keepalive bytes alone are not life.
   */
  idleTimeoutMs?: number;
  /**
   * Delay before the n-th reconnect in a row: initialMs * 2^(n-1), capped at maxMs, with jitter; a
   * connection that stayed up resetAfterMs starts the count afresh. Defaults 1000, 30000, 60000.
   */
  reconnect?: { initialMs?: number; maxMs?: number; resetAfterMs?: number };
  /** One event larger than this is dropped (with a `warning`); the stream goes on. Default 64 KiB. */
  maxEventBytes?: number;
  /**
   * Called with each event, before the `event` listeners: one direct call, where an emitter costs a
   * fleet of streams a measurable share of each event (bench/README.md, many-rooms).
   */
  onEvent?: (event: DeviceEvent) => void;
}

export const STREAM_DEFAULTS = {
  idleTimeoutMs: 30_000,
  reconnect: { initialMs: 1000, maxMs: 30_000, resetAfterMs: 60_000 },
  maxEventBytes: 64 * 1024,
} as const;
