import type { DeviceRequester } from '../api/types';
import { isZonesChange, zonesFromChange } from '../zones';
import { readRoomZones, type ZonesEndpointMemory } from '../zones/room-zones';
import type { ZoneReadResult } from '../zones/types';
import { CoalescedTask } from './coalesced-task';
import type { StreamSubscriber } from './stream-hub';
import { onStreamingAgain } from './stream-return';
import { TtlCache } from './ttl-cache';

/**
 * How long the shared zones stay fresh for the active zone nodes. The change stream refreshes them at
 * once when the device announces new zones; this bounds how stale they get when it cannot.
 */
const ZONES_MAX_AGE_MS = 30_000;

/**
 * The least time between the end of one read that a change announcement asked for and the start of the
 * next: a device that floods the change stream with announcements that carry no readable zones costs at
 * most one read a second, not one per announcement.
 */
const ZONES_READ_GAP_MS = 1_000;

/**
 * Hears new zones: with them, or with undefined when they changed but could not be read (the listener reads
 * them itself to learn why).
 */
export type ZonesListener = (zones: ZoneReadResult | undefined) => void;

/**
 * The room's zones of one device: which endpoint serves them, a shared cache, and the following of the
 * change stream, for every node of the device.
 */
export class DeviceZones {
  readonly #requester: DeviceRequester;
  readonly #followChanges: (subscriber: StreamSubscriber) => () => void;
  readonly #endpoint: ZonesEndpointMemory = { inLayout: false };
  readonly #cache: TtlCache<ZoneReadResult>;
  readonly #watchers = new Set<ZonesListener>();
  readonly #readAfterChange: CoalescedTask;
  #stopFollowing: (() => void) | undefined;
  /** Counts the readable zone lists announced: a read that started before the latest one is older. */
  #announced = 0;

  /** `followChanges` subscribes to the device's change stream and returns the function that leaves it. */
  constructor(requester: DeviceRequester, followChanges: (subscriber: StreamSubscriber) => () => void) {
    this.#requester = requester;
    this.#followChanges = followChanges;
    this.#cache = new TtlCache(() => this.read(), ZONES_MAX_AGE_MS);
    this.#readAfterChange = new CoalescedTask(() => this.#readAndAnnounce(), ZONES_READ_GAP_MS);
  }

  /** The zones as the device reports them now (with camera inputs where the layout maps them). */
  read(): Promise<ZoneReadResult> {
    return readRoomZones(this.#requester, this.#endpoint);
  }

  /** The zones through the shared cache: fresh enough for placing a talker, without a read each time. */
  cached(): Promise<ZoneReadResult> {
    return this.#cache.get();
  }

  /**
   * Calls `listener` whenever the device announces new zones. Opens the change stream (throws what opening
   * it throws); returns the function that stops, closing the stream after the last listener.
   */
  watch(listener: ZonesListener): () => void {
    this.#stopFollowing ??= this.#followChanges(this.#changeSubscriber());
    this.#watchers.add(listener);
    return () => {
      if (!this.#watchers.delete(listener) || this.#watchers.size > 0) return;
      this.#stopFollowing?.();
      this.#stopFollowing = undefined;
      this.#readAfterChange.cancel();
    };
  }

  /**
   * The device announced a change of the zones that did not come with them (an announcement too large to
   * pass, or one that cannot be read): they are read again, coalesced with other such announcements.
   */
  changedUnseen(): void {
    if (this.#watchers.size > 0) this.#readAfterChange.request();
    else this.#cache.invalidate();
  }

  close(): void {
    this.#watchers.clear();
    this.#stopFollowing = undefined;
    this.#readAfterChange.close();
  }

  #changeSubscriber(): StreamSubscriber {
    return {
      onEvent: (event) => {
        if (!isZonesChange(event.event)) return;
        const zones = zonesFromChange(event.event, event.data);
        if (zones === undefined) this.changedUnseen();
        else this.#announce(zones);
      },
      // Layouts are the large announcements: one dropped for its size (or whose name was lost with it) may
      // have changed the zones.
      onWarning: (_warning, _kind, { droppedEvent }) => {
        if (droppedEvent === undefined || isZonesChange(droppedEvent)) this.changedUnseen();
      },
      // The zones were read when the first watcher came: only a return after a gap has news.
      onCondition: onStreamingAgain((first) => {
        if (!first) this.changedUnseen();
      }),
    };
  }

  #announce(zones: ZoneReadResult): void {
    this.#announced++;
    this.#cache.set(zones);
    for (const watcher of this.#watchers) watcher(zones);
  }

  async #readAndAnnounce(): Promise<void> {
    const startedAt = this.#announced;
    let zones: ZoneReadResult;
    try {
      zones = await this.read();
    } catch {
      this.#cache.invalidate();
      for (const watcher of this.#watchers) watcher(undefined);
      return;
    }
    // Zones announced while this read ran are newer than what it read.
    if (startedAt === this.#announced) this.#announce(zones);
  }
}
