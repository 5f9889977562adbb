/**
 * Reading node properties as the editor stores them: numbers may arrive as strings, from hand-edited
 * JSON or a `${VAR}` that Node-RED substituted. Each reader answers the value to use, or the reason it
 * cannot be used (the node then keeps the default and warns). No Node-RED import, no DOM: the editors
 * use it too.
 */
import { decimalNumber } from '../../api/settings-rules';

/** What the editor sends for a password field the user did not change (Node-RED's own marker). */
export const UNCHANGED_PASSWORD = '__PWRD__';

export type Setting<T> = { ok: true; value: T } | { ok: false; fallback: T; reason: string };

/** The setting's value; else, after `warn` with the reason, the fallback the node keeps instead. */
export function settingValue<T>(setting: Setting<T>, warn: (reason: string) => void): T {
  if (setting.ok) return setting.value;
  warn(setting.reason);
  return setting.fallback;
}

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
  const parsed = decimalNumber(value);
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
