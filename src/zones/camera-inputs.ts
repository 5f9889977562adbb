import type { Zone } from './types';
import { zoneIdText } from './zone-id';

/**
 * The camera switcher's map of zones to camera inputs, which the room layout may carry. Firmware and
 * documents spell its name `cameraSwitcherZoneInputMap` or `cameraSwitcherZoneInputMaps`, and its shape
 * is read tolerantly: a list of entries (`{zoneId, inputPort}`, or `id`/`zone` and `input`/`cameraInput`/
 * `port`), or an object keyed by zone id whose values are the input or such an entry. An input is a
 * string or a number, kept as the device wrote it.
 */
export type CameraInput = string | number;

/** The field each zone of a message carries its camera input in. */
export const CAMERA_INPUT_FIELD = 'cameraInput';

const MAP_KEYS = ['cameraSwitcherZoneInputMap', 'cameraSwitcherZoneInputMaps'] as const;
const ZONE_KEYS = ['zoneId', 'id', 'zone'] as const;
const INPUT_KEYS = ['inputPort', 'input', 'cameraInput', 'cameraInputPort', 'port'] as const;

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function asInput(value: unknown): CameraInput | undefined {
  if (typeof value === 'string' && value.trim() !== '') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  return undefined;
}

function first(entry: JsonObject, keys: readonly string[], read: (value: unknown) => unknown): unknown {
  for (const key of keys) {
    const value = read(entry[key]);
    if (value !== undefined) return value;
  }
  return undefined;
}

function readEntries(map: unknown, inputs: Map<string, CameraInput>): void {
  if (Array.isArray(map)) {
    for (const entry of map) {
      if (!isObject(entry)) continue;
      const zoneId = first(entry, ZONE_KEYS, zoneIdText) as string | undefined;
      const input = first(entry, INPUT_KEYS, asInput) as CameraInput | undefined;
      if (zoneId !== undefined && input !== undefined && !inputs.has(zoneId)) inputs.set(zoneId, input);
    }
    return;
  }
  if (!isObject(map)) return;
  for (const [zoneId, value] of Object.entries(map)) {
    const input = isObject(value)
      ? (first(value, INPUT_KEYS, asInput) as CameraInput | undefined)
      : asInput(value);
    if (input !== undefined && !inputs.has(zoneId)) inputs.set(zoneId, input);
  }
}

/**
 * The camera input of each zone the layout's map names (empty when the layout has no map). The map is
 * looked for in the layout itself and one level down, where some firmware nests the room's zones too.
 */
export function readCameraInputs(layout: unknown): Map<string, CameraInput> {
  const inputs = new Map<string, CameraInput>();
  if (!isObject(layout)) return inputs;
  const places = [layout, ...Object.values(layout).filter(isObject)];
  for (const place of places) {
    for (const key of MAP_KEYS) {
      if (place[key] !== undefined) readEntries(place[key], inputs);
    }
    if (inputs.size > 0) break;
  }
  return inputs;
}

/**
 * The zones, each with `cameraInput` where the map names its id; the others unchanged. A device field of
 * that name is left as the device wrote it.
 */
export function withCameraInputs<Z extends Zone>(
  zones: readonly Z[],
  inputs: ReadonlyMap<string, CameraInput>,
): Z[] {
  if (inputs.size === 0) return [...zones];
  return zones.map((zone) => {
    const input = inputs.get(zone.id);
    if (input === undefined || Object.hasOwn(zone, CAMERA_INPUT_FIELD)) return zone;
    return { ...zone, [CAMERA_INPUT_FIELD]: input };
  });
}
