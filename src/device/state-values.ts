import {
  type CachedGroup,
  type GroupState,
  STATE_GROUPS,
  type StateGroupName,
  type StateGroups,
} from '../control';

/** The groups of a device state as they stand, each with when it was stored and how often it moved. */
export class StateValues {
  readonly #groups = new Map<StateGroupName, CachedGroup>();
  /**
   * Counts each group's stores and drops: a read that saw it move while on its way may be older than what
   * was stored meanwhile, or be of a group dropped (and perhaps followed again) since.
   */
  readonly #versions = new Map<StateGroupName, number>();

  get(group: StateGroupName): CachedGroup | undefined {
    return this.#groups.get(group);
  }

  version(group: StateGroupName): number {
    return this.#versions.get(group) ?? 0;
  }

  /** Stores a group, stamped now; returns the value it had (null when none). */
  set(group: StateGroupName, value: GroupState): GroupState | null {
    const previous = this.#groups.get(group)?.value ?? null;
    this.#groups.set(group, { value, readAt: Date.now() });
    this.#bump(group);
    return previous;
  }

  delete(group: StateGroupName): void {
    this.#groups.delete(group);
    this.#bump(group);
  }

  /** Forgets every value; a read begun before is told apart by the state's run, not by the versions. */
  clear(): void {
    this.#groups.clear();
  }

  /** The groups (or those of `groups`) as they stand, in STATE_GROUPS order. */
  current(groups?: ReadonlySet<StateGroupName>): StateGroups {
    const state: StateGroups = {};
    for (const group of STATE_GROUPS) {
      const cached = groups === undefined || groups.has(group) ? this.#groups.get(group) : undefined;
      if (cached !== undefined) state[group] = cached.value;
    }
    return state;
  }

  #bump(group: StateGroupName): void {
    this.#versions.set(group, (this.#versions.get(group) ?? 0) + 1);
  }
}
