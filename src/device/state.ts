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
import { CoalescedTask } from './coalesced-task';
import { audioIntervalMs, type DeviceStateOptions, READ_GAP_MS, RESYNC_INTERVAL_MS } from './state-settings';
import type { StreamSubscriber } from './stream-hub';

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
  onChange?: StateListener;
  /**
   * Every group was read (or refused by the device) once: called once per subscription, at once (in a
   * microtask) when the state is complete already.
   */
  onComplete?(state: StateGroups): void;
  /** A read failed for another reason than the device refusing the resource; the group keeps its value. */
  onReadError?(group: StateGroupName, error: unknown): void;
  /**
   * Whether this follower needs the audio group kept current (default true). Audio is not announced by the
   * device, so it costs a read every audio interval: a follower of other groups (the active zone follows the
   * switching defaults) says false, and audio is polled only while someone needs it.
   */
  audio?: boolean;
}

interface Subscription {
  readonly subscriber: StateSubscriber;
}

function needsAudio(subscription: Subscription): boolean {
  return subscription.subscriber.audio !== false;
}

/**
 * The state of one device, however many nodes follow it (issue 19 item 4): the seven groups, read when the
 * first follower comes, kept current from the shared change stream, audio polled, everything read again
 * after a reconnect of that stream and once a minute. It runs only while someone follows it; stopped, it
 * offers nothing cached, so the control runner reads what it needs. A resource the device refuses (404,
 * 409) is not asked for again by this connection.
 */
export class DeviceState implements ControlStateCache {
  /** How long a polled audio reading counts as current: the control runner's `toggleFreshMs`. */
  readonly audioIntervalMs: number;
  readonly #requester: DeviceRequester;
  readonly #followChanges: (subscriber: StreamSubscriber) => () => void;
  readonly #resyncIntervalMs: number;
  readonly #subscriptions = new Set<Subscription>();
  readonly #groups = new Map<StateGroupName, CachedGroup>();
  /** How often each group was stored: a read that saw another store while on its way may be older. */
  readonly #stores = new Map<StateGroupName, number>();
  /** Groups not read since the start; the state is complete when none is left. */
  readonly #unread = new Set<StateGroupName>();
  readonly #refused = new Set<StateGroupName>();
  readonly #reads: Readonly<Record<StateGroupName, CoalescedTask>>;
  readonly #timers: NodeJS.Timeout[] = [];
  #audioTimer: NodeJS.Timeout | undefined;
  #stopFollowing: (() => void) | undefined;
  /** Counts starts and stops: a read begun in an earlier run lands nowhere. */
  #run = 0;
  #running = false;
  #complete = false;
  #closed = false;

  /** `followChanges` joins the device's change stream and returns the function that leaves it. */
  constructor(
    requester: DeviceRequester,
    followChanges: (subscriber: StreamSubscriber) => () => void,
    options: DeviceStateOptions = {},
  ) {
    this.#requester = requester;
    this.#followChanges = followChanges;
    this.audioIntervalMs = audioIntervalMs(options.audioIntervalSeconds);
    this.#resyncIntervalMs = options.resyncIntervalMs ?? RESYNC_INTERVAL_MS;
    const reads: Partial<Record<StateGroupName, CoalescedTask>> = {};
    for (const group of STATE_GROUPS) reads[group] = new CoalescedTask(() => this.#read(group), READ_GAP_MS);
    this.#reads = reads as Record<StateGroupName, CoalescedTask>;
  }

  /** Whether every group has been read (or refused) since the state started. */
  get complete(): boolean {
    return this.#complete;
  }

  /** The groups as they stand, in the order of STATE_GROUPS; refused ones are absent. */
  current(): StateGroups {
    const state: StateGroups = {};
    for (const group of STATE_GROUPS) {
      const cached = this.#groups.get(group);
      if (cached !== undefined) state[group] = cached.value;
    }
    return state;
  }

  get(group: StateGroupName): CachedGroup | undefined {
    return this.#running ? this.#groups.get(group) : undefined;
  }

  /** A group the control runner read: stored and told to the subscribers when it changed. */
  set(group: StateGroupName, value: GroupState): void {
    if (this.#running && !this.#refused.has(group)) this.#store(group, value, true);
  }

  /**
   * Follows the state; the first subscription starts it (opening the change stream, which throws what
   * opening it throws), and the function returned ends this one (the last one out stops it).
   */
  subscribe(subscriber: StateSubscriber): () => void {
    if (this.#closed) return () => {};
    const subscription: Subscription = { subscriber };
    if (this.#subscriptions.size === 0) this.#start();
    this.#subscriptions.add(subscription);
    this.#pollAudioWhileNeeded();
    if (this.#complete) {
      queueMicrotask(() => {
        if (this.#subscriptions.has(subscription)) subscriber.onComplete?.(this.current());
      });
    }
    return () => {
      if (!this.#subscriptions.delete(subscription)) return;
      if (this.#subscriptions.size === 0) this.#stop();
      else this.#pollAudioWhileNeeded();
    };
  }

  /** Keeps the state running without following it, as a control node does so that its cache stays current. */
  retain(): () => void {
    return this.subscribe({});
  }

  /** Stops for good: no timer, read or stream is left, and later subscriptions are ignored. */
  close(): void {
    this.#closed = true;
    this.#subscriptions.clear();
    this.#stop();
    for (const read of Object.values(this.#reads)) read.close();
  }

  /**
   * The first reading waits for the change stream (the hub tells at once when it is open already), so
   * that no change falls between reading and following.
   */
  #start(): void {
    this.#run++;
    this.#running = true;
    for (const group of STATE_GROUPS) if (!this.#refused.has(group)) this.#unread.add(group);
    try {
      this.#stopFollowing = this.#followChanges(this.#changeSubscriber());
    } catch (error) {
      this.#stop();
      throw error;
    }
    this.#timers.push(setInterval(() => this.#resync(), this.#resyncIntervalMs));
  }

  /** What was cached is no longer followed, so it is dropped: the next start reads everything again. */
  #stop(): void {
    if (!this.#running) return;
    this.#run++;
    this.#running = false;
    this.#complete = false;
    this.#stopFollowing?.();
    this.#stopFollowing = undefined;
    for (const timer of this.#timers.splice(0)) clearInterval(timer);
    clearInterval(this.#audioTimer);
    this.#audioTimer = undefined;
    for (const read of Object.values(this.#reads)) read.cancel();
    this.#groups.clear();
    this.#unread.clear();
  }

  /** Polls the audio while a follower needs it and the interval is not 0 (0: read once, and after writes). */
  #pollAudioWhileNeeded(): void {
    const needed = this.#running && this.audioIntervalMs > 0 && [...this.#subscriptions].some(needsAudio);
    if (needed && this.#audioTimer === undefined) {
      this.#audioTimer = setInterval(() => this.#reads.audio.request(), this.audioIntervalMs);
    } else if (!needed && this.#audioTimer !== undefined) {
      clearInterval(this.#audioTimer);
      this.#audioTimer = undefined;
    }
  }

  /** Reads every announced group again, and the audio while it was never read (after that it is polled). */
  #resync(): void {
    for (const group of RESYNC_GROUPS) this.#request(group);
    if (this.#unread.has('audio')) this.#request('audio');
  }

  #request(group: StateGroupName): void {
    if (this.#running && !this.#refused.has(group)) this.#reads[group].request();
  }

  async #read(group: StateGroupName): Promise<void> {
    if (this.#refused.has(group)) return;
    const run = this.#run;
    const stores = this.#stores.get(group) ?? 0;
    let body: unknown;
    try {
      body = (await this.#requester.request('GET', GROUP_RESOURCES[group])).body;
    } catch (error) {
      // The device's answer holds for the whole connection, whichever run asked.
      if (refusesResource(error)) this.#refuse(group);
      else if (run === this.#run)
        for (const { subscriber } of this.#subscriptions) subscriber.onReadError?.(group, error);
      return;
    }
    if (run !== this.#run) return;
    if ((this.#stores.get(group) ?? 0) !== stores) {
      // Stored while this read was on its way (an event, the runner): that value may be newer than this one.
      // A group never read yet is read again, so that the start ends on a read.
      if (this.#unread.has(group)) this.#reads[group].request();
      return;
    }
    this.#store(group, groupFromBody(group, body, this.#groups.get(group)?.value), true);
  }

  #refuse(group: StateGroupName): void {
    this.#refused.add(group);
    this.#groups.delete(group);
    this.#settle(group);
  }

  /** Stores a group; `read` when it came from a GET (not from an event, which may carry only a part). */
  #store(group: StateGroupName, value: GroupState, read: boolean): void {
    const previous = this.#groups.get(group)?.value ?? null;
    this.#groups.set(group, { value, readAt: Date.now() });
    this.#stores.set(group, (this.#stores.get(group) ?? 0) + 1);
    const changed = changedFields(previous, value);
    if (changed.length > 0) {
      for (const { subscriber } of this.#subscriptions)
        subscriber.onChange?.(group, value, previous, changed);
    }
    if (read) this.#settle(group);
  }

  #settle(group: StateGroupName): void {
    if (!this.#unread.delete(group) || this.#unread.size > 0 || this.#complete || !this.#running) return;
    this.#complete = true;
    const state = this.current();
    for (const { subscriber } of this.#subscriptions) subscriber.onComplete?.(state);
  }

  /** Applies a change event: the groups it carries are stored, the resources it names are read. */
  #apply(name: string, data: unknown): void {
    if (!this.#running) return;
    const outcome = applyChangeEvent(name, data, this.current());
    for (const group of STATE_GROUPS) {
      const value = outcome.groups[group];
      if (value !== undefined && !this.#refused.has(group)) this.#store(group, value, false);
    }
    for (const path of outcome.reads) {
      const group = groupOfResource(path);
      if (group !== undefined) this.#request(group);
    }
  }

  #changeSubscriber(): StreamSubscriber {
    let streaming = false;
    return {
      onEvent: (event) => this.#apply(event.event, event.data),
      // An event too large to pass said something: read what it names, or everything when its name was lost.
      onWarning: (_warning, _kind, { droppedEvent }) => {
        if (droppedEvent === undefined) this.#resync();
        else this.#apply(droppedEvent, undefined);
      },
      onCondition: (condition) => {
        // Changes made while the stream was down were never announced: read everything each time it opens.
        if (condition.state === 'streaming') {
          if (!streaming) this.#resync();
          streaming = true;
          return;
        }
        streaming = false;
        // A stream that fails to open does not hold the first reading back; the resyncs go on without it.
        if (condition.state !== 'connecting' && !this.#complete) this.#resync();
      },
    };
  }
}
