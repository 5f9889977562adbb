/**
 * The camera-switching defaults of the room layout (`cameraSwitcherDefaults`, docs/device-api.md).
 * The device takes only the complete object, so a change of one or two of them is merged with the values
 * last read before it is sent.
 */
import { MAX_DELAY_MS } from '../api/settings-rules';
import { controlError, invalidInput } from './errors';
import { isJsonObject, type JsonObject, shown } from './json';
import { checkForwardable } from './validate';

export const CAMERA_INPUT_PORTS = ['HDMI', 'USB1', 'USB2'] as const;
export type CameraInputPort = (typeof CAMERA_INPUT_PORTS)[number];

export const SWITCHING_DEFAULTS_KEY = 'cameraSwitcherDefaults';

/** The three keys, each with what it must be; wait times are whole milliseconds the active zone can follow. */
const DEFAULTS_RULES = {
  defaultCameraInputPort: (value: unknown) =>
    typeof value === 'string' && (CAMERA_INPUT_PORTS as readonly string[]).includes(value)
      ? undefined
      : `must be one of ${CAMERA_INPUT_PORTS.join(', ')}`,
  zonesTriggerWaitTime: waitTimeProblem,
  switchToDefaultWaitTime: waitTimeProblem,
} as const;

export type SwitchingDefaultsKey = keyof typeof DEFAULTS_RULES;
export const SWITCHING_DEFAULTS_KEYS = Object.keys(DEFAULTS_RULES) as SwitchingDefaultsKey[];

function waitTimeProblem(value: unknown): string | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= MAX_DELAY_MS
    ? undefined
    : `must be a whole number of milliseconds from 0 to ${MAX_DELAY_MS}`;
}

function isDefaultsKey(name: string): name is SwitchingDefaultsKey {
  return Object.hasOwn(DEFAULTS_RULES, name);
}

/**
 * A change to the defaults: any of the three keys, each checked. Keys this package does not know pass
 * on to the device, as audio fields do.
 */
export function validateSwitchingDefaults(change: unknown): JsonObject {
  if (!isJsonObject(change) || Object.keys(change).length === 0) {
    throw invalidInput(
      `The switchingDefaults action needs an object with any of ${SWITCHING_DEFAULTS_KEYS.join(', ')}; got ${shown(change)}`,
    );
  }
  for (const [name, value] of Object.entries(change)) {
    if (!isDefaultsKey(name)) continue;
    const problem = DEFAULTS_RULES[name](value);
    if (problem !== undefined) throw invalidInput(`${name} ${problem}; got ${shown(value)}`);
  }
  checkForwardable(change, 'The switching defaults');
  return change;
}

/**
 * The complete defaults to send: the last read (the `cameraSwitcherDefaults` of the layout or of the
 * switching group) with the change on top. A key neither gives cannot be sent: UNSUPPORTED_MODEL when the
 * device reports no defaults at all (a model without camera switching), else INVALID_INPUT naming it.
 */
export function mergeSwitchingDefaults(change: JsonObject, lastRead: unknown): JsonObject {
  const merged = { ...(isJsonObject(lastRead) ? lastRead : {}), ...change };
  const missing = SWITCHING_DEFAULTS_KEYS.filter((key) => merged[key] === undefined);
  if (missing.length === 0) return merged;
  if (!isJsonObject(lastRead)) {
    throw controlError(
      'UNSUPPORTED_MODEL',
      `This device reports no camera switching defaults in its room layout, so ${missing.join(', ')} cannot be filled in: camera switching needs a model 410`,
    );
  }
  throw invalidInput(
    `The device takes the camera switching defaults only all together, and its layout lacks ${missing.join(', ')}: give ${missing.length === 1 ? 'it' : 'them'} too`,
  );
}
