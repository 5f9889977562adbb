/**
 * Every field of GET/PATCH /api/v1/audio (docs/device-api.md): its type, its range or choices, whether
 * a PATCH may write it, and the firmware that has it. The one place these facts live; validation, the
 * node's editor and its help read them from here.
 */
import { type FirmwareVersion, parseFirmwareVersion } from './firmware';

export type AudioFieldRule =
  | { type: 'boolean' }
  | { type: 'integer'; min: number; max: number }
  | { type: 'enum'; values: readonly string[] };

export interface AudioField {
  readonly rule: AudioFieldRule;
  /** False for the one field a PATCH refuses: the volume moves only in steps. */
  readonly writable: boolean;
  /** The oldest firmware that has the field. */
  readonly floor: FirmwareVersion;
  /** The newest firmware that still has it, for a field later removed. */
  readonly ceiling?: FirmwareVersion;
}

const LEVEL = ['Low', 'Medium', 'High'] as const;

function version(text: string): FirmwareVersion {
  const parsed = parseFirmwareVersion(text);
  if (parsed === undefined) throw new Error(`bad firmware version in the audio table: ${text}`);
  return parsed;
}

function field(
  rule: AudioFieldRule,
  floor: string,
  extra: Partial<Pick<AudioField, 'writable'>> & { ceiling?: string } = {},
): AudioField {
  return {
    rule,
    writable: extra.writable ?? true,
    floor: version(floor),
    ...(extra.ceiling === undefined ? {} : { ceiling: version(extra.ceiling) }),
  };
}

const bool: AudioFieldRule = { type: 'boolean' };
const int = (min: number, max: number): AudioFieldRule => ({ type: 'integer', min, max });
const oneOf = (values: readonly string[]): AudioFieldRule => ({ type: 'enum', values });

export const AUDIO_FIELDS = {
  microphoneMute: field(bool, '0.9'),
  // The sources disagree (1.1 or 1.9); the lower one here, so that only the device refuses a write it cannot take.
  audienceMute: field(bool, '1.1'),
  microphonePickupState: field(oneOf(['Mono', 'Stereo']), '0.9'),
  microphoneGain: field(int(-6, 12), '1.3', { ceiling: '1.999.999' }),
  speakerTrebleLevel: field(int(0, 100), '0.9'),
  speakerBassLevel: field(int(0, 100), '0.9'),
  // 0-20 or 0-100 depending on the source: read as an opaque integer, never written.
  speakerVolume: field(int(0, 100), '0.9', { writable: false }),
  echoReductionLevel: field(oneOf(LEVEL), '1.2'),
  noiseReductionLevel: field(oneOf(LEVEL), '1.2'),
  auxiliaryOutputState: field(
    oneOf(['MicLevel', 'LineLevel', 'SpeakerOut', 'MixedSignal', 'SpeakerRef']),
    '0.9',
  ),
  voiceAmplificationEnabled: field(bool, '1.1'),
  voiceAmplificationLevel: field(int(0, 40), '1.1'),
  voiceAmplificationAuxInLevel: field(oneOf(['Mic', 'Line']), '1.1'),
  dynamicBoostEnabled: field(bool, '1.9'),
  microphoneDuckingEnabled: field(bool, '1.9'),
  voiceAmplificationGateThreshold: field(int(0, 256), '2.0'),
  voiceAmplificationUsbOutputGainLevel: field(int(0, 40), '2.0'),
} as const satisfies Record<string, AudioField>;

export type AudioFieldName = keyof typeof AUDIO_FIELDS;

export const AUDIO_FIELD_NAMES = Object.keys(AUDIO_FIELDS) as AudioFieldName[];

export function isAudioFieldName(name: string): name is AudioFieldName {
  return Object.hasOwn(AUDIO_FIELDS, name);
}

/** What a rule allows, in words for an error message: "one of Low, Medium, High". */
export function describeRule(rule: AudioFieldRule): string {
  switch (rule.type) {
    case 'boolean':
      return 'true or false';
    case 'integer':
      return `a whole number from ${rule.min} to ${rule.max}`;
    case 'enum':
      return `one of ${rule.values.join(', ')}`;
  }
}
