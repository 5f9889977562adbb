/**
 * Runs one control action against a device (device-control.md 2, issue 19 item 1): checks it, reads what
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
import { controlError } from './errors';
import { findProfile, profileNotFound } from './profiles';
import { classifyRefusal } from './refusals';
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
}

class ActionRun {
  constructor(
    readonly requester: DeviceRequester,
    readonly cache: ControlStateCache,
    readonly command: ControlCommand,
  ) {}

  async read(group: StateGroupName): Promise<GroupState> {
    const response = await this.requester.request('GET', GROUP_RESOURCES[group]);
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

/** The id of the profile an id or a name picks: from the cached list, else from a fresh one. */
async function profileId(run: ActionRun, idOrName: string): Promise<{ id: string; previous: GroupState }> {
  const cached = run.cache.get('profiles')?.value;
  const found = cached === undefined ? undefined : findProfile(cached, idOrName);
  if (found !== undefined && cached !== undefined) return { id: found.profileId, previous: cached };
  const listed = await run.read('profiles');
  const profile = findProfile(listed, idOrName);
  if (profile === undefined) throw profileNotFound(idOrName, listed);
  return { id: profile.profileId, previous: listed };
}

/** The write of one command and the group it changes; returns the group before the write. */
async function perform(run: ActionRun, options: ControlRunOptions): Promise<GroupState | undefined> {
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
      await run.write('PATCH', DEVICE_PATHS.audio, { [command.action]: value });
      return previous;
    }
    case 'volume': {
      const previous = await run.cachedOrRead('audio');
      await run.write('PUT', DEVICE_PATHS.volumeChange, { operation: VOLUME_STEPS[command.value] });
      return previous;
    }
    case 'audio': {
      const previous = await run.cachedOrRead('audio');
      await run.write('PATCH', DEVICE_PATHS.audio, command.value);
      return previous;
    }
    case 'identify':
      await run.write('POST', DEVICE_PATHS.identify);
      return undefined;
    case 'calibrate':
      await run.write('POST', DEVICE_PATHS.calibrate);
      return undefined;
    case 'profile': {
      const { id, previous } = await profileId(run, command.value);
      await run.write('POST', profileActivePath(id));
      return previous;
    }
    case 'cameraSwitcher': {
      const previous = await run.cachedOrRead('cameraSwitcher');
      await run.write('PATCH', DEVICE_PATHS.cameraSwitcher, { enabled: command.value });
      return previous;
    }
    case 'switchingDefaults': {
      const previous = await run.cachedOrRead('switching');
      const complete = mergeSwitchingDefaults(command.value, previous[SWITCHING_DEFAULTS_KEY]);
      await run.write('PATCH', DEVICE_PATHS.layout, { [SWITCHING_DEFAULTS_KEY]: complete });
      return previous;
    }
    case 'soundLocationAlgorithm': {
      const previous = await run.cachedOrRead('switching');
      await run.write('PATCH', DEVICE_PATHS.layout, { soundLocationAlgorithm: command.value });
      return previous;
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
  const previous = await perform(run, options);
  const group = ACTION_GROUPS[command.action];
  if (group === undefined || previous === undefined) return { action: command.action, payload: {} };
  const payload = await run.read(group);
  if (command.action === 'profile') await run.read('switching');
  return { action: command.action, payload, previous };
}
