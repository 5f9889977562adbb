/**
 * The device config node's facts beyond its settings rules (src/api/settings-rules.ts holds the defaults,
 * the choices and the check of every property): what an imported node without some properties gets.
 * Imported by the runtime and by the editor.
 */
import { type Checked, checkAudioInterval, DEVICE_DEFAULTS } from '../../api/settings-rules';
import { DEVICE_TYPE } from '../texts/catalogue';

export const TYPE = DEVICE_TYPE;

/**
 * A config node imported (or loaded) without these properties works with the runtime's defaults; the
 * editor's import leaves them undefined, which its validators would flag, so it fills them in.
 */
export const IMPORT_DEFAULTS = {
  clientId: DEVICE_DEFAULTS.clientId,
  vendor: DEVICE_DEFAULTS.vendor,
  timeout: DEVICE_DEFAULTS.timeoutSeconds,
  audioInterval: DEVICE_DEFAULTS.audioIntervalSeconds,
} as const;

/** Seconds between two reads of the audio settings: the one rule, src/api/settings-rules.ts's. */
export function readAudioInterval(value: unknown): Checked<number> {
  return checkAudioInterval(value);
}
