import type { DeviceRequester } from '../api/types';
import {
  applyChangeEvent,
  type CachedGroup,
  type ControlStateCache,
  changedFields,
  GROUP_RESOURCES,
  type GroupState,
  groupFromBody,
  groupOfResource,
  RESYNC_GROUPS,
  refusesResource,
  STATE_GROUPS,
  type StateGroupName,
  type StateGroups,
} from '../control';
import { CoalescedTask } from '../timing/coalesced-task';
import { AudioPoll } from './state-audio-poll';
import { followFeeds, type StateFeeds } from './state-feeds';
import { StateFollowers, type StateSubscriber } from './state-followers';
import { ResyncSchedule } from './state-resync';
import { DEFAULT_AUDIO_INTERVAL_MS, type DeviceStateOptions, READ_GAP_MS } from './state-settings';
import { StateValues } from './state-values';
import { OnceSaid } from './state-warnings';

export type { StateFeeds } from './state-feeds';
export type { StateListener, StateSubscriber } from './state-followers';

/**
 * The state of one device, however many nodes follow it: the groups its followers need, read when they
 * come, kept current from the shared change stream, audio polled (and read at once when the data stream
 * shows the microphone muted or live again), read again after a reconnect of that stream and at least
 * once a minute. Only the union of what the followers need is read and kept (a thousand active zones need
 * the switching group alone); a group nobody needs any more is dropped. It runs only while someone follows
 * it; stopped, it offers nothing cached, so the control runner reads what it needs. A resource the device
 * refuses (404, 409) is not asked for again by this connection, by the state or by the runner.
 */
export class DeviceState implements ControlStateCache {
  /** How long a polled audio reading counts as current: the control runner's `toggleFreshMs`. */
  readonly audioIntervalMs: number;
  readonly #requester: DeviceRequester;
  readonly #feeds: StateFeeds;
  readonly #resyncSchedule: ResyncSchedule;
  readonly #followers = new StateFollowers();
  readonly #groups = new StateValues();
  /** Followed groups not read since they were followed; the state is complete when none is left. */
  readonly #unread = new Set<StateGroupName>();
  /** Resources the device refused (404, 409), with its answer: not asked for again by this connection. */
  readonly #refused = new Map<StateGroupName, unknown>();
  readonly #warnings = new OnceSaid();
  /** Each group's read, made when the group is first read: most devices need one or two groups. */
  readonly #reads = new Map<StateGroupName, CoalescedTask>();
  readonly #audioPoll: AudioPoll;
  #stopFollowing: (() => void) | undefined;
  /** Counts starts and stops: a read begun in an earlier run lands nowhere. */
  #run = 0;
  #running = false;
  /** Until the change stream first opens (or fails to), reads wait for it, so no change falls between. */
  #readsHeld = true;
  #closed = false;

  constructor(requester: DeviceRequester, feeds: StateFeeds, options: DeviceStateOptions = {}) {
    this.#requester = requester;
    this.#feeds = feeds;
    this.audioIntervalMs = options.audioIntervalMs ?? DEFAULT_AUDIO_INTERVAL_MS;
    this.#resyncSchedule = new ResyncSchedule(
      { intervalMs: options.resyncIntervalMs, steadyIntervalMs: options.steadyResyncIntervalMs },
      () => this.#resyncInTurn(),
    );
    this.#audioPoll = new AudioPoll(this.audioIntervalMs, () => this.#request('audio'));
  }

  /** Whether every followed group has been read (or refused) since it was followed. */
  get complete(): boolean {
    return this.#running && this.#unread.size === 0;
  }

  /** Whether each of `groups` is followed and has been read (or refused) since: a follower's own "complete". */
  hasRead(groups: readonly StateGroupName[]): boolean {
    return (
      this.#running && groups.every((group) => this.#followers.follows(group) && !this.#unread.has(group))
    );
  }

  /** The followed groups (or those of `groups`) as they stand, in STATE_GROUPS order; refused ones absent. */
  current(groups?: ReadonlySet<StateGroupName>): StateGroups {
    return this.#groups.current(groups);
  }

  /** The device's refusal of the group's resource, when it refused it: the control runner fails with it. */
  refusal(group: StateGroupName): unknown {
    return this.#refused.get(group);
  }

  get(group: StateGroupName): CachedGroup | undefined {
    return this.#running ? this.#groups.get(group) : undefined;
  }

  /** A group the control runner read: stored, if followed, and told to its followers when it changed. */
  set(group: StateGroupName, value: GroupState): void {
    if (this.#keeps(group)) this.#store(group, value, true);
  }

  /**
   * Follows the state; the first subscription starts it (opening the change stream, which throws what
   * opening it throws), and the function returned ends this one (the last one out stops it).
   */
  subscribe(subscriber: StateSubscriber): () => void {
    if (this.#closed) return () => {};
    const { subscription, added } = this.#followers.add(subscriber);
    for (const group of added) if (!this.#refused.has(group)) this.#unread.add(group);
    if (!this.#running) {
      try {
        this.#start();
      } catch (error) {
        this.#followers.remove(subscription);
        this.#stop();
        throw error;
      }
    } else if (!this.#readsHeld) {
      for (const group of added) this.#request(group);
    }
    this.#pollAudioWhileNeeded();
    // Its groups may all be read already (for other followers): nothing more will come, so it is told now.
    for (const done of this.#followers.completed((group) => !this.#unread.has(group))) {
      queueMicrotask(() => {
        if (this.#followers.has(done)) done.subscriber.onComplete?.(this.current(done.groups));
      });
    }
    return () => {
      const dropped = this.#followers.remove(subscription);
      if (dropped === undefined) return;
      if (this.#followers.size === 0) this.#stop();
      else for (const group of dropped) this.#drop(group);
      this.#pollAudioWhileNeeded();
    };
  }

  /**
   * Keeps `groups` (every group when not given) current without following them, as a control node does
   * for the runner's cache.
   */
  retain(groups?: readonly StateGroupName[]): () => void {
    return this.subscribe(groups === undefined ? {} : { groups });
  }

  /** Stops for good: no timer, read or stream is left, and later subscriptions are ignored. */
  close(): void {
    this.#closed = true;
    this.#followers.clear();
    this.#stop();
    for (const read of this.#reads.values()) read.close();
  }

  #start(): void {
    this.#run++;
    this.#running = true;
    this.#readsHeld = true;
    this.#stopFollowing = followFeeds(this.#feeds, {
      apply: (name, data) => this.#apply(name, data),
      resync: () => this.#resync(),
      condition: (condition) => {
        this.#resyncSchedule.changesCondition(condition);
        // A stream that fails to open does not hold the reads back; the resyncs go on without it.
        this.#readsHeld = condition.state === 'connecting';
        const down = condition.state !== 'streaming' && condition.state !== 'connecting';
        if (down && !this.complete) this.#resync();
      },
      readAudio: () => this.#request('audio'),
    });
    this.#resyncSchedule.restart();
  }

  /** What was cached is no longer followed, so it is dropped: the next start reads again. */
  #stop(): void {
    if (!this.#running) return;
    this.#run++;
    this.#running = false;
    this.#stopFollowing?.();
    this.#stopFollowing = undefined;
    this.#resyncSchedule.stop();
    this.#audioPoll.need(false);
    for (const read of this.#reads.values()) read.cancel();
    this.#groups.clear();
    this.#unread.clear();
  }

  /** Nobody needs the group any more: nothing keeps it current, so nobody gets it. */
  #drop(group: StateGroupName): void {
    this.#reads.get(group)?.cancel();
    this.#groups.delete(group);
    this.#unread.delete(group);
  }

  #keeps(group: StateGroupName): boolean {
    return this.#running && this.#followers.follows(group) && !this.#refused.has(group);
  }

  #pollAudioWhileNeeded(): void {
    this.#audioPoll.need(this.#running && this.#followers.follows('audio'));
  }

  /** Reads every followed announced group again, and the audio while it was never read (then it is polled). */
  #resync(): void {
    // A full read is what the timed resync would do: it comes a whole interval after this one. Every few
    // minutes the change stream, silent, is reopened and everything read (bench/README.md, many-rooms).
    if (this.#running) this.#resyncSchedule.restart();
    for (const group of this.#resyncGroups()) this.#request(group);
  }

  #resyncGroups(): StateGroupName[] {
    return this.#unread.has('audio') ? [...RESYNC_GROUPS, 'audio'] : [...RESYNC_GROUPS];
  }

  /** The timed resync's reads, one group after another on the one request connection; a stop ends them. */
  async #resyncInTurn(): Promise<void> {
    const run = this.#run;
    for (const group of this.#resyncGroups()) {
      if (run !== this.#run) return;
      if (this.#keeps(group)) await this.#readOf(group).request();
    }
  }

  #readOf(group: StateGroupName): CoalescedTask {
    const read = this.#reads.get(group) ?? new CoalescedTask(() => this.#read(group), READ_GAP_MS);
    this.#reads.set(group, read);
    return read;
  }

  #request(group: StateGroupName): void {
    if (this.#keeps(group)) this.#readOf(group).request();
  }

  async #read(group: StateGroupName): Promise<void> {
    if (!this.#keeps(group)) return;
    const run = this.#run;
    const version = this.#groups.version(group);
    let value: GroupState;
    try {
      const { body } = await this.#requester.request('GET', GROUP_RESOURCES[group]);
      // A body of the wrong shape (BAD_RESPONSE) is not kept: the group stays as last read.
      value = groupFromBody(group, body, this.#groups.get(group)?.value);
    } catch (error) {
      // The device's refusal holds for the whole connection, whichever run asked.
      if (refusesResource(error)) this.refuse(group, error);
      else if (run === this.#run) this.#followers.readFailed(group, error);
      return;
    }
    if (run !== this.#run) return;
    if (this.#groups.version(group) !== version) {
      // Stored while this read was on its way (an event, the runner), or dropped: this value may be older
      // than what the state holds. A group never read yet is read again, so that its start ends on a read.
      if (this.#unread.has(group)) this.#readOf(group).request();
      return;
    }
    this.#store(group, value, true);
  }

  /** The device refused the group's resource (to this state or to the runner): it is not asked again. */
  refuse(group: StateGroupName, error: unknown): void {
    this.#refused.set(group, error);
    this.#groups.delete(group);
    this.#settle(group);
  }

  /** Stores a group; `read` when it came from a GET (not from an event, which may carry only a part). */
  #store(group: StateGroupName, value: GroupState, read: boolean): void {
    const previous = this.#groups.set(group, value);
    const changed = changedFields(previous, value);
    if (changed.length > 0) {
      for (const subscriber of this.#followers.needing(group))
        subscriber.onChange?.(group, value, previous, changed);
    }
    if (read) this.#settle(group);
  }

  /** A group was read or refused: the followers it was the last unread group of hear their first reading. */
  #settle(group: StateGroupName): void {
    if (!this.#unread.delete(group) || !this.#running) return;
    const done = this.#followers.completed((needed) => !this.#unread.has(needed));
    for (const { subscriber, groups } of done) subscriber.onComplete?.(this.current(groups));
  }

  /** Applies a change event: the followed groups it carries are stored, the resources it names are read. */
  #apply(name: string, data: unknown): void {
    if (!this.#running) return;
    const outcome = applyChangeEvent(name, data, this.current());
    const { dropped } = outcome;
    if (dropped !== undefined && this.#keeps(dropped.group))
      this.#warnings.say(dropped.key, dropped.message, (said) => this.#followers.warn(dropped.group, said));
    for (const group of STATE_GROUPS) {
      const value = outcome.groups[group];
      if (value !== undefined && this.#keeps(group)) this.#store(group, value, false);
    }
    for (const path of outcome.reads) {
      const group = groupOfResource(path);
      if (group !== undefined) this.#request(group);
    }
  }
}
