/**
 * Runs one control action against a device: checks it, reads what
 * it needs first, writes, then reads back what the write changed. The device's answer to a write is never
 * read (it may be `{}`, empty or an echo); the state changes only from reads. Every group read goes into
 * the cache, so the state nodes send the change.
 */
import { DEVICE_PATHS, profileActivePath } from '../api/protocol';
import type { DeviceRequester } from '../api/types';
import {
  ACTION_GROUPS,
  type ControlActionName,
  type ControlCommand,
  parseControlAction,
  TOGGLE,
  VOLUME_STEPS,
} from './actions';
import { writeApplied } from './applied';
import { controlError } from './errors';
import {
  type PickedProfile,
  type ProfileChoice,
  pickProfile,
  profileNotFound,
  readProfiles,
} from './profiles';
import { classifyRefusal, refusedAgain, refusesResource } from './refusals';
import type { ControlStateCache } from './state-cache';
import { GROUP_RESOURCES, type GroupState, groupFromBody, type StateGroupName } from './state-groups';
import { mergeSwitchingDefaults, SWITCHING_DEFAULTS_KEY } from './switching-defaults';

export interface ControlRunOptions {
  /**
   * How recent (ms) a cached audio group must be for a toggle to flip it without reading first: the
   * config node's `audioInterval`. 0 (the default) always reads.
   */
  toggleFreshMs?: number;
  /** The clock the cache's `readAt` is on. */
  now?: () => number;
}

export interface ControlResult {
  readonly action: ControlActionName;
  /** The group read back after the write; `{}` for identify and calibrate. */
  readonly payload: GroupState;
  /** The group before the write, as cached or read first; absent for identify and calibrate. */
  readonly previous?: GroupState;
  /**
   * Whether the state read back shows the write: false when the device accepted it but reads back
   * otherwise. Absent where nothing can be compared: a volume step (at either end it changes nothing),
   * identify and calibrate.
   */
  readonly applied?: boolean;
  /** For a profile switch: the profile chosen, and whether the value matched its name or its id. */
  readonly profile?: { readonly id: string; readonly name: string; readonly matchedBy: 'id' | 'name' };
}

/** What a write did: the group before it, and what the read-back should show. */
interface Performed {
  readonly previous: GroupState;
  /** The fields written, as the group read back should hold them. */
  readonly written?: GroupState;
  readonly picked?: PickedProfile;
}

class ActionRun {
  constructor(
    readonly requester: DeviceRequester,
    readonly cache: ControlStateCache,
    readonly command: ControlCommand,
  ) {}

  async read(group: StateGroupName): Promise<GroupState> {
    // A resource the device refused once is not asked for again: the action fails as it did.
    const refusal = this.cache.refusal?.(group);
    if (refusal !== undefined) throw refusedAgain(refusal);
    let response: Awaited<ReturnType<DeviceRequester['request']>>;
    try {
      response = await this.requester.request('GET', GROUP_RESOURCES[group]);
    } catch (error) {
      if (refusesResource(error)) this.cache.refuse?.(group, error);
      throw error;
    }
    const value = groupFromBody(group, response.body, this.cache.get(group)?.value);
    this.cache.set(group, value);
    return value;
  }

  async cachedOrRead(group: StateGroupName): Promise<GroupState> {
    return this.cache.get(group)?.value ?? this.read(group);
  }

  /** Sends a write; a refusal comes back with the code a flow can act on. */
  async write(method: 'PATCH' | 'PUT' | 'POST', path: string, body?: unknown): Promise<void> {
    try {
      await this.requester.request(method, path, body);
    } catch (error) {
      const profiles = this.cache.get('profiles')?.value;
      throw classifyRefusal(error, {
        command: this.command,
        ...(profiles === undefined ? {} : { profiles }),
      });
    }
  }
}

function isFresh(cache: ControlStateCache, group: StateGroupName, options: ControlRunOptions): boolean {
  const cached = cache.get(group);
  const freshFor = options.toggleFreshMs ?? 0;
  return cached !== undefined && freshFor > 0 && (options.now ?? Date.now)() - cached.readAt <= freshFor;
}

/** A pick from a list that may be stale: what it cannot pick alone (absent, or a shared name) is undefined. */
function pickFromCache(cached: GroupState | undefined, choice: ProfileChoice): PickedProfile | undefined {
  try {
    return cached === undefined ? undefined : pickProfile(cached, choice);
  } catch {
    return undefined;
  }
}

/** The profile a choice picks: from the cached list, else from a fresh one (which decides a shared name). */
async function profileFor(
  run: ActionRun,
  choice: ProfileChoice,
): Promise<Performed & { picked: PickedProfile }> {
  const cached = run.cache.get('profiles')?.value;
  const found = pickFromCache(cached, choice);
  if (found !== undefined && cached !== undefined) return { picked: found, previous: cached };
  const listed = await run.read('profiles');
  const picked = pickProfile(listed, choice);
  if (picked === undefined) throw profileNotFound(choice, listed);
  return { picked, previous: listed };
}

/** The write of one command; returns the group before it and what the read-back should show. */
async function perform(run: ActionRun, options: ControlRunOptions): Promise<Performed | undefined> {
  const { command } = run;
  switch (command.action) {
    case 'microphoneMute':
    case 'audienceMute': {
      const toggles = command.value === TOGGLE;
      const previous =
        toggles && !isFresh(run.cache, 'audio', options)
          ? await run.read('audio')
          : await run.cachedOrRead('audio');
      let value = command.value;
      if (value === TOGGLE) {
        const current = previous[command.action];
        if (typeof current !== 'boolean') {
          throw controlError('BAD_RESPONSE', `The device reports no ${command.action} to toggle`);
        }
        value = !current;
      }
      const written = { [command.action]: value };
      await run.write('PATCH', DEVICE_PATHS.audio, written);
      return { previous, written };
    }
    case 'volume': {
      const previous = await run.cachedOrRead('audio');
      await run.write('PUT', DEVICE_PATHS.volumeChange, { operation: VOLUME_STEPS[command.value] });
      return { previous };
    }
    case 'audio': {
      const previous = await run.cachedOrRead('audio');
      await run.write('PATCH', DEVICE_PATHS.audio, command.value);
      return { previous, written: command.value };
    }
    case 'identify':
      await run.write('POST', DEVICE_PATHS.identify);
      return undefined;
    case 'calibrate':
      await run.write('POST', DEVICE_PATHS.calibrate);
      return undefined;
    case 'profile': {
      const performed = await profileFor(run, command.value);
      await run.write('POST', profileActivePath(performed.picked.profile.profileId));
      return performed;
    }
    case 'cameraSwitcher': {
      const previous = await run.cachedOrRead('cameraSwitcher');
      const written = { enabled: command.value };
      await run.write('PATCH', DEVICE_PATHS.cameraSwitcher, written);
      return { previous, written };
    }
    case 'switchingDefaults': {
      const previous = await run.cachedOrRead('switching');
      const complete = mergeSwitchingDefaults(command.value, previous[SWITCHING_DEFAULTS_KEY]);
      const written = { [SWITCHING_DEFAULTS_KEY]: complete };
      await run.write('PATCH', DEVICE_PATHS.layout, written);
      return { previous, written };
    }
    case 'soundLocationAlgorithm': {
      const previous = await run.cachedOrRead('switching');
      const written = { soundLocationAlgorithm: command.value };
      await run.write('PATCH', DEVICE_PATHS.layout, written);
      return { previous, written };
    }
  }
}

/**
 * Runs `action` with `value`. Nothing reaches the device when the input is wrong, or when the cached
 * hardware's firmware is known to lack what is asked. A profile switch reads the profiles and then the
 * layout back, as a profile holds its own zones and camera map.
 */
export async function runControlAction(
  requester: DeviceRequester,
  action: unknown,
  value: unknown,
  cache: ControlStateCache,
  options: ControlRunOptions = {},
): Promise<ControlResult> {
  const firmware = cache.get('hardware')?.value.firmwareVersion;
  const command = parseControlAction(action, value, typeof firmware === 'string' ? firmware : undefined);
  const run = new ActionRun(requester, cache, command);
  const performed = await perform(run, options);
  const group = ACTION_GROUPS[command.action];
  if (group === undefined || performed === undefined) return { action: command.action, payload: {} };
  const payload = await run.read(group);
  if (command.action === 'profile') await run.read('switching');
  const { previous, written, picked } = performed;
  if (picked !== undefined) {
    const { profile, matchedBy } = picked;
    const active = readProfiles(payload).find((listed) => listed.active)?.profileId;
    return {
      action: command.action,
      payload,
      previous,
      applied: active === profile.profileId,
      profile: { id: profile.profileId, name: profile.name, matchedBy },
    };
  }
  const applied = written === undefined ? {} : { applied: writeApplied(written, payload) };
  return { action: command.action, payload, previous, ...applied };
}
