import { containsPoint } from './geometry';
import { isSilent, type SoundLocation } from './sound-location';
import type { Zone } from './types';

/**
 * Which zone the talker is in, decided from sound-location readings the way a camera switcher needs it:
 * a new zone must hold the talker for `holdMs` before it becomes active (a cough across the room does not
 * move the camera), and the active zone is let go only after `releaseMs` without the talker heard in it
 * (a pause for breath does not cut to the overview).
 *
 * Pure: time comes in with each reading and each `tick`, so tests state every timestamp and the node
 * decides when to tick (`nextDeadline`).
 */
export interface ActiveZoneOptions {
  /** A zone type such as `Switching` (compared without regard to case), or `any`. */
  zoneType: string;
  holdMs: number;
  releaseMs: number;
}

export type ActiveZoneTiming = Pick<ActiveZoneOptions, 'holdMs' | 'releaseMs'>;

export interface TimedReading {
  /** When the reading arrived, in ms (Date.now() in the node, any clock in tests). */
  at: number;
  location: SoundLocation;
}

export interface ActiveZoneChange<Z extends Zone> {
  zone: Z | null;
  previous: Z | null;
  /** The reading that decided the change; the last one seen when a timer decided it; none before any. */
  reading: TimedReading | undefined;
}

export const ANY_ZONE_TYPE = 'any';

/** How often a device sends a sound-location reading while it hears something (the spec's 5 a second). */
export const READING_INTERVAL_MS = 200;

/**
 * The shortest `releaseMs` that works, and the longest gap between two readings of one zone that still
 * counts as talk in it: two readings missed. A shorter release would end the active zone in the gap between
 * two readings of a steady talker (the camera flaps); a longer gap is silence. Smaller releases are raised
 * to it; a node's settings refuse them with this bound.
 */
export const MIN_RELEASE_MS = 2.5 * READING_INTERVAL_MS;

/**
 * The timing a follower of the talker uses when its user sets none: a second in a new zone before it counts,
 * five seconds without the talker before the zone is let go.
 */
export const DEFAULT_ACTIVE_ZONE_TIMING: Readonly<ActiveZoneTiming> = { holdMs: 1000, releaseMs: 5000 };

/** Whether `zone` counts for a tracker of `zoneType` (`any`, or one of its types, case aside). */
export function hasZoneType(zone: Zone, zoneType: string): boolean {
  const wanted = zoneType.toLowerCase();
  if (wanted === ANY_ZONE_TYPE) return true;
  return zone.types.some((type) => type.toLowerCase() === wanted);
}

/** The zone types `zones` carry, each once, in the order first seen: for a user who chose none of them. */
export function zoneTypesOf(zones: readonly Zone[]): string[] {
  return [...new Set(zones.flatMap((zone) => zone.types))];
}

/** The timing the tracker works with: a bad value is refused, a release below MIN_RELEASE_MS raised. */
function checkedTiming(timing: ActiveZoneTiming): ActiveZoneTiming {
  for (const key of ['holdMs', 'releaseMs'] as const) {
    const value = timing[key];
    if (!(Number.isFinite(value) && value >= 0)) {
      throw new RangeError(`${key} must be a number >= 0, got ${String(value)}`);
    }
  }
  // Raised, not refused: the tracker must work whatever it is given; the node tells the user.
  return { holdMs: timing.holdMs, releaseMs: Math.max(timing.releaseMs, MIN_RELEASE_MS) };
}

export class ActiveZoneTracker<Z extends Zone = Zone> {
  readonly #options: ActiveZoneOptions;
  #zones: Z[] = [];
  #active: Z | null = null;
  #previous: Z | null = null;
  /** When the talker was last heard inside the active zone. */
  #lastHeardInActive = 0;
  /**
   * A zone (or null: outside every zone) the talker speaks in that is not the active one: since when, and
   * when last heard there (a gap longer than MIN_RELEASE_MS is silence and ends the wait).
   */
  #candidate: { zone: Z | null; since: number; lastHeard: number } | undefined;
  #lastReading: TimedReading | undefined;
  #decidingReading: TimedReading | undefined;

  constructor(options: ActiveZoneOptions) {
    this.#options = { zoneType: options.zoneType, ...checkedTiming(options) };
  }

  /**
   * New hold and release (the device's own timing changed), taken from now on: the active zone, a wait
   * for the hold and the time since the talker was last heard are kept. A release that is due under the
   * new timing comes with the next `tick` or reading (`nextDeadline` tells when).
   */
  setTiming(timing: ActiveZoneTiming): void {
    Object.assign(this.#options, checkedTiming(timing));
  }

  /** The answer now, as the last change told it (for an input that asks again). */
  get current(): ActiveZoneChange<Z> {
    return { zone: this.#active, previous: this.#previous, reading: this.#decidingReading };
  }

  /**
   * The room's zones (all types; the tracker filters). An active zone that is gone ends at once; one that
   * is still there is replaced by its new version without a change (a relabelled zone is the same zone).
   */
  setZones(zones: readonly Z[], now: number): ActiveZoneChange<Z> | undefined {
    this.#zones = zones.filter((zone) => this.#matchesType(zone));
    const byId = (zone: Z | null) =>
      zone === null ? null : (this.#zones.find((known) => known.id === zone.id) ?? undefined);
    if (this.#candidate !== undefined) {
      const still = byId(this.#candidate.zone);
      this.#candidate = still === undefined ? undefined : { ...this.#candidate, zone: still };
    }
    if (this.#active === null) return undefined;
    const still = byId(this.#active);
    if (still !== undefined && still !== null) {
      this.#active = still;
      return undefined;
    }
    return this.#change(null, this.#lastReading, now);
  }

  /** Takes one reading; returns the change it causes, if any. */
  observe(reading: TimedReading): ActiveZoneChange<Z> | undefined {
    this.#lastReading = reading;
    const silent = isSilent(reading.location);
    // Silence ends a wait for the hold: a cough, a pause, and another cough are not talk in that zone.
    if (silent) this.#candidate = undefined;
    const zone = silent ? undefined : this.#zoneOf(reading.location);
    // Silence, and a reading that names no place (no coordinates, no zone), only let time pass.
    if (zone === undefined) return this.#releaseIfDue(reading.at, reading);
    if (zone !== null && zone.id === this.#active?.id) {
      this.#lastHeardInActive = reading.at;
      this.#candidate = undefined;
      return undefined;
    }
    const waiting = this.#candidate;
    const continues =
      waiting !== undefined &&
      waiting.zone?.id === zone?.id &&
      reading.at - waiting.lastHeard <= MIN_RELEASE_MS;
    // The wait is the tracker's own: it is moved on in place rather than copied for every reading.
    const candidate = continues ? waiting : { zone, since: reading.at, lastHeard: reading.at };
    candidate.lastHeard = reading.at;
    this.#candidate = candidate;
    if (zone !== null && reading.at - candidate.since >= this.#options.holdMs) {
      return this.#change(zone, reading, reading.at);
    }
    return this.#releaseIfDue(reading.at, reading);
  }

  /** Lets time pass without a reading (a muted microphone sends none): the release may be due. */
  tick(now: number): ActiveZoneChange<Z> | undefined {
    return this.#releaseIfDue(now, this.#lastReading);
  }

  /** When `tick` may next change the answer, or undefined when no change is pending on time alone. */
  nextDeadline(): number | undefined {
    return this.#active === null ? undefined : this.#lastHeardInActive + this.#options.releaseMs;
  }

  #releaseIfDue(now: number, reading: TimedReading | undefined): ActiveZoneChange<Z> | undefined {
    if (this.#active === null || now - this.#lastHeardInActive < this.#options.releaseMs) return undefined;
    return this.#change(null, reading, now);
  }

  #change(zone: Z | null, reading: TimedReading | undefined, now: number): ActiveZoneChange<Z> {
    this.#previous = this.#active;
    this.#active = zone;
    this.#lastHeardInActive = now;
    if (zone !== null) this.#candidate = undefined;
    this.#decidingReading = reading;
    return this.current;
  }

  #matchesType(zone: Z): boolean {
    return hasZoneType(zone, this.#options.zoneType);
  }

  /**
   * The zone of a voiced reading: the one the device names, matched by id (its `type` spelling may differ
   * from the layout's), else the first zone containing the coordinates, the active one first so that a
   * talker on the edge between two zones does not flip between them. Null: outside every zone of the
   * type. Undefined: the reading says nothing about the place.
   */
  #zoneOf(location: SoundLocation): Z | null | undefined {
    for (const id of location.triggeredZoneIds) {
      for (const zone of this.#zones) if (zone.id === id) return zone;
    }
    const point = location.coordinates;
    if (point === undefined) return location.triggeredZoneIds.length > 0 ? null : undefined;
    if (this.#active !== null && containsPoint(this.#active, point)) return this.#active;
    return this.#zones.find((zone) => containsPoint(zone, point)) ?? null;
  }
}
