/**
 * Who follows a device state and which groups each needs: the union the state keeps current, and which
 * follower has had its first complete reading. Bookkeeping only: no read, no timer.
 */
import { type GroupState, STATE_GROUPS, type StateGroupName, type StateGroups } from '../control';

/**
 * A group changed: its new value, the one before (null when it had none) and the names of the top-level
 * fields that differ. The values are shared by every subscriber: copy before changing them.
 */
export type StateListener = (
  group: StateGroupName,
  next: GroupState,
  previous: GroupState | null,
  changed: string[],
) => void;

export interface StateSubscriber {
  /** Changes of the groups this subscriber needs. */
  onChange?: StateListener;
  /**
   * Every group this subscriber needs was read (or refused by the device) once: called once per
   * subscription with those groups, at once (in a microtask) when they were read already.
   */
  onComplete?(state: StateGroups): void;
  /** A read of a group it needs failed for another reason than the device refusing the resource. */
  onReadError?(group: StateGroupName, error: unknown): void;
  /** The device sent something for a group it needs that was dropped (said once per kind of thing). */
  onWarning?(group: StateGroupName, message: string): void;
  /**
   * The groups this follower needs kept current (default: every group). Each group costs reads: one at
   * start and at each resync, and for audio, which the device never announces, one every audio interval.
   * The active zone follows only the switching defaults, so a thousand of them cost one resource each.
   */
  groups?: readonly StateGroupName[];
}

export interface StateSubscription {
  readonly subscriber: StateSubscriber;
  readonly groups: ReadonlySet<StateGroupName>;
}

export class StateFollowers {
  readonly #subscriptions = new Set<StateSubscription>();
  /** How many subscriptions need each followed group; a group leaves the map with its last one. */
  readonly #needs = new Map<StateGroupName, number>();
  /** Subscriptions whose first complete reading is still to be told. */
  readonly #waiting = new Set<StateSubscription>();

  get size(): number {
    return this.#subscriptions.size;
  }

  has(subscription: StateSubscription): boolean {
    return this.#subscriptions.has(subscription);
  }

  follows(group: StateGroupName): boolean {
    return this.#needs.has(group);
  }

  /** The followed groups, in the order of STATE_GROUPS. */
  followed(): StateGroupName[] {
    return STATE_GROUPS.filter((group) => this.#needs.has(group));
  }

  /** Adds a subscription; returns it and the groups nobody followed before it. */
  add(subscriber: StateSubscriber): { subscription: StateSubscription; added: StateGroupName[] } {
    const subscription: StateSubscription = {
      subscriber,
      groups: new Set(subscriber.groups ?? STATE_GROUPS),
    };
    const added: StateGroupName[] = [];
    for (const group of subscription.groups) {
      const needs = this.#needs.get(group) ?? 0;
      if (needs === 0) added.push(group);
      this.#needs.set(group, needs + 1);
    }
    this.#subscriptions.add(subscription);
    this.#waiting.add(subscription);
    return { subscription, added };
  }

  /** Removes a subscription; returns the groups nobody follows any more, or undefined when it had left. */
  remove(subscription: StateSubscription): StateGroupName[] | undefined {
    if (!this.#subscriptions.delete(subscription)) return undefined;
    this.#waiting.delete(subscription);
    const dropped: StateGroupName[] = [];
    for (const group of subscription.groups) {
      const needs = (this.#needs.get(group) ?? 0) - 1;
      if (needs > 0) this.#needs.set(group, needs);
      else {
        this.#needs.delete(group);
        dropped.push(group);
      }
    }
    return dropped;
  }

  clear(): void {
    this.#subscriptions.clear();
    this.#needs.clear();
    this.#waiting.clear();
  }

  /** Tells the followers that need `group` why a read of it failed. */
  readFailed(group: StateGroupName, error: unknown): void {
    for (const subscriber of this.needing(group)) subscriber.onReadError?.(group, error);
  }

  /** Tells the followers that need `group` of something the device sent for it that was dropped. */
  warn(group: StateGroupName, message: string): void {
    for (const subscriber of this.needing(group)) subscriber.onWarning?.(group, message);
  }

  /** The subscribers that need `group`. */
  *needing(group: StateGroupName): Iterable<StateSubscriber> {
    for (const { subscriber, groups } of this.#subscriptions) if (groups.has(group)) yield subscriber;
  }

  /**
   * The subscriptions still waiting whose groups are all read (`read` says which are), each taken off the
   * waiting list: its first complete reading is to be told now, and never again.
   */
  completed(read: (group: StateGroupName) => boolean): StateSubscription[] {
    const done: StateSubscription[] = [];
    for (const subscription of this.#waiting) {
      if ([...subscription.groups].every(read)) done.push(subscription);
    }
    for (const subscription of done) this.#waiting.delete(subscription);
    return done;
  }
}
