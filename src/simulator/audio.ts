import { isRecord } from './zones';

/** A plausible audio resource; real firmware's members are not documented. */
export interface AudioSettings {
  mute: boolean;
  /** dB, -60 to 12. */
  outputLevel: number;
  /** dB, -60 to 12. */
  inputLevel: number;
  noiseReduction: 'off' | 'low' | 'medium' | 'high';
  echoCancellation: boolean;
}

export function defaultAudio(): AudioSettings {
  return { mute: false, outputLevel: -12, inputLevel: 0, noiseReduction: 'medium', echoCancellation: true };
}

const NOISE_REDUCTION = ['off', 'low', 'medium', 'high'] as const;

/** Applies a PATCH body. Either the new settings or the device's error messages. */
export function patchAudio(
  current: AudioSettings,
  patch: unknown,
): { ok: true; audio: AudioSettings } | { ok: false; messages: string[] } {
  if (!isRecord(patch)) return { ok: false, messages: ['Request body must be a JSON object'] };
  const next: AudioSettings = { ...current };
  const unsupported: string[] = [];
  const invalid: string[] = [];
  for (const [key, value] of Object.entries(patch)) {
    switch (key) {
      case 'mute':
      case 'echoCancellation':
        if (typeof value === 'boolean') next[key] = value;
        else invalid.push(key);
        break;
      case 'outputLevel':
      case 'inputLevel':
        if (typeof value === 'number' && Number.isFinite(value) && value >= -60 && value <= 12)
          next[key] = value;
        else invalid.push(key);
        break;
      case 'noiseReduction': {
        const level = NOISE_REDUCTION.find((candidate) => candidate === value);
        if (level === undefined) invalid.push(key);
        else next.noiseReduction = level;
        break;
      }
      default:
        unsupported.push(key);
    }
  }
  const messages = [
    ...(unsupported.length > 0 ? [`Unsupported Attributes: ${unsupported.join(', ')}.`] : []),
    ...invalid.map((key) => `Invalid value: ${key}.`),
  ];
  return messages.length > 0 ? { ok: false, messages } : { ok: true, audio: next };
}
