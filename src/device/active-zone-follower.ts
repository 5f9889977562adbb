import { MAX_TIMER_MS } from '../api/settings-rules';
import type { DeviceError } from '../errors';
import {
  type ActiveZoneChange,
  type ActiveZoneOptions,
  type ActiveZoneTiming,
  ActiveZoneTracker,
  readSoundLocation,
} from '../zones';
import type { ZoneWithGeometry } from '../zones/types';
import type { StreamCondition, StreamKind, StreamSubscriber } from './stream-hub';
import type { DeviceZones, KnownZones } from './zones';

/** The active zone as a change: the zone now (null for none), the one before, and the deciding reading. */
export type ActiveZone = ActiveZoneChange<ZoneWithGeometry>;

/** Hears a device's active zone. Every call is made synchronously: keep them short. */
export interface ActiveZoneListener {
  /** The active zone changed: a talker held a zone long enough, the release passed, or the zone went. */
  onChange(change: ActiveZone): void;
  /** The zones were read or announced; told before they are applied (a change that follows comes next). */
  onZones?(zones: KnownZones): void;
  /** A read of the zones failed; their owner reads them again by itself. */
  onZonesError?(error: DeviceError): void;
  /** The data stream's condition (connecting, streaming, muted, reconnecting, refused). */
  onCondition?(condition: StreamCondition): void;
  /** The data stream dropped an event over the size cap (the device node logs it). */
  onDropped?(warning: DeviceError): void;
}

/** What following needs of a device connection (`DeviceConnection` has it). */
export interface ActiveZoneSource {
  readonly zones: DeviceZones;
  subscribeStream(kind: StreamKind, subscriber: StreamSubscriber): () => void;
}

/**
 * Follows the zone a device's talker speaks in: the device's zones from their owner, the talker's position
 * from the data stream, and a timer at the release deadline for when no reading comes (a muted microphone
 * sends none). No Node-RED: the active zone node turns what it hears into messages.
 */
export class ActiveZoneFollower {
  readonly #tracker: ActiveZoneTracker<ZoneWithGeometry>;
  readonly #listener: ActiveZoneListener;
  #release: NodeJS.Timeout | undefined;
  #zonesKnown = false;
  #closed = false;

  constructor(options: ActiveZoneOptions, listener: ActiveZoneListener) {
    this.#tracker = new ActiveZoneTracker<ZoneWithGeometry>(options);
    this.#listener = listener;
  }

  /** The answer now, as the last change told it. */
  get current(): ActiveZone {
    return this.#tracker.current;
  }

  /**
   * Subscribes to the device's zones and data stream; throws what subscribing throws (nothing is left
   * subscribed then). Returns the function that ends following.
   */
  start(source: ActiveZoneSource): () => void {
    const stopZones = source.zones.subscribe({
      onZones: (zones) => this.#applyZones(zones),
      onError: (error) => {
        if (!this.#closed) this.#listener.onZonesError?.(error);
      },
    });
    let stopData: () => void;
    try {
      stopData = source.subscribeStream('data', {
        onEvent: (event) => {
          if (event.event !== 'soundLocation' || !this.#zonesKnown || this.#closed) return;
          const location = readSoundLocation(event.data);
          if (location === undefined) return;
          this.#tell(this.#tracker.observe({ at: event.receivedAt, location }));
          this.#scheduleRelease();
        },
        onWarning: (warning) => this.#listener.onDropped?.(warning),
        onCondition: (condition) => this.#listener.onCondition?.(condition),
      });
    } catch (error) {
      stopZones();
      throw error;
    }
    return () => {
      this.close();
      stopZones();
      stopData();
    };
  }

  /** New hold and release times (the device's own, say): the release deadline moves with them. */
  setTiming(timing: ActiveZoneTiming): void {
    this.#tracker.setTiming(timing);
    clearTimeout(this.#release);
    this.#release = undefined;
    this.#tell(this.#tracker.tick(Date.now()));
    this.#scheduleRelease();
  }

  /** Stops the release timer; nothing is told from now on. */
  close(): void {
    this.#closed = true;
    clearTimeout(this.#release);
    this.#release = undefined;
  }

  #applyZones(zones: KnownZones): void {
    if (this.#closed) return;
    this.#zonesKnown = true;
    this.#listener.onZones?.(zones);
    this.#tell(this.#tracker.setZones(zones.geometry, Date.now()));
  }

  #tell(change: ActiveZone | undefined): void {
    if (change !== undefined && !this.#closed) this.#listener.onChange(change);
  }

  #scheduleRelease(): void {
    if (this.#release !== undefined || this.#closed) return;
    const deadline = this.#tracker.nextDeadline();
    if (deadline === undefined) return;
    this.#release = setTimeout(
      () => {
        this.#release = undefined;
        this.#tell(this.#tracker.tick(Date.now()));
        this.#scheduleRelease();
      },
      // Clamped: a clock set forward must not turn the wait into an overflowing timer.
      Math.min(MAX_TIMER_MS, Math.max(0, deadline - Date.now())),
    );
  }
}
