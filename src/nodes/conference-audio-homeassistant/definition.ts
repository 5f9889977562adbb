/**
 * The Home Assistant node's properties, their defaults and how a saved node's are read. Imported by the
 * runtime and by the editor (no Node-RED, no DOM).
 */
import { isSafeTopic } from '../../homeassistant/safe-topic';
import { palette } from '../palette';
import type { Setting } from '../settings/node-settings';

export const TYPE = 'conference-audio-homeassistant';
export const PALETTE = palette(TYPE, { inputs: 1, outputs: 1 });

export const HOMEASSISTANT_DEFAULTS = {
  /** Home Assistant's own default discovery prefix. */
  prefix: 'homeassistant',
  base: 'conference-audio',
} as const;

/** Why `value` cannot be a prefix or base topic, or undefined when it can. */
export function topicProblem(value: unknown): string | undefined {
  if (typeof value !== 'string' || !isSafeTopic(value.trim()))
    return 'use letters, digits, "_" and "-", in levels separated by "/"';
  return undefined;
}

/** A configured topic, or the default when it is absent, blank or unsafe (with the reason). */
export function readTopic(value: unknown, fallback: string): Setting<string> {
  if (value === undefined || value === null || (typeof value === 'string' && value.trim() === ''))
    return { ok: true, value: fallback };
  const problem = topicProblem(value);
  return problem === undefined
    ? { ok: true, value: String(value).trim() }
    : { ok: false, fallback, reason: problem };
}
