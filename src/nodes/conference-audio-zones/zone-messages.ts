import { diffZones, hasChanges, withGeometry } from '../../zones';
import type { Zone, ZoneChange, ZoneSource, ZoneWithGeometry } from '../../zones/types';

/** The payload of the `changes` output mode. */
export interface ZoneChangesPayload {
  added: ZoneWithGeometry[];
  removed: ZoneWithGeometry[];
  changed: Array<{ id: string; before: ZoneWithGeometry; after: ZoneWithGeometry }>;
  zones: ZoneWithGeometry[];
}

/** `msg.parts` as the split node writes it, so a join node in automatic mode rebuilds the array. */
export interface ArrayParts {
  id: string;
  index: number;
  count: number;
  type: 'array';
  parts?: unknown;
}

export function zonesWithGeometry(zones: readonly Zone[]): ZoneWithGeometry[] {
  return zones.map((zone) => withGeometry(zone));
}

export function arrayParts(id: string, index: number, count: number, outer?: unknown): ArrayParts {
  const parts: ArrayParts = { id, index, count, type: 'array' };
  // An incoming sequence is kept one level down, as the split node nests it.
  if (outer !== undefined) parts.parts = outer;
  return parts;
}

function changeWithGeometry(change: ZoneChange): ZoneChangesPayload['changed'][number] {
  return { id: change.id, before: withGeometry(change.before), after: withGeometry(change.after) };
}

/**
 * Remembers the last zone configuration read and reports what changed.
 * The first read reports every zone as `added`: a flow that mirrors zones
 * somewhere (MQTT retained topics, a database) then needs no special case.
 * A failed read is simply not passed in, so it never counts as "all removed".
 */
export class ZoneChangeTracker {
  private previous: Zone[] | undefined;
  private previousSource: ZoneSource | undefined;

  /**
   * The changes against the last read, or undefined when nothing changed. `source`: the endpoint the zones
   * came from (a layout change event is the layout), so that lists from two endpoints compare fairly.
   */
  update(zones: readonly Zone[], source?: ZoneSource): ZoneChangesPayload | undefined {
    const next = [...zones];
    const diff = diffZones(this.previous ?? [], next, {
      acrossSources: source !== this.previousSource,
    });
    const first = this.previous === undefined;
    this.previous = next;
    this.previousSource = source;
    if (!first && !hasChanges(diff)) return undefined;
    return {
      added: zonesWithGeometry(diff.added),
      removed: zonesWithGeometry(diff.removed),
      changed: diff.changed.map(changeWithGeometry),
      zones: zonesWithGeometry(next),
    };
  }
}
