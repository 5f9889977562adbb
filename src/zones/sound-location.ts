import { isPoint } from './geometry';
import type { Point } from './types';
import { zoneIdText } from './zone-id';

/**
 * One `soundLocation` event of the data stream, read tolerantly: a field that is missing or of another
 * type is left undefined rather than failing the reading, because a reading without coordinates (the
 * smaller model) or without flags is still a reading.
 */
export interface SoundLocation {
  azimuth: number | undefined;
  powerLevel: number | undefined;
  time: string | undefined;
  coordinates: Point | undefined;
  /** The ids of the zones the device itself calls triggered (zero or one in practice). */
  triggeredZoneIds: readonly string[];
  voiceDetected: boolean | undefined;
}

/** What an active-zone message carries as `msg.location`. */
export interface LocationSummary {
  x: number | undefined;
  y: number | undefined;
  azimuth: number | undefined;
  powerLevel: number | undefined;
  time: string | undefined;
}

function finite(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

function zoneIdOf(entry: unknown): string | undefined {
  if (typeof entry !== 'object' || entry === null) return undefined;
  const { id, zoneId } = entry as { id?: unknown; zoneId?: unknown };
  return zoneIdText(id) ?? zoneIdText(zoneId);
}

/** Shared by every reading that names no zone, the most common kind: one array fewer to collect. */
const NO_IDS: readonly string[] = Object.freeze([]);

/** The ids the device names as triggered. A loop, not map and filter: this runs for every reading. */
function triggeredIds(triggered: unknown): readonly string[] {
  if (!Array.isArray(triggered) || triggered.length === 0) return NO_IDS;
  const ids: string[] = [];
  for (const entry of triggered) {
    const id = zoneIdOf(entry);
    if (id !== undefined) ids.push(id);
  }
  return ids;
}

/** The reading in `data`, or undefined when `data` is not an object at all. */
export function readSoundLocation(data: unknown): SoundLocation | undefined {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return undefined;
  const raw = data as Record<string, unknown>;
  const flags = raw.flags as { voiceDetected?: unknown } | null | undefined;
  const voiceDetected = typeof flags === 'object' && flags !== null ? flags.voiceDetected : undefined;
  return {
    azimuth: finite(raw.azimuth),
    powerLevel: finite(raw.powerLevel),
    time: typeof raw.time === 'string' ? raw.time : undefined,
    coordinates: isPoint(raw.coordinates) ? { x: raw.coordinates.x, y: raw.coordinates.y } : undefined,
    triggeredZoneIds: triggeredIds(raw.triggeredZones),
    voiceDetected: typeof voiceDetected === 'boolean' ? voiceDetected : undefined,
  };
}

/**
 * Power 0 means nothing was detected and the location in that reading means nothing; so does a reading
 * whose flags say no voice was detected.
 */
export function isSilent(location: SoundLocation): boolean {
  return location.powerLevel === 0 || location.voiceDetected === false;
}

export function summariseLocation(location: SoundLocation): LocationSummary {
  return {
    x: location.coordinates?.x,
    y: location.coordinates?.y,
    azimuth: location.azimuth,
    powerLevel: location.powerLevel,
    time: location.time,
  };
}
