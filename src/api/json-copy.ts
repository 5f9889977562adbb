/**
 * A deep copy of a value parsed from JSON (objects, arrays, strings, numbers, booleans, null): the zones
 * parsed from a body, and each node's own copy of what the device sent, so that no later edit reaches the
 * original. Several times faster than `structuredClone`, which on Node 20 goes through a MessageChannel,
 * and than Node-RED's `cloneMessage` (lodash): on a live stream this runs for every event and node.
 */
export function copyJson<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    const array: unknown[] = new Array(value.length);
    for (let index = 0; index < value.length; index++) array[index] = copyJson(value[index]);
    return array as T;
  }
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const field = copyJson((value as Record<string, unknown>)[key]);
    // A `__proto__` key from JSON.parse is a plain field; assigning it would set the copy's prototype.
    if (key === '__proto__')
      Object.defineProperty(copy, key, {
        value: field,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    else copy[key] = field;
  }
  return copy as T;
}
