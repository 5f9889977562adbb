/**
 * Reading the live nodes' properties as the editor stores them, tolerantly: numbers may arrive as strings
 * from older flows or hand-edited JSON. Each reader answers the value to use, or the reason it cannot be
 * used (the node then keeps the default and warns). No Node-RED import.
 */
export type Setting<T> = { ok: true; value: T } | { ok: false; fallback: T; reason: string };

/** A number from 0 to `max`, or `fallback` when the property is absent or blank. */
export function readNonNegative(
  value: unknown,
  fallback: number,
  field: string,
  max = Number.MAX_VALUE,
): Setting<number> {
  if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '')) {
    return { ok: true, value: fallback };
  }
  const parsed =
    typeof value === 'number' ? value : typeof value === 'string' ? Number(value.trim()) : Number.NaN;
  if (!Number.isFinite(parsed) || parsed < 0) {
    return { ok: false, fallback, reason: `${field} must be a number of 0 or more, got ${String(value)}` };
  }
  if (parsed > max) {
    return { ok: false, fallback, reason: `${field} must be at most ${max}, got ${String(value)}` };
  }
  return { ok: true, value: parsed };
}

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
