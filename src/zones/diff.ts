import { isDeepStrictEqual } from 'node:util';
import { zoneBounds } from './geometry';
import type { Point, Zone, ZoneChange, ZoneDiff } from './types';

/**
 * What changed between two reads of a room, matched by zone id.
 *
 * Equality is what a user would call "the same configuration":
 * - any field, at any depth, compared by value; key order never matters;
 * - `types` compared as a set: the spec makes it one (each type at most once), so a reordered list is
 *   the same zone purpose;
 * - the rectangle compared by its bounds: a firmware that names the other pair of corners, or swaps
 *   point1 and point2, describes the same floor area, and a "changes" flow should stay quiet. Fields a
 *   corner carries beyond x and y are compared too, pairing the corners either way.
 *
 * Ids that repeat (a device fault that validation reports) are paired in order: the second zone with id A
 * before is compared with the second zone with id A after.
 *
 * Lists read from different endpoints (`acrossSources`: the zones endpoint, then the layout or a layout
 * event) compare only the device fields both carry: the layout adds fields of its own to each zone (the
 * public example's `on: true`), which tell where a list came from, not that a zone changed.
 */
export function diffZones(
  previous: readonly Zone[],
  next: readonly Zone[],
  options: { acrossSources?: boolean } = {},
): ZoneDiff {
  const same = options.acrossSources === true ? sameZoneAcrossSources : sameZone;
  // Indexes rather than zones: the same zone object listed twice must be matched (and removed) twice.
  const waiting = new Map<string, number[]>();
  previous.forEach((zone, index) => {
    const sameId = waiting.get(zone.id);
    if (sameId === undefined) waiting.set(zone.id, [index]);
    else sameId.push(index);
  });

  const added: Zone[] = [];
  const changed: ZoneChange[] = [];
  for (const after of next) {
    const beforeIndex = waiting.get(after.id)?.shift();
    const before = beforeIndex === undefined ? undefined : previous[beforeIndex];
    if (before === undefined) added.push(after);
    else if (!same(before, after)) changed.push({ id: after.id, before, after });
  }

  const unmatched = new Set([...waiting.values()].flat());
  const removed = previous.filter((_zone, index) => unmatched.has(index));
  return { added, removed, changed };
}

export function hasChanges(diff: ZoneDiff): boolean {
  return diff.added.length > 0 || diff.removed.length > 0 || diff.changed.length > 0;
}

function sameZone(a: Zone, b: Zone): boolean {
  const { geometry: geometryA, types: typesA, ...restA } = a;
  const { geometry: geometryB, types: typesB, ...restB } = b;
  return (
    sameTypes(typesA, typesB) &&
    isDeepStrictEqual(restA, restB) &&
    sameRectangle(a, b) &&
    isDeepStrictEqual(withoutCorners(geometryA), withoutCorners(geometryB)) &&
    sameCornerExtras(geometryA, geometryB)
  );
}

function sameZoneAcrossSources(a: Zone, b: Zone): boolean {
  return sameZone(onlyFieldsOf(a, b), onlyFieldsOf(b, a));
}

/** `zone` without the top-level fields `other` lacks. */
function onlyFieldsOf(zone: Zone, other: Zone): Zone {
  const kept = { ...zone };
  for (const key of Object.keys(kept)) if (!Object.hasOwn(other, key)) delete kept[key];
  return kept;
}

function sameTypes(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  const sortedB = [...b].sort();
  return [...a].sort().every((type, index) => type === sortedB[index]);
}

function sameRectangle(a: Zone, b: Zone): boolean {
  const boundsA = zoneBounds(a);
  const boundsB = zoneBounds(b);
  return (
    boundsA.minX === boundsB.minX &&
    boundsA.minY === boundsB.minY &&
    boundsA.maxX === boundsB.maxX &&
    boundsA.maxY === boundsB.maxY
  );
}

function withoutCorners(geometry: Zone['geometry']): Record<string, unknown> {
  const { point1: _point1, point2: _point2, ...rest } = geometry;
  return rest;
}

function cornerExtras(point: Point): Record<string, unknown> {
  const { x: _x, y: _y, ...rest } = point;
  return rest;
}

function sameCornerExtras(a: Zone['geometry'], b: Zone['geometry']): boolean {
  const [a1, a2, b1, b2] = [a.point1, a.point2, b.point1, b.point2].map(cornerExtras);
  return (
    (isDeepStrictEqual(a1, b1) && isDeepStrictEqual(a2, b2)) ||
    (isDeepStrictEqual(a1, b2) && isDeepStrictEqual(a2, b1))
  );
}
