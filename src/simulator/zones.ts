import { readFile } from 'node:fs/promises';
import type { LayoutSpelling } from './types';

/** The public example room: x from -8382 to 8382 mm, y from 0 (the device's wall) to 10660 mm. */
export const SAMPLE_ROOM = { minX: -8382, maxX: 8382, minY: 0, maxY: 10660, height: 2900 } as const;

/** Fixed ids so tests in another process know them. Non-overlapping, as zones of one type must be. */
export function sampleZones(): unknown[] {
  return [
    {
      types: ['Switching'],
      geometry: { point1: { x: -2500, y: 600 }, point2: { x: 2500, y: 3000 } },
      label: 'Presenter',
      id: '3f2b8c1e-6a4d-4e0b-9c57-1d8e2f4a7b90',
    },
    {
      types: ['Switching'],
      geometry: { point1: { x: -8000, y: 3600 }, point2: { x: -300, y: 10200 } },
      label: 'Audience left',
      id: '9a41d7c3-2e58-4f16-b0a9-6c3e8d5f1a24',
    },
    {
      types: ['Switching'],
      geometry: { point1: { x: 300, y: 3600 }, point2: { x: 8000, y: 10200 } },
      label: 'Audience right',
      id: 'd5e6f708-1b2c-4d3e-8f4a-5b6c7d8e9f01',
    },
  ];
}

export const MAX_ZONES = 8;

/** A zones file that cannot be used; the message names the file and the problem. */
export class ZonesFileError extends Error {}

/** Reads a zones file: an array of zones or `{ zones: [...] }`. Throws an Error with a message fit for a user. */
export async function loadZonesFile(file: string): Promise<unknown[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new ZonesFileError(
      `Cannot read zones file ${file}: ${(error as NodeJS.ErrnoException).code ?? 'error'}`,
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new ZonesFileError(`Zones file ${file} is not valid JSON`);
  }
  const zones = Array.isArray(parsed) ? parsed : isRecord(parsed) ? parsed.zones : undefined;
  if (!Array.isArray(zones)) {
    throw new ZonesFileError(
      `Zones file ${file} must hold an array of zones or an object with a "zones" array`,
    );
  }
  if (zones.length > MAX_ZONES) {
    throw new ZonesFileError(
      `Zones file ${file} holds ${zones.length} zones; a device holds at most ${MAX_ZONES}`,
    );
  }
  return zones;
}

const SINGLE_SPELLINGS: readonly Exclude<LayoutSpelling, 'mixed'>[] = [
  'spec',
  'type-string',
  'zoneId',
  'ZoneLabel',
];

/**
 * Spells zones the way one firmware or document does. Anything that is not a zone-like object is passed
 * through untouched, so malformed test zones reach the client as they were set.
 */
export function spellZones(zones: unknown, spelling: LayoutSpelling): unknown {
  if (!Array.isArray(zones)) return zones;
  return zones.map((zone, index) => {
    if (spelling !== 'mixed') return spellZone(zone, spelling);
    const respelled = spellZone(zone, SINGLE_SPELLINGS[index % SINGLE_SPELLINGS.length]);
    return isRecord(respelled) ? { ...respelled, on: true } : respelled;
  });
}

function spellZone(zone: unknown, spelling: Exclude<LayoutSpelling, 'mixed'>): unknown {
  if (!isRecord(zone) || spelling === 'spec') return zone;
  // Entries, not assignments: a zone's key `__proto__` stays a key instead of becoming the copy's prototype.
  return Object.fromEntries(
    Object.entries(zone).map(([key, value]): [string, unknown] => {
      if (spelling === 'type-string' && key === 'types' && Array.isArray(value)) return ['type', value[0]];
      if (spelling === 'zoneId' && key === 'id') return ['zoneId', value];
      if (spelling === 'ZoneLabel' && key === 'label') return ['ZoneLabel', value];
      return [key, value];
    }),
  );
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The camera switcher's map of zones to camera inputs, as firmware that keeps the zones in the room layout
 * sends it beside them: one USB camera input per zone, in the zones' order. The example's spelling of the
 * layout names the map `cameraSwitcherZoneInputMaps`, the reference's `cameraSwitcherZoneInputMap`.
 */
export function cameraInputMap(zones: unknown, spelling: LayoutSpelling): Record<string, unknown> {
  if (!Array.isArray(zones)) return {};
  const entries = zones
    .map((zone, index) => ({ zone, index }))
    .filter(({ zone }) => isRecord(zone) && typeof zone.id === 'string')
    .map(({ zone, index }) => ({ zoneId: (zone as { id: string }).id, inputPort: `USB${index + 1}` }));
  return { [zoneInputMapKey(spelling)]: entries };
}

export function zoneInputMapKey(spelling: LayoutSpelling): string {
  return spelling === 'spec' ? 'cameraSwitcherZoneInputMap' : 'cameraSwitcherZoneInputMaps';
}
