/**
 * The device events node's properties: the events it can pass on, the defaults, and how a saved node's
 * choice is read. Imported by the runtime and by the editor (no Node-RED, no DOM).
 */

import { MAX_MESSAGE_RATE } from '../../timing/rate-window';
import { palette } from '../palette';
import { readNonNegative, type Setting } from '../settings/node-settings';

export const TYPE = 'conference-audio-events';

/** Its place in the palette (scripts/build.js writes these into the editor's registerType). */
export const PALETTE = palette(TYPE, { inputs: 0, outputs: 1 });

/** soundLocation messages a second by default: plenty for a dashboard, a fifth of a flow's worth. */
export const DEFAULT_RATE = 5;

export const LIVE_EVENT_CHOICES = ['soundLocation', 'deviceMetrics', 'changes'] as const;
export type LiveEventChoice = (typeof LIVE_EVENT_CHOICES)[number];
export const DEFAULT_LIVE_EVENTS: readonly LiveEventChoice[] = ['soundLocation'];

function isChoice(value: string): value is LiveEventChoice {
  return (LIVE_EVENT_CHOICES as readonly string[]).includes(value);
}

/**
 * The events a device events node asks for: an array of names (the editor's form) or a comma-separated
 * text (a hand-written flow). Unknown names are reasons; an empty choice is one too.
 */
export function readLiveEvents(value: unknown): Setting<LiveEventChoice[]> {
  if (value === undefined || value === null) return { ok: true, value: [...DEFAULT_LIVE_EVENTS] };
  const listed = typeof value === 'string' ? value.split(',') : Array.isArray(value) ? value : undefined;
  if (listed === undefined) {
    return { ok: false, fallback: [...DEFAULT_LIVE_EVENTS], reason: 'events must be a list of event names' };
  }
  const names = listed
    .map((name) => (typeof name === 'string' ? name.trim() : ''))
    .filter((name) => name !== '');
  const unknown = names.filter((name) => !isChoice(name));
  const chosen = [...new Set(names.filter(isChoice))];
  if (unknown.length > 0 || chosen.length === 0) {
    const reason =
      unknown.length > 0
        ? `unknown event ${unknown.map((name) => `"${name}"`).join(', ')}: choose from ${LIVE_EVENT_CHOICES.join(', ')}`
        : `no event chosen: choose from ${LIVE_EVENT_CHOICES.join(', ')}`;
    return { ok: false, fallback: chosen.length > 0 ? chosen : [...DEFAULT_LIVE_EVENTS], reason };
  }
  return { ok: true, value: chosen };
}

/** The soundLocation messages a second: 0 or more (0 passes every reading). */
export function readRate(value: unknown): Setting<number> {
  return readNonNegative(value, DEFAULT_RATE, 'Rate', MAX_MESSAGE_RATE);
}
