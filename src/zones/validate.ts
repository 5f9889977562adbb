import { boundsIntersect, zoneBounds } from './geometry';
import type { Zone, ZoneWarning } from './types';

/** The spec's ceiling for models 310 and 410 (a larger model holds 16, hence a warning, not an error). */
export const MAX_ZONES = 8;

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

  const placed = zones.map((zone, index) => ({ zone, index, bounds: zoneBounds(zone) }));
  placed.forEach((first, at) => {
    for (let next = at + 1; next < placed.length; next++) {
      const second = placed[next] as (typeof placed)[number];
      // Runs on every read for every pair of zones; most pairs do not overlap, and that test is the cheap one.
      if (!boundsIntersect(first.bounds, second.bounds)) continue;
      const shared = [...new Set(first.zone.types)].filter((type) => second.zone.types.includes(type));
      if (shared.length === 0) continue;
      warnings.push({
        code: 'OVERLAPPING_ZONES',
        message:
          `${describe(first.zone, first.index)} and ${describe(second.zone, second.index)} overlap and share ` +
          `type ${shared.map((type) => `"${type}"`).join(', ')}; zones of one type must not overlap`,
        zoneIds: idsOf([first.zone, second.zone]),
      });
    }
  });

  return warnings;
}
