import { MAX_TIMER_MS } from '../api/settings-rules';
import type { DeviceRequester } from '../api/types';
import { DeviceError, isDeviceError } from '../errors';
import { type Backoff, backoffDelay, withJitter } from '../timing/backoff';
import { CoalescedTask } from '../timing/coalesced-task';
import { isZonesChange, withGeometry, zonesFromChange } from '../zones';
import { readRoomZones, type ZonesEndpointMemory } from '../zones/room-zones';
import type { ZoneReadResult, ZoneWithGeometry } from '../zones/types';
import type { StreamSubscriber } from './stream-hub';
import { onStreamingAgain } from './stream-return';

/**
 * The least time between the end of one read that a change announcement asked for and the start of the
 * next: a device that floods the change stream with announcements that carry no readable zones costs at
 * most one read a second, not one per announcement.
 */
const ZONES_READ_GAP_MS = 1_000;

/**
 * A failed read is tried again after this wait (doubling per failure in a row, with jitter) while anyone
 * follows the zones: an active zone node places nothing without them, and a read that failed while a
 * deploy of many rooms crowded the devices must not leave a room dark for the refresh time.
 */
const ZONES_RETRY: Backoff = { initialMs: 2000, maxMs: 60_000 };

/** The zones as last read or announced, with what every node derives from them, done once per value. */
export interface KnownZones extends ZoneReadResult {
  /** Each zone with its bounds and centre (the zones themselves are JSON as the device sent them). */
  readonly geometry: readonly ZoneWithGeometry[];
  /** Date.now() when they were read or announced. */
  readonly at: number;
}

/** Hears the zones of a device. Both calls are made synchronously from the owner: keep them short. */
export interface ZonesListener {
  /** Zones read or announced, whether or not they differ from the previous ones. */
  onZones(zones: KnownZones): void;
  /** A read failed. A follower's zones are read again by the owner (backing off) until a read works. */
  onError?(error: DeviceError): void;
}

export interface ZonesSubscription {
  /**
   * Hear every zones the owner learns (from the change stream, or any read) and have them kept fresh:
   * read when the device announces a change it did not send in full, when the change stream is back
   * after a gap, after a failed read (backing off), and after `refreshMs` without news. Default true.
   */
  follow?: boolean;
  /** Have the zones read on this rhythm as well (a tick is skipped while this subscriber's read runs). */
  everyMs?: number;
  /**
   * Hear the zones at once: the followed zones when the owner follows the device already, else a read
   * now. Default true.
   */
  initial?: boolean;
}

export interface DeviceZonesOptions {
  /** Subscribes to the device's change stream; returns the function that leaves it. */
  followChanges: (subscriber: StreamSubscriber) => () => void;
  /** The net under the change stream: followed zones with no news for this long are read again. */
  refreshMs: number;
}

interface Subscriber {
  readonly listener: ZonesListener;
  readonly follow: boolean;
  poll?: NodeJS.Timeout;
  polling: boolean;
}

/** One read of the zones in flight, and the listeners that handle its answer themselves. */
interface Flight {
  readonly answer: Promise<KnownZones>;
  readonly askers: Set<ZonesListener>;
}

function asDeviceError(error: unknown): DeviceError {
  if (isDeviceError(error)) return error;
  return new DeviceError('BAD_RESPONSE', error instanceof Error ? error.message : String(error));
}

/**
 * The one owner of a device's room zones, for every node of the device: it reads them (one read in flight
 * at a time, shared), follows the change stream while anyone follows, tries a failed read again, refreshes
 * them, and keeps polls on the rhythms nodes ask for. Nodes turn what it hands them into messages.
 */
export class DeviceZones {
  readonly #requester: DeviceRequester;
  readonly #options: DeviceZonesOptions;
  readonly #endpoint: ZonesEndpointMemory = { inLayout: false };
  readonly #subscribers = new Set<Subscriber>();
  readonly #readAfterChange: CoalescedTask;
  #known: KnownZones | undefined;
  /** Whether the known zones were learnt while following: only then are they kept fresh. */
  #knownFollowed = false;
  #flight: Flight | undefined;
  #followers = 0;
  #stopFollowing: (() => void) | undefined;
  /** The next read of the followed zones: a retry after a failure, or the refresh net. */
  #nextRead: NodeJS.Timeout | undefined;
  #failures = 0;
  /** Counts the readable zone lists announced: a read that started before the latest one is older. */
  #announced = 0;
  #closed = false;

  constructor(requester: DeviceRequester, options: DeviceZonesOptions) {
    this.#requester = requester;
    this.#options = options;
    this.#readAfterChange = new CoalescedTask(() => this.#readQuietly(), ZONES_READ_GAP_MS);
  }

  /** The zones last read or announced, if any (followed or not: see `at` for their age). */
  current(): KnownZones | undefined {
    return this.#known;
  }

  /**
   * Reads the zones now, or joins the read in flight. Resolves with the newest zones known when it ends
   * (a change announced meanwhile is newer than what the read found). Followers hear the answer too,
   * except `asker`, which handles it itself.
   */
  read(asker?: ZonesListener): Promise<KnownZones> {
    const flight = this.#flight ?? this.#startRead();
    if (asker !== undefined) flight.askers.add(asker);
    return flight.answer;
  }

  /** The zones if they are younger than `maxAgeMs`, else a read (shared with one in flight). */
  fresh(maxAgeMs: number): Promise<KnownZones> {
    const known = this.#known;
    if (known !== undefined && Date.now() - known.at < maxAgeMs) return Promise.resolve(known);
    return this.read();
  }

  /**
   * Hands `listener` the zones as `options` say. Opening the change stream for the first follower throws
   * what opening it throws. Returns the function that ends the subscription (the last follower out
   * closes the stream and every timer).
   */
  subscribe(listener: ZonesListener, options: ZonesSubscription = {}): () => void {
    if (this.#closed) return () => {};
    const subscriber: Subscriber = { listener, follow: options.follow ?? true, polling: false };
    const trusted = this.#knownFollowed ? this.#known : undefined;
    if (subscriber.follow) this.#follow();
    this.#subscribers.add(subscriber);
    const { everyMs } = options;
    if (everyMs !== undefined && everyMs > 0) {
      subscriber.poll = setInterval(() => this.#poll(subscriber), Math.min(everyMs, MAX_TIMER_MS));
    }
    if (options.initial ?? true) {
      if (trusted !== undefined) listener.onZones(trusted);
      else if (subscriber.follow) void this.read().catch(() => undefined);
      else this.#poll(subscriber);
    }
    return () => this.#unsubscribe(subscriber);
  }

  close(): void {
    this.#closed = true;
    for (const subscriber of [...this.#subscribers]) this.#unsubscribe(subscriber);
    this.#readAfterChange.close();
  }

  #follow(): void {
    if (this.#followers === 0) {
      this.#stopFollowing = this.#options.followChanges(this.#changeSubscriber());
      this.#knownFollowed = false;
      this.#failures = 0;
    }
    this.#followers++;
  }

  #unsubscribe(subscriber: Subscriber): void {
    if (!this.#subscribers.delete(subscriber)) return;
    clearInterval(subscriber.poll);
    if (!subscriber.follow || --this.#followers > 0) return;
    this.#stopFollowing?.();
    this.#stopFollowing = undefined;
    this.#knownFollowed = false;
    this.#readAfterChange.cancel();
    clearTimeout(this.#nextRead);
    this.#nextRead = undefined;
  }

  /** A read on a subscriber's own rhythm: its answer or failure goes to that subscriber in any case. */
  #poll(subscriber: Subscriber): void {
    if (subscriber.polling) return;
    subscriber.polling = true;
    this.read(subscriber.listener).then(
      (zones) => {
        subscriber.polling = false;
        if (this.#subscribers.has(subscriber)) subscriber.listener.onZones(zones);
      },
      (error: unknown) => {
        subscriber.polling = false;
        if (this.#subscribers.has(subscriber)) subscriber.listener.onError?.(asDeviceError(error));
      },
    );
  }

  #startRead(): Flight {
    const startedAt = this.#announced;
    const askers = new Set<ZonesListener>();
    const answer = readRoomZones(this.#requester, this.#endpoint).then(
      (read) => {
        this.#flight = undefined;
        // Zones announced while this read ran are newer than what it read.
        if (startedAt === this.#announced || this.#known === undefined) return this.#learn(read, askers);
        return this.#known;
      },
      (error: unknown) => {
        this.#flight = undefined;
        const failure = asDeviceError(error);
        this.#failed(failure, askers);
        throw failure;
      },
    );
    const flight: Flight = { answer, askers };
    this.#flight = flight;
    return flight;
  }

  #learn(read: ZoneReadResult, askers: ReadonlySet<ZonesListener> = new Set()): KnownZones {
    const known: KnownZones = { ...read, geometry: read.zones.map(withGeometry), at: Date.now() };
    this.#known = known;
    if (this.#followers > 0) {
      this.#knownFollowed = true;
      this.#failures = 0;
      this.#scheduleRead(this.#options.refreshMs);
    }
    for (const { listener, follow } of [...this.#subscribers]) {
      if (follow && !askers.has(listener)) listener.onZones(known);
    }
    return known;
  }

  #failed(error: DeviceError, askers: ReadonlySet<ZonesListener>): void {
    if (this.#followers === 0) return;
    this.#failures++;
    this.#scheduleRead(withJitter(backoffDelay(ZONES_RETRY, this.#failures)));
    for (const { listener, follow } of [...this.#subscribers]) {
      if (follow && !askers.has(listener)) listener.onError?.(error);
    }
  }

  /** One timer for the followed zones: the next read is the retry or the net, whichever is due. */
  #scheduleRead(delayMs: number): void {
    clearTimeout(this.#nextRead);
    if (this.#closed) return;
    this.#nextRead = setTimeout(
      () => {
        this.#nextRead = undefined;
        void this.#readQuietly();
      },
      Math.min(delayMs, MAX_TIMER_MS),
    );
  }

  /** A read whose outcome the followers hear; the caller needs nothing of it. */
  #readQuietly(): Promise<void> {
    return this.read().then(
      () => undefined,
      () => undefined,
    );
  }

  /** A change of the zones that did not come with them: they are read, coalesced with others alike. */
  #changedUnseen(): void {
    void this.#readAfterChange.request();
  }

  #changeSubscriber(): StreamSubscriber {
    return {
      onEvent: (event) => {
        if (!isZonesChange(event.event)) return;
        const zones = zonesFromChange(event.event, event.data);
        if (zones === undefined) {
          this.#changedUnseen();
          return;
        }
        this.#announced++;
        this.#learn(zones);
      },
      // Layouts are the large announcements: one dropped for its size (or whose name was lost with it) may
      // have changed the zones.
      onWarning: (_warning, _kind, { droppedEvent }) => {
        if (droppedEvent === undefined || isZonesChange(droppedEvent)) this.#changedUnseen();
      },
      // The first follower read the zones as it came: only a return after a gap has news.
      onCondition: onStreamingAgain((first) => {
        if (!first) this.#changedUnseen();
      }),
    };
  }
}
