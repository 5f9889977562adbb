/**
 * The zone lookup node's properties: defaults and what is valid. Imported by the runtime and by the
 * editor (no Node-RED, no DOM).
 */

import { palette } from '../palette';
import { readNonNegative, type Setting } from '../settings/node-settings';

export const TYPE = 'conference-audio-zone-lookup';

/** Its place in the palette (scripts/build.js writes these into the editor's registerType). */
export const PALETTE = palette(TYPE, { inputs: 1, outputs: 2 });

export const LOOKUP_DEFAULTS = {
  /** The message property holding the point. */
  property: 'payload',
  /** How long the device's zones are used before they are read again. */
  maxAgeSeconds: 60,
} as const;

/** The message property holding the point, without `msg.`: the configured one, or the default when blank. */
export function readProperty(value: unknown): string {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : LOOKUP_DEFAULTS.property;
}

/** How long read zones are used, in seconds: 0 or more (no timer runs on it, so no upper bound). */
export function readMaxAge(value: unknown): Setting<number> {
  return readNonNegative(value, LOOKUP_DEFAULTS.maxAgeSeconds, 'Cache zones');
}
