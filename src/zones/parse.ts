import { copyJson } from '../api/json-copy';
import { DEVICE_PATHS } from '../api/protocol';
import { DeviceError } from '../errors';
import { readCameraInputs, withCameraInputs } from './camera-inputs';
import { zoneGeometry } from './geometry';
import type { Point, Zone, ZoneReadResult, ZoneSource, ZoneWarning } from './types';
import { validateZones } from './validate';

/**
 * Readers for the two endpoints that report zones. The spec's spelling comes first; the other spellings
 * seen in the device family's documents (`type`, `zoneId`, `ZoneLabel`/`zoneLabel`) are read on either
 * endpoint and handed back in the spec's shape. Fields the reader does not know (`on`, anything a newer
 * firmware adds) are copied unchanged, so users see what the device said.
 *
 * Coordinates must be JSON numbers: the spec says numbers, and guessing at numeric strings would hide a
 * firmware that changed its format. Only what makes the zones unreadable throws; everything else becomes
 * a warning.
 */

type JsonObject = Record<string, unknown>;

const ENDPOINT: Record<ZoneSource, string> = {
  zones: `GET ${DEVICE_PATHS.zones}`,
  layout: `GET ${DEVICE_PATHS.layout}`,
};

/** Spellings folded into the spec's fields; none of them is copied to the output as well. */
const TYPE_KEYS = ['types', 'type'] as const;
const ID_KEYS = ['id', 'zoneId'] as const;
const LABEL_KEYS = ['label', 'zoneLabel', 'ZoneLabel'] as const;
const READ_KEYS: ReadonlySet<string> = new Set<string>([...TYPE_KEYS, ...ID_KEYS, ...LABEL_KEYS, 'geometry']);

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') {
    const shown = value.length > 40 ? `${value.slice(0, 40)}...` : value;
    return `a string (${JSON.stringify(shown)})`;
  }
  if (typeof value === 'number') return `the number ${value}`;
  if (typeof value === 'object') return 'an object';
  return `a ${typeof value}`;
}

function unreadable(source: ZoneSource, reason: string): DeviceError {
  return new DeviceError('BAD_RESPONSE', `${ENDPOINT[source]} answered with unreadable zones: ${reason}`);
}

/**
 * Adds a plain own field. Assigning would treat a "__proto__" key from the device as the object's
 * prototype; defining every field instead would cost a zones read several times more (this runs per field
 * of every zone of every read).
 */
function setField(target: JsonObject, key: string, value: unknown): void {
  if (key === '__proto__') {
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  } else {
    target[key] = value;
  }
}

/** The first spelling present (not undefined or null), with the key it was found under. */
function firstPresent(raw: JsonObject, keys: readonly string[]): { key: string; value: unknown } | undefined {
  for (const key of keys) {
    const value = raw[key];
    if (value !== undefined && value !== null) return { key, value };
  }
  return undefined;
}

class ZoneReader {
  readonly warnings: ZoneWarning[] = [];

  constructor(
    /** Builds the error for zones that cannot be read: the device's BAD_RESPONSE or a flow's INVALID_INPUT. */
    private readonly unreadableBecause: (reason: string) => DeviceError,
    private readonly arrayPath: string,
    /** The code of the warning for a zone that is left out: whose fault it is, the device's or the flow's. */
    private readonly leftOutCode: 'BAD_RESPONSE' | 'INVALID_INPUT',
  ) {}

  readAll(value: unknown): Zone[] {
    if (!Array.isArray(value)) {
      throw this.unreadableBecause(`${this.arrayPath} is ${describeValue(value)}, not an array`);
    }
    const zones: Zone[] = [];
    value.forEach((raw, index) => {
      const zone = this.readZone(raw, index);
      if (this.#hasComputableGeometry(zone, index)) zones.push(zone);
    });
    return zones;
  }

  /**
   * Corners of 1e308 mm are finite numbers, yet the zone's width, centre or area are not: such a zone
   * would put Infinity into every message and map. It is left out with a warning, the others are kept.
   */
  #hasComputableGeometry(zone: Zone, index: number): boolean {
    const geometry = zoneGeometry(zone);
    const derived = [geometry.width, geometry.height, geometry.centre.x, geometry.centre.y, geometry.area];
    if (derived.every(Number.isFinite)) return true;
    this.warnings.push({
      code: this.leftOutCode,
      message:
        `${this.arrayPath}[${index}]${zone.id === '' ? '' : ` (id ${zone.id})`} left out: its corners are so far ` +
        'apart that its size cannot be computed (not a finite number of millimetres)',
      ...(zone.id === '' ? {} : { zoneIds: [zone.id] }),
    });
    return false;
  }

  private fail(reason: string): never {
    throw this.unreadableBecause(reason);
  }

  private readZone(raw: unknown, index: number): Zone {
    const at = `${this.arrayPath}[${index}]`;
    if (!isObject(raw)) this.fail(`${at} is ${describeValue(raw)}, not an object`);

    const id = this.readText(raw, at, ID_KEYS);
    const label = this.readText(raw, at, LABEL_KEYS);
    const types = this.readTypes(raw, at);
    const geometry = this.readGeometry(raw, at);

    const missing = [
      id === undefined ? 'id' : undefined,
      label === undefined ? 'label' : undefined,
      types === undefined ? 'types' : undefined,
    ];
    for (const field of missing) {
      if (field === undefined) continue;
      this.warnings.push({
        code: 'MISSING_FIELD',
        message: `${at}${id === undefined ? '' : ` (id ${id})`} has no ${field}; read as ${field === 'types' ? '[]' : "''"}`,
        ...(id === undefined ? {} : { zoneIds: [id] }),
      });
    }

    const zone: JsonObject = { types: types ?? [], geometry, label: label ?? '', id: id ?? '' };
    for (const key of Object.keys(raw)) {
      if (!READ_KEYS.has(key)) setField(zone, key, copyJson(raw[key]));
    }
    return zone as unknown as Zone;
  }

  /** The id (`ID_KEYS`) or the label (`LABEL_KEYS`): a string, under the first of `keys` present. */
  private readText(raw: JsonObject, at: string, keys: readonly string[]): string | undefined {
    const found = firstPresent(raw, keys);
    if (found === undefined) return undefined;
    if (typeof found.value === 'string') return found.value;
    // Some integrations number their zones; an id is opaque to us, so its text form is as good.
    if (typeof found.value === 'number' && Number.isFinite(found.value)) return String(found.value);
    return this.fail(`${at}.${found.key} is ${describeValue(found.value)}, not a string`);
  }

  /** `types` (array) wins; a `type` string beside it is added when it names a type not already listed. */
  private readTypes(raw: JsonObject, at: string): string[] | undefined {
    let types: string[] | undefined;
    for (const key of TYPE_KEYS) {
      const value = raw[key];
      if (value === undefined || value === null) continue;
      const listed = typeof value === 'string' ? [value] : value;
      if (!Array.isArray(listed))
        this.fail(`${at}.${key} is ${describeValue(value)}, not a string or an array`);
      listed.forEach((type: unknown, position) => {
        if (typeof type !== 'string') {
          this.fail(`${at}.${key}[${position}] is ${describeValue(type)}, not a string`);
        }
      });
      if (types === undefined) types = [...(listed as string[])];
      else for (const type of listed as string[]) if (!types.includes(type)) types.push(type);
    }
    return types;
  }

  private readGeometry(raw: JsonObject, at: string): Zone['geometry'] {
    const geometry = raw.geometry;
    if (geometry === undefined || geometry === null) this.fail(`${at} has no geometry`);
    if (!isObject(geometry)) this.fail(`${at}.geometry is ${describeValue(geometry)}, not an object`);
    const point1 = this.readPoint(geometry.point1, `${at}.geometry.point1`);
    const point2 = this.readPoint(geometry.point2, `${at}.geometry.point2`);
    const copy: JsonObject = { point1, point2 };
    for (const key of Object.keys(geometry)) {
      if (key !== 'point1' && key !== 'point2') setField(copy, key, copyJson(geometry[key]));
    }
    return copy as unknown as Zone['geometry'];
  }

  private readPoint(value: unknown, at: string): Point {
    if (value === undefined || value === null) this.fail(`${at} is missing`);
    if (!isObject(value)) this.fail(`${at} is ${describeValue(value)}, not an object {x, y}`);
    for (const axis of ['x', 'y'] as const) {
      const coordinate = value[axis];
      if (coordinate === undefined) this.fail(`${at}.${axis} is missing`);
      if (typeof coordinate !== 'number' || !Number.isFinite(coordinate)) {
        this.fail(`${at}.${axis} is ${describeValue(coordinate)}, not a finite number of millimetres`);
      }
    }
    return copyJson<unknown>(value) as Point;
  }
}

function readResult(zonesValue: unknown, arrayPath: string, source: ZoneSource): ZoneReadResult {
  const reader = new ZoneReader((reason) => unreadable(source, reason), arrayPath, 'BAD_RESPONSE');
  const zones = reader.readAll(zonesValue);
  return { zones, warnings: [...reader.warnings, ...validateZones(zones)], source };
}

function requireObject(body: unknown, source: ZoneSource): JsonObject {
  if (body === undefined || body === '') throw unreadable(source, 'the body is empty');
  if (!isObject(body)) throw unreadable(source, `the body is ${describeValue(body)}, not a JSON object`);
  return body;
}

/** Reads `GET /api/v1/room/zones`: `{ zones: [Zone, ...] }`. An empty array is a room without zones. */
export function parseZonesResponse(body: unknown): ZoneReadResult {
  const record = requireObject(body, 'zones');
  if (record.zones === undefined) throw unreadable('zones', 'the body has no "zones" member');
  return readResult(record.zones, 'zones', 'zones');
}

/**
 * Reads `GET /api/v1/room/layout`. Zones are in its `zones` member; a firmware that nests them one level
 * down (`{layout: {zones}}`, `{room: {zones}}`, ...) is read too, from the first member that has them.
 */
export function parseLayoutResponse(body: unknown): ZoneReadResult {
  const record = requireObject(body, 'layout');
  const result = readLayoutZones(record);
  // The layout may map zones to camera switcher inputs: each zone carries its own.
  return { ...result, zones: withCameraInputs(result.zones, readCameraInputs(record)) };
}

function readLayoutZones(record: JsonObject): ZoneReadResult {
  if (record.zones !== undefined) return readResult(record.zones, 'zones', 'layout');
  for (const [key, value] of Object.entries(record)) {
    if (isObject(value) && value.zones !== undefined)
      return readResult(value.zones, `${key}.zones`, 'layout');
  }
  throw unreadable('layout', 'no "zones" member in the body nor in any object member of it');
}

/**
 * Reads zones that a flow hands in (`msg.zones` from a room zones node, a file, a database) as tolerantly
 * as the device's answers; what makes them unreadable is the flow's INVALID_INPUT, with the reason.
 */
export function parseZoneList(
  value: unknown,
  arrayPath = 'zones',
): { zones: Zone[]; warnings: ZoneWarning[] } {
  const reader = new ZoneReader(
    (reason) => new DeviceError('INVALID_INPUT', reason),
    arrayPath,
    'INVALID_INPUT',
  );
  const zones = reader.readAll(value);
  return { zones, warnings: [...reader.warnings, ...validateZones(zones)] };
}
