/** A JSON object (not an array, not null), as device bodies and message values are read. */
export type JsonObject = Record<string, unknown>;

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Whether a change event's data says nothing: no body, an empty text, `{}`, or not an object. */
export function isEmptyBody(value: unknown): boolean {
  return !isJsonObject(value) || Object.keys(value).length === 0;
}
