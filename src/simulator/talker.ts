/**
 * The simulated talker: where someone speaks, reading by reading. The script is deterministic (a step
 * counter, no randomness), so a test or a demo sees the same walk every time: each Switching zone in
 * turn, a pause in silence after each, then speech outside every zone, then silence, and again.
 */

export interface Point {
  x: number;
  y: number;
}

/** A zone as the talker needs it: its rectangle and what a device names in `triggeredZones`. */
export interface TalkerZone {
  id: string;
  label: string;
  types: string[];
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
}

export type TalkerMode = 'walk' | 'still' | 'off';

/** One reading of the script: where, and whether a voice is heard. */
export interface TalkerStep {
  point: Point;
  speaking: boolean;
  powerLevel: number;
}

/** Readings per phase of the walk (at the default 200 ms a reading: 3 s in a zone, 1 s of silence). */
export const STEPS_IN_ZONE = 15;
export const STEPS_SILENT = 5;
export const STEPS_OUTSIDE = 10;
const SPEAKING_POWER_DB = 62;

function numberAt(value: unknown, ...keys: string[]): number | undefined {
  let current: unknown = value;
  for (const key of keys) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return typeof current === 'number' && Number.isFinite(current) ? current : undefined;
}

function textAt(value: Record<string, unknown>, ...keys: string[]): string | undefined {
  for (const key of keys) {
    const found = value[key];
    if (typeof found === 'string') return found;
  }
  return undefined;
}

/** The simulator's zones (any spelling it serves) as rectangles; what cannot be read is left out. */
export function talkerZones(zones: unknown): TalkerZone[] {
  if (!Array.isArray(zones)) return [];
  const result: TalkerZone[] = [];
  for (const zone of zones) {
    if (typeof zone !== 'object' || zone === null) continue;
    const record = zone as Record<string, unknown>;
    const x1 = numberAt(record, 'geometry', 'point1', 'x');
    const y1 = numberAt(record, 'geometry', 'point1', 'y');
    const x2 = numberAt(record, 'geometry', 'point2', 'x');
    const y2 = numberAt(record, 'geometry', 'point2', 'y');
    if (x1 === undefined || y1 === undefined || x2 === undefined || y2 === undefined) continue;
    const rawTypes = record.types ?? record.type;
    const types = (Array.isArray(rawTypes) ? rawTypes : [rawTypes]).filter(
      (type): type is string => typeof type === 'string',
    );
    result.push({
      id: textAt(record, 'id', 'zoneId') ?? '',
      label: textAt(record, 'label', 'ZoneLabel') ?? '',
      types,
      minX: Math.min(x1, x2),
      minY: Math.min(y1, y2),
      maxX: Math.max(x1, x2),
      maxY: Math.max(y1, y2),
    });
  }
  return result;
}

export function isSwitching(zone: TalkerZone): boolean {
  return zone.types.some((type) => type.toLowerCase() === 'switching');
}

export function zoneAt(zones: readonly TalkerZone[], point: Point): TalkerZone | undefined {
  return zones.find(
    (zone) =>
      isSwitching(zone) &&
      point.x >= zone.minX &&
      point.x <= zone.maxX &&
      point.y >= zone.minY &&
      point.y <= zone.maxY,
  );
}

/** A point outside every zone: in front of the zones, beside the microphone's axis. */
function outsidePoint(zones: readonly TalkerZone[]): Point {
  const top = zones.reduce((max, zone) => Math.max(max, zone.maxY), 0);
  const candidate = { x: 500, y: top + 800 };
  return zoneAt(zones, candidate) === undefined ? candidate : { x: 0, y: -500 };
}

/** A small deterministic sway around a zone's centre, so the dot on a map visibly moves. */
function swayInside(zone: TalkerZone, step: number): Point {
  const centreX = (zone.minX + zone.maxX) / 2;
  const centreY = (zone.minY + zone.maxY) / 2;
  const reachX = (zone.maxX - zone.minX) / 4;
  const reachY = (zone.maxY - zone.minY) / 4;
  return {
    x: Math.round(centreX + reachX * Math.sin(step / 3)),
    y: Math.round(centreY + reachY * Math.cos(step / 4)),
  };
}

/** The scripted walk; `step` counts readings since the walk began. */
export class Talker {
  #mode: TalkerMode;
  #placed: TalkerStep = { point: { x: 0, y: 2000 }, speaking: true, powerLevel: SPEAKING_POWER_DB };
  #silenced = false;
  #step = 0;
  #last: Point = { x: 0, y: 2000 };

  constructor(mode: TalkerMode = 'walk') {
    this.#mode = mode;
  }

  get mode(): TalkerMode {
    return this.#mode;
  }

  place(point: Point, powerLevel = SPEAKING_POWER_DB): void {
    this.#mode = 'still';
    this.#silenced = false;
    this.#placed = { point: { x: point.x, y: point.y }, speaking: powerLevel > 0, powerLevel };
  }

  /** Readings go on, with nothing heard, until the talker is placed or walks again. */
  silence(): void {
    this.#silenced = true;
  }

  walk(): void {
    this.#mode = 'walk';
    this.#silenced = false;
  }

  off(): void {
    this.#mode = 'off';
  }

  /** The next reading, or undefined when the talker is off (no soundLocation events at all). */
  next(zones: readonly TalkerZone[]): TalkerStep | undefined {
    if (this.#mode === 'off') return undefined;
    const step = this.#mode === 'still' ? this.#placed : this.#scripted(zones);
    if (step.speaking) this.#last = step.point;
    if (this.#silenced) return { point: this.#last, speaking: false, powerLevel: 0 };
    return step;
  }

  #scripted(zones: readonly TalkerZone[]): TalkerStep {
    const stops = zones.filter(isSwitching);
    const perZone = STEPS_IN_ZONE + STEPS_SILENT;
    const loop = stops.length * perZone + STEPS_OUTSIDE + STEPS_SILENT;
    const at = this.#step % loop;
    this.#step += 1;
    const zoneIndex = Math.floor(at / perZone);
    const stop = stops[zoneIndex];
    if (stop !== undefined) {
      const inZone = at % perZone;
      if (inZone < STEPS_IN_ZONE) {
        return { point: swayInside(stop, this.#step), speaking: true, powerLevel: SPEAKING_POWER_DB };
      }
      return { point: this.#last, speaking: false, powerLevel: 0 };
    }
    const afterZones = at - stops.length * perZone;
    if (afterZones < STEPS_OUTSIDE) {
      return { point: outsidePoint(zones), speaking: true, powerLevel: SPEAKING_POWER_DB - 6 };
    }
    return { point: this.#last, speaking: false, powerLevel: 0 };
  }
}

/** Degrees east of the microphone's axis (north), as the device reports it: within -70..70. */
export function azimuthOf(point: Point): number {
  const degrees = (Math.atan2(point.x, Math.max(point.y, 1)) * 180) / Math.PI;
  return Math.round(Math.max(-70, Math.min(70, degrees)));
}
