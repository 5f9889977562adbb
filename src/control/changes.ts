import { isDeepStrictEqual } from 'node:util';
import type { GroupState } from './state-groups';

/**
 * The top-level fields that differ between two versions of a group, in the order the new version lists
 * them (then the ones it dropped). Every field of `next` the first time, when there is no `previous`.
 */
export function changedFields(previous: GroupState | null | undefined, next: GroupState): string[] {
  if (previous === null || previous === undefined) return Object.keys(next);
  const names = [...Object.keys(next), ...Object.keys(previous).filter((name) => !Object.hasOwn(next, name))];
  return names.filter((name) => !isDeepStrictEqual(previous[name], next[name]));
}
