/**
 * A zone id read tolerantly, in its text form: ids are opaque, so a numbered id is as good as its text.
 * Undefined for anything else, an empty string included.
 */
export function zoneIdText(value: unknown): string | undefined {
  if (typeof value === 'string' && value !== '') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}
