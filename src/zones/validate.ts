import { boundsIntersect, zoneBounds } from './geometry';
import type { Bounds, Zone, ZoneWarning } from './types';

/** The spec's ceiling for models 310 and 410 (a larger model holds 16, hence a warning, not an error). */
export const MAX_ZONES = 8;
/** Warnings of one code listed before the rest are summed up in one more. */
export const MAX_WARNINGS_PER_CODE = 20;
/** Pairs compared in the overlap check before it gives up with a warning (zones stacked along y). */
const MAX_OVERLAP_COMPARISONS = 200_000;
/** Up to this many zones every pair is compared directly (at most 496 pairs). */
const SMALL_ROOM = 32;

/** Zones without an id are named by index in the message; an empty id would tell a flow nothing. */
function idsOf(zones: readonly Zone[]): string[] {
  return zones.map((zone) => zone.id).filter((id) => id !== '');
}

function describe(zone: Zone, index: number): string {
  const name = zone.label === '' ? '' : ` "${zone.label}"`;
  return zone.id === '' ? `zones[${index}]${name}` : `zone ${zone.id}${name}`;
}

/**
 * Checks the spec's rules on zones that were readable. Nothing here rejects a zone: a device that breaks a
 * rule still reports the room as it is configured, and flows are better served by the zones plus a warning.
 *
 * Unknown types are accepted silently: the spec announces more types, and a warning on every read of a
 * newer device would be noise. Missing fields are reported by the parsers, which are the only ones that
 * can tell a missing label from an empty one.
 */
export function validateZones(zones: readonly Zone[]): ZoneWarning[] {
  const warnings: ZoneWarning[] = [];

  if (zones.length > MAX_ZONES) {
    warnings.push({
      code: 'TOO_MANY_ZONES',
      message: `the device reports ${zones.length} zones; the spec allows at most ${MAX_ZONES} per room`,
      zoneIds: idsOf(zones),
    });
  }

  zones.forEach((zone, index) => {
    const seen = new Set<string>();
    const repeated = new Set<string>();
    for (const type of zone.types) {
      if (seen.has(type)) repeated.add(type);
      seen.add(type);
    }
    for (const type of repeated) {
      warnings.push({
        code: 'DUPLICATE_TYPE',
        message: `${describe(zone, index)} lists type "${type}" more than once`,
        zoneIds: idsOf([zone]),
      });
    }
  });

  const indexesById = new Map<string, number[]>();
  zones.forEach((zone, index) => {
    if (zone.id === '') return;
    const indexes = indexesById.get(zone.id);
    if (indexes === undefined) indexesById.set(zone.id, [index]);
    else indexes.push(index);
  });
  for (const [id, indexes] of indexesById) {
    if (indexes.length < 2) continue;
    warnings.push({
      code: 'DUPLICATE_ID',
      message: `${indexes.length} zones share the id ${id} (at indexes ${indexes.join(', ')})`,
      zoneIds: [id],
    });
  }

  warnings.push(...overlapWarnings(zones));
  return capPerCode(warnings);
}

/**
 * Pairs of zones that share floor space and a type. A sweep along x: zones sorted by their left edge, and
 * only those whose x-range is still open are compared, so a room of disjoint zones costs n log n rather
 * than n². The search stops at the warning cap, so even a pathological answer where every zone overlaps
 * every other stays bounded in time and memory.
 */
export function overlapWarnings(zones: readonly Zone[]): ZoneWarning[] {
  const warnings: ZoneWarning[] = [];
  const placed = zones.map((zone, index) => ({ zone, index, bounds: zoneBounds(zone) }));
  const compare = (first: Placed, second: Placed): void => {
    if (!boundsIntersect(first.bounds, second.bounds)) return;
    const shared = [...new Set(first.zone.types)].filter((type) => second.zone.types.includes(type));
    if (shared.length === 0) return;
    const [a, b] = first.index < second.index ? [first, second] : [second, first];
    warnings.push({
      code: 'OVERLAPPING_ZONES',
      message:
        `${describe(a.zone, a.index)} and ${describe(b.zone, b.index)} overlap and share ` +
        `type ${shared.map((type) => `"${type}"`).join(', ')}; zones of one type must not overlap`,
      zoneIds: idsOf([a.zone, b.zone]),
    });
  };
  if (placed.length <= SMALL_ROOM) {
    // A real room (8 or 16 zones): every pair is cheaper than sorting, and it runs on every read.
    for (let at = 0; at < placed.length; at++) {
      for (let next = at + 1; next < placed.length; next++)
        compare(placed[at] as Placed, placed[next] as Placed);
    }
    return warnings;
  }
  placed.sort((a, b) => a.bounds.minX - b.bounds.minX || a.index - b.index);
  let open: Placed[] = [];
  let comparisons = 0;
  for (const second of placed) {
    open = open.filter((first) => first.bounds.maxX > second.bounds.minX);
    for (const first of open) {
      comparisons += 1;
      if (comparisons > MAX_OVERLAP_COMPARISONS) {
        warnings.push({
          code: 'OVERLAPPING_ZONES',
          message: `${zones.length} zones are too many to check every pair for overlaps; checked ${MAX_OVERLAP_COMPARISONS} pairs`,
        });
        return warnings;
      }
      compare(first, second);
      if (warnings.length > MAX_WARNINGS_PER_CODE) return warnings;
    }
    open.push(second);
  }
  return warnings;
}

interface Placed {
  zone: Zone;
  index: number;
  bounds: Bounds;
}

/**
 * At most MAX_WARNINGS_PER_CODE warnings of one code, then one that says how many more there were: a flow
 * needs to know that something is wrong, not every instance of it in a broken answer.
 */
function capPerCode(warnings: ZoneWarning[]): ZoneWarning[] {
  const counts = new Map<string, number>();
  for (const warning of warnings) counts.set(warning.code, (counts.get(warning.code) ?? 0) + 1);
  if ([...counts.values()].every((count) => count <= MAX_WARNINGS_PER_CODE)) return warnings;
  const kept: ZoneWarning[] = [];
  const listed = new Map<string, number>();
  for (const warning of warnings) {
    const count = listed.get(warning.code) ?? 0;
    listed.set(warning.code, count + 1);
    if (count < MAX_WARNINGS_PER_CODE) kept.push(warning);
    else if (count === MAX_WARNINGS_PER_CODE) {
      const more = (counts.get(warning.code) ?? 0) - MAX_WARNINGS_PER_CODE;
      kept.push({
        code: warning.code,
        message:
          warning.code === 'OVERLAPPING_ZONES'
            ? `more overlapping zones of one type were found; only the first ${MAX_WARNINGS_PER_CODE} are listed`
            : `${more} more ${warning.code} warnings are not listed`,
      });
    }
  }
  return kept;
}
