/**
 * What a device state node sends, without Node-RED: the messages of the first complete reading, of each
 * change and of a re-send, in the node's output mode, for the groups it follows. The device's state
 * shares its values with every follower, so each message gets copies.
 */
import { copyJson } from '../../api/json-copy';
import type { GroupState, StateGroupName, StateGroups } from '../../control/state-groups';
import { joinTopic } from '../messages/topic';
import { ALL_TOPIC_LEVEL, type OutputMode, STATE_GROUPS } from './definition';

/**
 * In `changes` mode payload and previous are one group; in `all` mode objects keyed by group. A type, not
 * an interface, so that it is a Node-RED message as it stands.
 */
export type StateMessage = {
  topic: string;
  payload: GroupState | StateGroups;
  previous: GroupState | StateGroups | null;
  /** Top-level field names (`changes`) or group names (`all`). */
  changed: string[];
};

export class StateOutput {
  readonly #mode: OutputMode;
  readonly #groups: readonly StateGroupName[];
  readonly #topicBase: string;
  readonly #send: (messages: StateMessage[]) => void;
  #started = false;
  /** `all` mode: the groups as the last message carried them, and as they stand now. */
  #sent: StateGroups = {};
  #latest: StateGroups = {};
  /** `all` mode: groups changed since the last message; changes of one moment go out as one message. */
  readonly #pending = new Set<StateGroupName>();

  constructor(
    mode: OutputMode,
    groups: readonly StateGroupName[],
    topicBase: string,
    send: (messages: StateMessage[]) => void,
  ) {
    this.#mode = mode;
    this.#groups = groups;
    this.#topicBase = topicBase;
    this.#send = send;
  }

  /** Whether the first complete reading was sent: changes are sent from then on. */
  get started(): boolean {
    return this.#started;
  }

  /** The first complete reading: every chosen group the device has, as new (previous null, all changed). */
  complete(state: StateGroups): void {
    if (this.#started) return;
    this.#started = true;
    const chosen = this.#chosen(state);
    this.#latest = { ...chosen };
    this.#sent = { ...chosen };
    if (this.#mode === 'all') {
      this.#send([this.#allMessage(chosen, null, Object.keys(chosen))]);
      return;
    }
    this.#send(
      Object.entries(chosen).map(([group, value]) =>
        this.#groupMessage(group as StateGroupName, value, null, Object.keys(value)),
      ),
    );
  }

  change(group: StateGroupName, next: GroupState, previous: GroupState | null, changed: string[]): void {
    if (!this.#started || !this.#groups.includes(group)) return;
    if (this.#mode === 'changes') {
      this.#send([this.#groupMessage(group, next, previous, changed)]);
      return;
    }
    this.#latest[group] = next;
    if (this.#pending.size === 0) queueMicrotask(() => this.#flush());
    this.#pending.add(group);
  }

  /** The current state again, as unchanged: previous equal to payload, nothing changed. */
  resend(state: StateGroups): StateMessage[] {
    const chosen = this.#chosen(state);
    if (this.#mode === 'all') return [this.#allMessage(chosen, chosen, [])];
    return Object.entries(chosen).map(([group, value]) =>
      this.#groupMessage(group as StateGroupName, value, value, []),
    );
  }

  #flush(): void {
    const changed = STATE_GROUPS.filter((group) => this.#pending.has(group));
    this.#pending.clear();
    const next = { ...this.#latest };
    const message = this.#allMessage(next, this.#sent, changed);
    this.#sent = next;
    this.#send([message]);
  }

  /** The chosen groups of `state`, in the order of STATE_GROUPS; groups the device refused are absent. */
  #chosen(state: StateGroups): StateGroups {
    const chosen: StateGroups = {};
    for (const group of this.#groups) {
      const value = state[group];
      if (value !== undefined) chosen[group] = value;
    }
    return chosen;
  }

  #groupMessage(
    group: StateGroupName,
    next: GroupState,
    previous: GroupState | null,
    changed: string[],
  ): StateMessage {
    return {
      topic: joinTopic(this.#topicBase, group),
      payload: copyJson(next),
      previous: previous === null ? null : copyJson(previous),
      changed: [...changed],
    };
  }

  #allMessage(next: StateGroups, previous: StateGroups | null, changed: string[]): StateMessage {
    return {
      topic: joinTopic(this.#topicBase, ALL_TOPIC_LEVEL),
      payload: copyJson(next),
      previous: previous === null ? null : copyJson(previous),
      changed,
    };
  }
}
