import { isPoint } from '../../zones';
import type { Point } from '../../zones/types';

/**
 * Reads a point in millimetres from what a message carries: either `{x, y}`
 * itself, or an object with `coordinates: {x, y}` (the shape of a sound
 * location event), so an event can be wired straight into a zone lookup.
 */
export type PointReading = { ok: true; point: Point } | { ok: false; reason: string };

/** A copy holding only x and y, so the message's point carries no other fields along. */
function asPoint(value: unknown): Point | undefined {
  return isPoint(value) ? { x: value.x, y: value.y } : undefined;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') {
    const keys = Object.keys(value).slice(0, 5);
    return keys.length === 0 ? 'an empty object' : `an object with keys ${keys.join(', ')}`;
  }
  if (typeof value === 'string') return 'a string';
  return String(value);
}

export function readPoint(value: unknown): PointReading {
  const direct = asPoint(value);
  if (direct) return { ok: true, point: direct };
  if (typeof value === 'object' && value !== null && 'coordinates' in value) {
    const nested = asPoint((value as { coordinates?: unknown }).coordinates);
    if (nested) return { ok: true, point: nested };
    return { ok: false, reason: 'coordinates must hold x and y as finite numbers (millimetres)' };
  }
  if (typeof value === 'object' && value !== null && ('x' in value || 'y' in value)) {
    return { ok: false, reason: 'x and y must both be finite numbers (millimetres)' };
  }
  return {
    ok: false,
    reason: `expected {x, y} or {coordinates: {x, y}} in millimetres, got ${describe(value)}`,
  };
}
