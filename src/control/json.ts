/** A JSON object (not an array, not null), as device bodies and message values are read. */
export type JsonObject = Record<string, unknown>;

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Whether a change event's data says nothing: no body, an empty text, `{}`, or not an object. */
export function isEmptyBody(value: unknown): boolean {
  return !isJsonObject(value) || Object.keys(value).length === 0;
}

const MAX_SHOWN_LENGTH = 80;

/**
 * A value as an error message quotes it: JSON, cut short, and never a throw (a BigInt or a circular
 * object from a flow cannot be written as JSON).
 */
export function shown(value: unknown): string {
  if (value === undefined) return 'nothing';
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length <= MAX_SHOWN_LENGTH ? text : `${text.slice(0, MAX_SHOWN_LENGTH - 1)}…`;
}
