import { atLeast, spelledFloor } from '../firmware';
import { isRecord, MAX_ZONES } from '../zones';

export const CAMERA_PORTS = ['HDMI', 'USB1', 'USB2'] as const;
export const SOUND_LOCATION_ALGORITHMS = ['BP', 'TDOA'] as const;
export const SOUND_LOCATION_FLOOR = '2.0';
const MAP_KEYS = ['cameraSwitcherZoneInputMap', 'cameraSwitcherZoneInputMaps'];
const KEYS = ['cameraSwitcherDefaults', 'soundLocationAlgorithm', 'zones', ...MAP_KEYS];
const DEFAULT_KEYS = ['defaultCameraInputPort', 'zonesTriggerWaitTime', 'switchToDefaultWaitTime'] as const;

export interface CameraSwitcherDefaults {
  defaultCameraInputPort: string;
  /** ms */
  zonesTriggerWaitTime: number;
  /** ms */
  switchToDefaultWaitTime: number;
}

export interface ZoneInputMapEntry {
  zoneId: string;
  inputPort: string;
}

/** What one PATCH of the layout writes: only the keys it held. */
export interface LayoutWrite {
  cameraSwitcherDefaults?: CameraSwitcherDefaults;
  soundLocationAlgorithm?: string;
  zoneInputMap?: ZoneInputMapEntry[];
  zones?: unknown[];
}

/** A refusal: `errors` for unknown keys and firmware, problem details for values that break the schema. */
export type LayoutRefusal = { shape: 'errors' | 'problem'; message: string };

/** Checks a whole PATCH body, all or nothing, as the device does. */
export function parseLayoutPatch(
  body: unknown,
  firmwareVersion: string,
): { ok: true; write: LayoutWrite } | ({ ok: false } & LayoutRefusal) {
  const problem = (message: string) => ({ ok: false as const, shape: 'problem' as const, message });
  if (!isRecord(body) || Object.keys(body).length === 0) {
    return problem('The request body must be an object with at least one layout setting.');
  }
  const unknown = Object.keys(body).find((key) => !KEYS.includes(key));
  if (unknown !== undefined)
    return { ok: false, shape: 'errors', message: `Unsupported Attributes: ${unknown}.` };
  const write: LayoutWrite = {};
  for (const [key, value] of Object.entries(body)) {
    if (key === 'cameraSwitcherDefaults') {
      const defaults = parseDefaults(value);
      if (typeof defaults === 'string') return problem(defaults);
      write.cameraSwitcherDefaults = defaults;
    } else if (key === 'soundLocationAlgorithm') {
      if (!atLeast(firmwareVersion, SOUND_LOCATION_FLOOR)) {
        const floor = spelledFloor(SOUND_LOCATION_FLOOR);
        return {
          ok: false,
          shape: 'errors',
          message: `Unsupported Attributes: ${key}. Firmware version is < ${floor}.`,
        };
      }
      if (!SOUND_LOCATION_ALGORITHMS.some((algorithm) => algorithm === value)) {
        return problem(`${key} must be one of ${SOUND_LOCATION_ALGORITHMS.join(', ')}.`);
      }
      write.soundLocationAlgorithm = value as string;
    } else if (key === 'zones') {
      if (!Array.isArray(value) || value.length > MAX_ZONES)
        return problem(`zones must be a list of at most ${MAX_ZONES}.`);
      if (!value.every((zone) => isRecord(zone) && typeof zone.id === 'string' && isRecord(zone.geometry))) {
        return problem('Every zone needs an id and a geometry.');
      }
      write.zones = value;
    } else {
      const map = parseMap(value);
      if (map === undefined)
        return problem(
          `${key} must be a list of {zoneId, inputPort} with inputPort one of ${CAMERA_PORTS.join(', ')}.`,
        );
      write.zoneInputMap = map;
    }
  }
  return { ok: true, write };
}

/** The complete object or a reason naming what is wrong. */
function parseDefaults(value: unknown): CameraSwitcherDefaults | string {
  if (!isRecord(value)) return 'cameraSwitcherDefaults must be an object.';
  const missing = DEFAULT_KEYS.find((key) => !(key in value));
  if (missing !== undefined) return `cameraSwitcherDefaults.${missing} is required.`;
  const { defaultCameraInputPort, zonesTriggerWaitTime, switchToDefaultWaitTime } = value;
  if (!CAMERA_PORTS.some((port) => port === defaultCameraInputPort)) {
    return `cameraSwitcherDefaults.defaultCameraInputPort must be one of ${CAMERA_PORTS.join(', ')}.`;
  }
  for (const [key, wait] of [
    ['zonesTriggerWaitTime', zonesTriggerWaitTime],
    ['switchToDefaultWaitTime', switchToDefaultWaitTime],
  ] as const) {
    if (typeof wait !== 'number' || !Number.isFinite(wait) || wait < 0) {
      return `cameraSwitcherDefaults.${key} must be a number of at least 0.`;
    }
  }
  return {
    defaultCameraInputPort: defaultCameraInputPort as string,
    zonesTriggerWaitTime: zonesTriggerWaitTime as number,
    switchToDefaultWaitTime: switchToDefaultWaitTime as number,
  };
}

function parseMap(value: unknown): ZoneInputMapEntry[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const valid = value.every(
    (entry) =>
      isRecord(entry) &&
      typeof entry.zoneId === 'string' &&
      entry.zoneId !== '' &&
      CAMERA_PORTS.some((port) => port === entry.inputPort),
  );
  return valid ? value.map((entry) => ({ zoneId: entry.zoneId, inputPort: entry.inputPort })) : undefined;
}
