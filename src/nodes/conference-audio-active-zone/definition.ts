/**
 * The active zone node's properties: defaults, what is valid, and how a flow saved before the units
 * changed is read. Imported by the runtime and by the editor (no Node-RED, no DOM).
 *
 * Units: `hold` and `release` are both in milliseconds, as the device's own camera switching timing.
 * Flows saved before that have `release` in seconds and no `releaseUnit`; the editor has saved
 * `releaseUnit: 'ms'` with every active zone node since. So a node without `releaseUnit` (or with `'s'`)
 * has its release in seconds, and loads with the same timing it had.
 */
import { MAX_DELAY_MS, MAX_TIMER_SECONDS } from '../../api/settings-rules';
import { ANY_ZONE_TYPE } from '../../zones/active-zone';
import { palette } from '../palette';
import { readNonNegative, type Setting } from '../plain/node-settings';

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
  /** Also what a flow saved before `timing` existed gets: it keeps the timing it had. */
  timing: 'node' satisfies Timing,
  holdMs: 1000,
  releaseMs: 5000,
  /** What the editor saves with every node: `release` is in milliseconds. */
  releaseUnit: 'ms',
} as const;

/** The zone types offered in the dialog (`any`: every zone); any other text is allowed (the device names its types). */
export const ZONE_TYPE_SUGGESTIONS = [ACTIVE_ZONE_DEFAULTS.zoneType, ANY_ZONE_TYPE] as const;

export type ReleaseUnit = 'ms' | 's';

/** The unit of a saved node's `release`: milliseconds when it says so, else seconds (older flows). */
export function releaseUnitOf(releaseUnit: unknown): ReleaseUnit {
  return releaseUnit === 'ms' ? 'ms' : 's';
}

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

/** The release in milliseconds, from `release` in the unit `releaseUnit` names. */
export function readRelease(value: unknown, releaseUnit: unknown): Setting<number> {
  if (releaseUnitOf(releaseUnit) === 'ms') {
    return readNonNegative(value, ACTIVE_ZONE_DEFAULTS.releaseMs, 'Release', MAX_DELAY_MS);
  }
  const seconds = readNonNegative(value, ACTIVE_ZONE_DEFAULTS.releaseMs / 1000, 'Release', MAX_TIMER_SECONDS);
  return seconds.ok
    ? { ok: true, value: seconds.value * 1000 }
    : { ok: false, fallback: seconds.fallback * 1000, reason: seconds.reason };
}

/**
 * A node's `release` in milliseconds for the editor, which shows and saves milliseconds only: a value in
 * seconds is converted, a blank or unreadable one is left for the dialog to show (and flag).
 */
export function releaseInMs(value: unknown, releaseUnit: unknown): unknown {
  if (releaseUnitOf(releaseUnit) === 'ms') return value;
  const seconds = readNonNegative(value, ACTIVE_ZONE_DEFAULTS.releaseMs / 1000, 'Release', MAX_TIMER_SECONDS);
  return seconds.ok ? seconds.value * 1000 : value;
}

/** Whether a typed delay (ms) is one the runtime takes; blank is not (the dialog requires a value). */
export function isDelayMs(value: unknown): boolean {
  return String(value).trim() !== '' && readNonNegative(value, 0, 'Delay', MAX_DELAY_MS).ok;
}

/** The longest delay a dialog field in milliseconds takes; control's switching defaults share it. */
export { MAX_DELAY_MS };
