/**
 * What the action runner needs of the device's state cache: the groups as last read, with when they were
 * read, and a place to put what it reads. The device connection owns the real cache (one per device,
 * shared by every node); `MemoryStateCache` is the plain one, for a caller with no connection.
 */
import type { GroupState, StateGroupName } from './state-groups';

export interface CachedGroup {
  readonly value: GroupState;
  /** When it was read, in ms since the epoch. */
  readonly readAt: number;
}

export interface ControlStateCache {
  get(group: StateGroupName): CachedGroup | undefined;
  /** A group just read from the device; the cache stamps the time and tells whoever follows it. */
  set(group: StateGroupName, value: GroupState): void;
  /** The device's refusal (404, 409) of the group's resource, when it refused it before. */
  refusal?(group: StateGroupName): unknown;
  /** The device refused the group's resource: it is not to be asked for again. */
  refuse?(group: StateGroupName, error: unknown): void;
}

export class MemoryStateCache implements ControlStateCache {
  readonly #groups = new Map<StateGroupName, CachedGroup>();
  readonly #refused = new Map<StateGroupName, unknown>();
  readonly #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  get(group: StateGroupName): CachedGroup | undefined {
    return this.#groups.get(group);
  }

  set(group: StateGroupName, value: GroupState): void {
    this.#groups.set(group, { value, readAt: this.#now() });
  }

  refusal(group: StateGroupName): unknown {
    return this.#refused.get(group);
  }

  refuse(group: StateGroupName, error: unknown): void {
    this.#refused.set(group, error);
    this.#groups.delete(group);
  }
}
