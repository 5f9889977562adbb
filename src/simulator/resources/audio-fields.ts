import { atLeast, compareVersions, spelledFloor } from '../firmware';
import { isRecord } from '../zones';

type FieldRule =
  | { kind: 'bool' }
  | { kind: 'int'; min: number; max: number }
  | { kind: 'enum'; values: readonly string[] };

interface AudioField {
  rule: FieldRule;
  /** Lowest firmware that has the field. */
  floor: string;
  /** Last firmware that has it (only `microphoneGain`, gone in 2.x). */
  ceiling?: string;
  initial: boolean | number | string;
  /** `speakerVolume` only changes by volume steps. */
  readOnly?: boolean;
}

const LEVELS = ['Low', 'Medium', 'High'] as const;
const BOOL: FieldRule = { kind: 'bool' };
const int = (min: number, max: number): FieldRule => ({ kind: 'int', min, max });
const oneOf = (...values: string[]): FieldRule => ({ kind: 'enum', values });

/** The fields of `GET /api/v1/audio`, in the device's order, with their rules and firmware floors. */
export const AUDIO_FIELDS: Readonly<Record<string, AudioField>> = {
  microphoneMute: { rule: BOOL, floor: '0.9', initial: false },
  audienceMute: { rule: BOOL, floor: '1.1', initial: false },
  microphonePickupState: { rule: oneOf('Mono', 'Stereo'), floor: '0.9', initial: 'Mono' },
  microphoneGain: { rule: int(-6, 12), floor: '1.3', ceiling: '1.999.999', initial: 3 },
  speakerTrebleLevel: { rule: int(0, 100), floor: '0.9', initial: 90 },
  speakerBassLevel: { rule: int(0, 100), floor: '0.9', initial: 16 },
  speakerVolume: { rule: int(0, 100), floor: '0.9', initial: 14, readOnly: true },
  echoReductionLevel: { rule: oneOf(...LEVELS), floor: '1.2', initial: 'Medium' },
  noiseReductionLevel: { rule: oneOf(...LEVELS), floor: '1.2', initial: 'Medium' },
  auxiliaryOutputState: {
    rule: oneOf('MicLevel', 'LineLevel', 'SpeakerOut', 'MixedSignal', 'SpeakerRef'),
    floor: '0.9',
    initial: 'LineLevel',
  },
  voiceAmplificationEnabled: { rule: BOOL, floor: '1.1', initial: false },
  voiceAmplificationLevel: { rule: int(0, 40), floor: '1.1', initial: 25 },
  voiceAmplificationAuxInLevel: { rule: oneOf('Mic', 'Line'), floor: '1.1', initial: 'Line' },
  dynamicBoostEnabled: { rule: BOOL, floor: '1.9', initial: false },
  microphoneDuckingEnabled: { rule: BOOL, floor: '1.9', initial: false },
  voiceAmplificationGateThreshold: { rule: int(0, 256), floor: '2.0', initial: 65 },
  voiceAmplificationUsbOutputGainLevel: { rule: int(0, 40), floor: '2.0', initial: 10 },
};

/** The field of that name, or undefined: a name such as `constructor` is not a field, whatever Object has. */
function audioField(name: string): AudioField | undefined {
  return Object.hasOwn(AUDIO_FIELDS, name) ? AUDIO_FIELDS[name] : undefined;
}

export type AudioSettings = Record<string, boolean | number | string>;

export const NO_SETTING = 'At least one valid control setting must be included.';

export function defaultAudio(): AudioSettings {
  return Object.fromEntries(Object.entries(AUDIO_FIELDS).map(([name, field]) => [name, field.initial]));
}

/** The fields this firmware has. */
export function audioOnFirmware(audio: AudioSettings, firmwareVersion: string): AudioSettings {
  return Object.fromEntries(
    Object.entries(audio).filter(([name]) => firmwareProblem(name, firmwareVersion) === undefined),
  );
}

function firmwareProblem(name: string, firmwareVersion: string): string | undefined {
  const field = audioField(name);
  if (field === undefined) return undefined;
  if (!atLeast(firmwareVersion, field.floor)) return `Firmware version is < ${spelledFloor(field.floor)}.`;
  if (field.ceiling !== undefined && compareVersions(firmwareVersion, field.ceiling) > 0) {
    return `Firmware version is > ${field.ceiling}.`;
  }
  return undefined;
}

/** Why a value does not fit a field's rule, or undefined. A whole-valued number such as 2.0 is an integer. */
export function valueProblem(rule: FieldRule, value: unknown, max?: number): string | undefined {
  switch (rule.kind) {
    case 'bool':
      return typeof value === 'boolean' ? undefined : 'Expected boolean.';
    case 'int': {
      if (typeof value !== 'number' || !Number.isInteger(value)) return 'Expected integer.';
      const high = max ?? rule.max;
      return value >= rule.min && value <= high ? undefined : `Must be between ${rule.min} and ${high}.`;
    }
    case 'enum':
      return rule.values.some((allowed) => allowed === value) ? undefined : 'Invalid enum value.';
  }
}

/**
 * Applies a PATCH body as the device does: every field checked in the body's order, the first bad one
 * refuses the whole write. Either the new settings or the device's one refusal message.
 */
export function patchAudio(
  current: AudioSettings,
  patch: unknown,
  firmwareVersion: string,
): { ok: true; audio: AudioSettings } | { ok: false; message: string } {
  if (!isRecord(patch) || Object.keys(patch).length === 0) return { ok: false, message: NO_SETTING };
  const next: AudioSettings = { ...current };
  for (const [name, value] of Object.entries(patch)) {
    const field = audioField(name);
    const unsupported = `Unsupported Attributes: ${name}.`;
    if (field === undefined || field.readOnly === true) return { ok: false, message: unsupported };
    const problem = firmwareProblem(name, firmwareVersion) ?? valueProblem(field.rule, value);
    if (problem !== undefined) return { ok: false, message: `${unsupported} ${problem}` };
    next[name] = value as boolean | number | string;
  }
  return { ok: true, audio: next };
}

/** Sets fields directly, for the simulator's controls: the same value rules, no firmware or read-only rule. */
export function setAudioFields(current: AudioSettings, fields: unknown, volumeMax: number): AudioSettings {
  if (!isRecord(fields)) throw new TypeError('audio fields must be an object');
  const next: AudioSettings = { ...current };
  for (const [name, value] of Object.entries(fields)) {
    const field = audioField(name);
    if (field === undefined) throw new TypeError(`${name} is not an audio field`);
    const problem = valueProblem(field.rule, value, name === 'speakerVolume' ? volumeMax : undefined);
    if (problem !== undefined) throw new TypeError(`${name}: ${problem}`);
    next[name] = value as boolean | number | string;
  }
  return next;
}
