/**
 * Whether the state read back after a write shows what was written. The device is the truth, so a write
 * it accepted but does not show is still reported as done, with `applied: false` for a flow to act on.
 */
import { isDeepStrictEqual } from 'node:util';
import { isJsonObject } from './json';
import type { GroupState } from './state-groups';

/** Whether `actual` holds every field of `expected` with the same value (nested objects likewise). */
function holds(actual: unknown, expected: unknown): boolean {
  if (!isJsonObject(expected) || !isJsonObject(actual)) return isDeepStrictEqual(actual, expected);
  return Object.keys(expected).every((key) => holds(actual[key], expected[key]));
}

/** Whether the group read back shows every field of the body written: a field it lacks is not applied. */
export function writeApplied(written: GroupState, readBack: GroupState): boolean {
  return holds(readBack, written);
}
