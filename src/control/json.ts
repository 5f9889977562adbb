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
  // JSON writes NaN and Infinity as null, which would tell the user the wrong thing.
  if (typeof value === 'number' && !Number.isFinite(value)) return String(value);
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length <= MAX_SHOWN_LENGTH ? text : `${text.slice(0, MAX_SHOWN_LENGTH - 1)}…`;
}

/** Keys that reach an object's prototype when a careless merge copies them: never forwarded. */
const UNSAFE_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/** What JSON cannot carry, or what must not be sent, somewhere inside a value: where, and why. */
export interface JsonFlaw {
  /** Where, as `a.b[2].c`; empty for the value itself. */
  path: string;
  reason: 'unsafe key' | 'not finite';
  /** The key or the number found. */
  found: string;
}

function joined(path: string, key: string): string {
  return path === '' ? key : `${path}.${key}`;
}

/**
 * The first unsafe key (`__proto__`, `constructor`, `prototype`) or non-finite number anywhere in
 * `value`. Iterative, so a deeply nested value cannot overflow the stack; call it only on a value that
 * JSON.stringify took, so it is finite and free of cycles.
 */
export function jsonFlaw(value: unknown): JsonFlaw | undefined {
  const pending: Array<{ value: unknown; path: string }> = [{ value, path: '' }];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const { value: item, path } = next;
    if (typeof item === 'number' && !Number.isFinite(item)) {
      return { path, reason: 'not finite', found: String(item) };
    }
    if (Array.isArray(item)) {
      item.forEach((element, index) => {
        pending.push({ value: element, path: `${path}[${index}]` });
      });
    } else if (isJsonObject(item)) {
      for (const [key, inner] of Object.entries(item)) {
        if (UNSAFE_KEYS.has(key)) return { path: joined(path, key), reason: 'unsafe key', found: key };
        pending.push({ value: inner, path: joined(path, key) });
      }
    }
  }
  return undefined;
}
