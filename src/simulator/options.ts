import { isFirmwareVersion } from './firmware';
import {
  CONNECTION_STATUSES,
  isErrorFormat,
  isLayoutSpelling,
  isLedLight,
  isSimulatorFirmware,
  isSimulatorModel,
  LAYOUT_SPELLINGS,
  LED_NAMES,
} from './guards';
import type { SimulatorOptions } from './types';
import { isRecord } from './zones';

/** A bad option: `option` names it, `problem` says what is allowed ("must be ..."). */
export class OptionError extends TypeError {
  constructor(
    readonly option: keyof SimulatorOptions,
    readonly problem: string,
  ) {
    super(`${option} ${problem}`);
  }
}

const MAX_TIMER_MS = 2_147_483_647;
const MAX_PROFILES = 3;

type Check = (value: unknown) => string | undefined;

const oneOf =
  (allowed: readonly unknown[], problem: string): Check =>
  (value) =>
    allowed.includes(value) ? undefined : problem;
const matches =
  (pattern: RegExp, problem: string): Check =>
  (value) =>
    typeof value === 'string' && pattern.test(value) ? undefined : problem;
const wholeNumber =
  (min: number, max: number, problem = `must be a whole number from ${min} to ${max}`): Check =>
  (value) =>
    typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max
      ? undefined
      : problem;
const flag: Check = (value) => (typeof value === 'boolean' ? undefined : 'must be true or false');
const connection = oneOf(CONNECTION_STATUSES, `must be one of ${CONNECTION_STATUSES.join(', ')}`);

/** Every option's rule, in one place: the library, the CLI and the controls all check with these. */
const CHECKS: { [K in keyof SimulatorOptions]-?: Check } = {
  host: (value) => (typeof value === 'string' && value !== '' ? undefined : 'must be an address'),
  port: wholeNumber(0, 65535, 'must be a number from 0 to 65535'),
  vendor: matches(/^[A-Za-z][A-Za-z0-9]*$/, 'must be a word of letters and digits, starting with a letter'),
  model: (value) => (isSimulatorModel(value) ? undefined : 'must be 310, 410 or X'),
  passwords: (value) =>
    isRecord(value) && Object.values(value).every((password) => typeof password === 'string')
      ? undefined
      : 'must be {general?: text, admin?: text}',
  factoryReset: flag,
  enrollmentCode: matches(
    /^[A-Z0-9]{3}-[A-Z0-9]{3}-[A-Z0-9]{3}$/,
    'must look like XXX-XXX-XXX (upper-case letters and digits)',
  ),
  zones: (value) => (Array.isArray(value) ? undefined : 'must be an array'),
  zonesFile: (value) => (typeof value === 'string' ? undefined : 'must be a file name'),
  firmware: (value) => (isSimulatorFirmware(value) ? undefined : 'must be classic or layout'),
  layoutSpelling: (value) =>
    isLayoutSpelling(value) ? undefined : `must be one of ${LAYOUT_SPELLINGS.join(', ')}`,
  rateLimitPerMinute: wholeNumber(1, MAX_TIMER_MS, 'must be a whole number of at least 1'),
  rateLimitStatus: oneOf([429, 409], 'must be 429 or 409'),
  errorFormat: (value) => (isErrorFormat(value) ? undefined : 'must be errors or problem-details'),
  talker: oneOf(['walk', 'still', 'off'], 'must be walk, still or off'),
  answerEncoding: oneOf(['plain', 'chunked', 'gzip'], 'must be plain, chunked or gzip'),
  talkerAt: (value) =>
    isRecord(value) && Number.isFinite(value.x) && Number.isFinite(value.y)
      ? undefined
      : 'needs finite x and y in mm',
  muted: flag,
  stallStreams: flag,
  soundLocationIntervalMs: wholeNumber(1, MAX_TIMER_MS),
  metricsIntervalMs: wholeNumber(1, MAX_TIMER_MS),
  heartbeatIntervalMs: wholeNumber(1, MAX_TIMER_MS),
  streamConnectionsPerMinute: wholeNumber(1, MAX_TIMER_MS),
  tls: (value) =>
    isRecord(value) && typeof value.key === 'string' && typeof value.cert === 'string'
      ? undefined
      : 'must be {key, cert} in PEM',
  firmwareVersion: (value) =>
    isFirmwareVersion(value) ? undefined : 'must be a version such as 1.9.278056-0 or 2.0',
  barUnplugged: flag,
  leds: (value) =>
    isRecord(value) &&
    Object.entries(value).every(([name, light]) => LED_NAMES.some((led) => led === name) && isLedLight(light))
      ? undefined
      : 'must map console and networkA to {colour: none|red|yellow|green, state: off|solid|pulsing|blinking|flashing}',
  usb: connection,
  components: connection,
  profiles: (value) => profilesProblem(value),
  activeProfile: (value) => (typeof value === 'string' ? undefined : 'must be a profile id'),
  calibrationMs: wholeNumber(0, MAX_TIMER_MS),
  volumeScale: (value) =>
    isRecord(value) &&
    (value.max === 20 || value.max === 100) &&
    wholeNumber(1, value.max)(value.step) === undefined
      ? undefined
      : 'must be {max: 20 or 100, step: a whole number from 1 to max}',
  writeAnswer: oneOf(['empty-object', 'empty-body', 'echo'], 'must be empty-object, empty-body or echo'),
  usbEventForm: oneOf(['status', 'connected'], 'must be status or connected'),
  bodylessEvents: (value) =>
    Array.isArray(value) && value.every((name) => typeof name === 'string' && name !== '')
      ? undefined
      : 'must be a list of event names',
  layoutZoneExtras: (value) => (isRecord(value) ? undefined : 'must be an object'),
};

function profilesProblem(value: unknown): string | undefined {
  const problem = `must be at most ${MAX_PROFILES} {profileId, name, zones?} with unique ids and names`;
  if (!Array.isArray(value) || value.length > MAX_PROFILES) return problem;
  const valid = value.every(
    (profile) =>
      isRecord(profile) &&
      typeof profile.profileId === 'string' &&
      profile.profileId !== '' &&
      typeof profile.name === 'string' &&
      profile.name !== '' &&
      (profile.zones === undefined || Array.isArray(profile.zones)),
  );
  const unique = (key: 'profileId' | 'name') =>
    new Set(value.map((profile: Record<string, unknown>) => profile[key])).size === value.length;
  return valid && unique('profileId') && unique('name') ? undefined : problem;
}

/** Checks one option; throws an OptionError naming it. */
export function checkOption<K extends keyof SimulatorOptions>(name: K, value: SimulatorOptions[K]): void {
  if (value === undefined) return;
  const problem = CHECKS[name](value);
  if (problem !== undefined) throw new OptionError(name, problem);
}

/** Checks options from a caller without types (the CLI, a test, JSON); throws an OptionError naming the first bad one. */
export function validateOptions(options: SimulatorOptions): void {
  // Unknown keys are ignored, as they always were: a caller may pass options of a newer version.
  for (const name of Object.keys(options) as (keyof SimulatorOptions)[]) {
    if (Object.hasOwn(CHECKS, name)) checkOption(name, options[name]);
  }
}
