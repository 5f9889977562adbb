/**
 * The active zone node's properties: defaults and what is valid. Imported by the runtime and by the
 * editor (no Node-RED, no DOM). `hold` and `release` are both in milliseconds, as the device's own
 * camera switching timing.
 */
import { MAX_DELAY_MS } from '../../api/settings-rules';
import { ANY_ZONE_TYPE, DEFAULT_ACTIVE_ZONE_TIMING } from '../../zones/active-zone';
import { palette } from '../palette';
import { readNonNegative, type Setting } from '../settings/node-settings';

export const TYPE = 'conference-audio-active-zone';

/** Its place in the palette (scripts/build.js writes these into the editor's registerType). */
export const PALETTE = palette(TYPE, { inputs: 1, outputs: 1 });

/**
 * Where hold and release come from: `node`, as set on the node; `device`, the device's own camera switching
 * timing (`zonesTriggerWaitTime` and `switchToDefaultWaitTime`), followed when it changes.
 */
export const TIMING_CHOICES = ['node', 'device'] as const;
export type Timing = (typeof TIMING_CHOICES)[number];

export const ACTIVE_ZONE_DEFAULTS = {
  /** The zone type the device's camera switching uses. */
  zoneType: 'Switching',
  timing: 'node' satisfies Timing,
  holdMs: DEFAULT_ACTIVE_ZONE_TIMING.holdMs,
  releaseMs: DEFAULT_ACTIVE_ZONE_TIMING.releaseMs,
} as const;

/** The zone types offered in the dialog (`any`: every zone); any other text is allowed (the device names its types). */
export const ZONE_TYPE_SUGGESTIONS = [ACTIVE_ZONE_DEFAULTS.zoneType, ANY_ZONE_TYPE] as const;

/** The zone type to follow: the configured text, trimmed, or the default when blank. */
export function readZoneType(value: unknown): string {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : ACTIVE_ZONE_DEFAULTS.zoneType;
}

/** The timing choice: one of TIMING_CHOICES, else (absent, or unknown text) the default. */
export function readTiming(value: unknown): Timing {
  return TIMING_CHOICES.find((choice) => choice === value) ?? ACTIVE_ZONE_DEFAULTS.timing;
}

export function readHold(value: unknown): Setting<number> {
  return readNonNegative(value, ACTIVE_ZONE_DEFAULTS.holdMs, 'Hold', MAX_DELAY_MS);
}

export function readRelease(value: unknown): Setting<number> {
  return readNonNegative(value, ACTIVE_ZONE_DEFAULTS.releaseMs, 'Release', MAX_DELAY_MS);
}

/** Whether a typed delay (ms) is one the runtime takes; blank is not (the dialog requires a value). */
export function isDelayMs(value: unknown): boolean {
  return String(value).trim() !== '' && readNonNegative(value, 0, 'Delay', MAX_DELAY_MS).ok;
}

/** The longest delay a dialog field in milliseconds takes; control's switching defaults share it. */
export { MAX_DELAY_MS };
