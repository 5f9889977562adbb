/**
 * Reading node properties as the editor stores them, tolerantly: numbers may arrive as strings from older
 * flows or hand-edited JSON. Each reader answers the value to use, or the reason it cannot be used (the
 * node then keeps the default and warns). No Node-RED import, no DOM: the editors use it too.
 */
export type Setting<T> = { ok: true; value: T } | { ok: false; fallback: T; reason: string };

/** The setting's value; else, after `warn` with the reason, the fallback the node keeps instead. */
export function settingValue<T>(setting: Setting<T>, warn: (reason: string) => void): T {
  if (setting.ok) return setting.value;
  warn(setting.reason);
  return setting.fallback;
}

/**
 * A number as people write it in a form: decimal digits with an optional fraction. Not `Number()`'s
 * grammar, which reads "0x10" as 16, "0b11" as 3 and "1e3" as 1000: a hold of "0x10" is a typo, not 16 ms.
 */
const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)$/;

/** A number from 0 to `max`, or `fallback` when the property is absent or blank. Strings must be decimal. */
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
    typeof value === 'number'
      ? value
      : typeof value === 'string' && DECIMAL.test(value.trim())
        ? Number(value.trim())
        : Number.NaN;
  if (!Number.isFinite(parsed) || parsed < 0) {
    return {
      ok: false,
      fallback,
      reason: `${field} must be a decimal number of 0 or more, got ${String(value)}`,
    };
  }
  if (parsed > max) {
    return { ok: false, fallback, reason: `${field} must be at most ${max}, got ${String(value)}` };
  }
  return { ok: true, value: parsed };
}
