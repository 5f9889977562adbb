import { DATA_EVENT_NAMES, STREAM_PATHS as DEVICE_STREAM_PATHS, dataErrorEventName } from '../api/protocol';
import type { StreamWarningDetail } from '../api/streams';
import type { DeviceError } from '../errors';

/**
 * A device connection's live streams: at most one per purpose, opened when the first node subscribes and
 * closed when the last one goes or the connection closes, as Node-RED's mqtt-broker shares one broker
 * connection among its nodes. Reconnecting is the stream's own job (src/api/streams.ts); the hub only
 * shares, fans out and reads the state into the condition that node status shows.
 */

/** What the hub needs of a stream: the client's EventStream has this shape. */
export interface LiveStream {
  on(name: 'state', listener: (state: LiveStreamState, detail: LiveStreamStateDetail) => void): unknown;
  /** Something was skipped and the stream goes on (an event over the size cap). */
  on(name: 'warning', listener: (warning: DeviceError, detail: StreamWarningDetail) => void): unknown;
  removeAllListeners(): unknown;
  start(): void;
  close(): Promise<void>;
}

export interface StreamEvent {
  event: string;
  data: unknown;
  receivedAt: number;
}

export type LiveStreamState = 'connecting' | 'streaming' | 'reconnecting' | 'auth_failed' | 'closed';

export interface LiveStreamStateDetail {
  error?: DeviceError;
  retryInMs?: number;
}

/** The data stream (talker position, metrics) and the change stream (device changes). */
export type StreamKind = 'data' | 'changes';

/** Makes the stream for a path, calling `onEvent` directly with each of its events. */
export type OpenLiveStream = (path: string, onEvent: (event: StreamEvent) => void) => LiveStream;

export const STREAM_PATHS: Readonly<Record<StreamKind, string>> = DEVICE_STREAM_PATHS;

export { DATA_EVENT_NAMES };

/** What a subscriber's status shows for one stream. */
export type StreamCondition =
  | { state: 'connecting' }
  | { state: 'streaming' }
  | { state: 'muted' }
  | { state: 'reconnecting'; retryInMs: number | undefined; code: string | undefined; error?: DeviceError }
  | { state: 'auth_failed'; error?: DeviceError };

export interface StreamSubscriber {
  onEvent(event: StreamEvent): void;
  onCondition?(condition: StreamCondition, kind: StreamKind): void;
  /** The stream skipped something (an event over the size cap) and goes on. */
  onWarning?(warning: DeviceError, kind: StreamKind, detail: StreamWarningDetail): void;
}

/** The device answers `error (soundLocation)` with 503 while the microphone is muted; the stream goes on. */
const MUTED_EVENT = dataErrorEventName('soundLocation');

function isMutedEvent(event: StreamEvent): boolean {
  const data = event.data as { statusCode?: unknown } | null;
  return typeof data === 'object' && data !== null && data.statusCode === 503;
}

/** Hears a stream's first warning on each of its connections (a log line, not one per event of a flood). */
export type FirstWarningWatcher = (
  warning: DeviceError,
  kind: StreamKind,
  detail: StreamWarningDetail,
) => void;

interface SharedStreamWatchers {
  onMuted(muted: boolean): void;
  onFirstWarning: FirstWarningWatcher;
}

class SharedStream {
  readonly stream: LiveStream;
  /** Replaced, never changed in place: an event's fan-out goes on over the list it began with. */
  #subscribers: readonly StreamSubscriber[] = [];
  #condition: StreamCondition = { state: 'connecting' };
  #muted = false;
  #streamState: LiveStreamState = 'connecting';
  /** Whether this connection has warned already. */
  #warned = false;

  constructor(
    readonly kind: StreamKind,
    open: OpenLiveStream,
    readonly watchers: SharedStreamWatchers,
  ) {
    const stream = open(STREAM_PATHS[kind], (event) => this.#onEvent(event));
    this.stream = stream;
    stream.on('state', (state, detail) => this.#onState(state, detail));
    stream.on('warning', (warning, detail) => {
      if (!this.#warned) watchers.onFirstWarning(warning, kind, detail);
      this.#warned = true;
      for (const subscriber of this.#subscribers) subscriber.onWarning?.(warning, kind, detail);
    });
  }

  get condition(): StreamCondition {
    return this.#condition;
  }

  get subscriberCount(): number {
    return this.#subscribers.length;
  }

  add(subscriber: StreamSubscriber): void {
    if (!this.#subscribers.includes(subscriber)) this.#subscribers = [...this.#subscribers, subscriber];
  }

  /** Whether `subscriber` was one. */
  remove(subscriber: StreamSubscriber): boolean {
    const left = this.#subscribers.filter((known) => known !== subscriber);
    if (left.length === this.#subscribers.length) return false;
    this.#subscribers = left;
    return true;
  }

  clear(): void {
    this.#subscribers = [];
  }

  // Runs for every event of every device: the usual reading costs one comparison before the fan-out.
  #onEvent(event: StreamEvent): void {
    if (this.kind === 'data') {
      const name = event.event;
      if (name === 'soundLocation') {
        if (this.#muted) this.#setMuted(false);
      } else if (name === MUTED_EVENT && isMutedEvent(event)) this.#setMuted(true);
    }
    const subscribers = this.#subscribers;
    for (const subscriber of subscribers) {
      // One that a subscriber before it let go (its node closed) hears no more.
      if (this.#subscribers !== subscribers && !this.#subscribers.includes(subscriber)) continue;
      subscriber.onEvent(event);
    }
  }

  #onState(state: LiveStreamState, detail: LiveStreamStateDetail): void {
    this.#streamState = state;
    if (state !== 'streaming') this.#warned = false;
    // A new connection learns again whether the microphone is muted: the device repeats the error at once.
    if (state !== 'streaming') this.#muted = false;
    this.#publish(this.#conditionOf(state, detail));
  }

  #setMuted(muted: boolean): void {
    if (muted === this.#muted) return;
    this.#muted = muted;
    this.watchers.onMuted(muted);
    if (this.#streamState === 'streaming') this.#publish(this.#conditionOf('streaming', {}));
  }

  #conditionOf(state: LiveStreamState, detail: LiveStreamStateDetail): StreamCondition {
    switch (state) {
      case 'streaming':
        return this.#muted ? { state: 'muted' } : { state: 'streaming' };
      case 'reconnecting':
        return {
          state: 'reconnecting',
          retryInMs: detail.retryInMs,
          code: detail.error?.code,
          ...(detail.error === undefined ? {} : { error: detail.error }),
        };
      case 'auth_failed':
        return detail.error === undefined
          ? { state: 'auth_failed' }
          : { state: 'auth_failed', error: detail.error };
      case 'connecting':
      case 'closed':
        return { state: 'connecting' };
    }
  }

  #publish(condition: StreamCondition): void {
    this.#condition = condition;
    for (const subscriber of this.#subscribers) subscriber.onCondition?.(condition, this.kind);
  }
}

export class StreamHub {
  readonly #open: OpenLiveStream;
  readonly #streams = new Map<StreamKind, SharedStream>();
  readonly #closing = new Set<Promise<void>>();
  readonly #muteWatchers = new Set<(muted: boolean) => void>();
  readonly #warningWatchers = new Set<FirstWarningWatcher>();
  #closed = false;

  /** `open` makes a stream for a path (the connection passes its client's `eventStream`). */
  constructor(open: OpenLiveStream) {
    this.#open = open;
  }

  /**
   * Adds a subscriber to the stream of `kind`, opening it when it is the first; returns the function that
   * removes it again (closing the stream when it was the last). The subscriber hears the stream's current
   * condition at once. Throws what `open` throws.
   */
  subscribe(kind: StreamKind, subscriber: StreamSubscriber): () => void {
    if (this.#closed) return () => {};
    let shared = this.#streams.get(kind);
    if (shared === undefined) {
      shared = new SharedStream(kind, this.#open, {
        onMuted: (muted) => {
          for (const watcher of this.#muteWatchers) watcher(muted);
        },
        onFirstWarning: (warning, kind, detail) => {
          for (const watcher of this.#warningWatchers) watcher(warning, kind, detail);
        },
      });
      this.#streams.set(kind, shared);
      shared.add(subscriber);
      shared.stream.start();
    } else {
      shared.add(subscriber);
    }
    subscriber.onCondition?.(shared.condition, kind);
    const subscribed = shared;
    return () => {
      if (!subscribed.remove(subscriber)) return;
      if (subscribed.subscriberCount > 0 || this.#streams.get(kind) !== subscribed) return;
      this.#streams.delete(kind);
      this.#closeStream(subscribed);
    };
  }

  /**
   * Hears the microphone muted and live again as the data stream tells it (its `error (soundLocation)`
   * 503, then readings again), while that stream is open for some subscriber: watching does not open it.
   * Returns the function that stops watching.
   */
  watchMute(watcher: (muted: boolean) => void): () => void {
    if (this.#closed) return () => {};
    this.#muteWatchers.add(watcher);
    return () => this.#muteWatchers.delete(watcher);
  }

  /**
   * Hears the first warning (an event dropped for its size) of each connection of each open stream:
   * one per connection however many events a device floods it with. Returns the function that stops.
   */
  watchFirstWarnings(watcher: FirstWarningWatcher): () => void {
    if (this.#closed) return () => {};
    this.#warningWatchers.add(watcher);
    return () => this.#warningWatchers.delete(watcher);
  }

  /** Closes every stream; later subscriptions are ignored. Resolves when every socket and timer is free. */
  async close(): Promise<void> {
    this.#closed = true;
    this.#muteWatchers.clear();
    this.#warningWatchers.clear();
    for (const shared of this.#streams.values()) this.#closeStream(shared);
    this.#streams.clear();
    await Promise.all([...this.#closing]);
  }

  #closeStream(shared: SharedStream): void {
    shared.clear();
    shared.stream.removeAllListeners();
    // A failing close is the stream's own business: the socket is gone either way.
    const closing = shared.stream.close().catch(() => undefined);
    this.#closing.add(closing);
    void closing.then(() => this.#closing.delete(closing));
  }
}
