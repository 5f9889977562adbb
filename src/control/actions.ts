/**
 * The control node's actions: which value each takes, checked before anything is sent,
 * and which state group its result is. `parseControlAction` turns an action name and a message value into
 * a typed command, or throws INVALID_INPUT / UNSUPPORTED_FIRMWARE.
 */
import type { DeviceError } from '../errors';
import { AUDIO_FIELDS } from './audio-fields';
import { invalidInput } from './errors';
import { type FirmwareVersion, parseFirmwareVersion } from './firmware';
import { type JsonObject, shown } from './json';
import { type ProfileChoice, parseProfileChoice } from './profiles';
import type { StateGroupName } from './state-groups';
import { validateSwitchingDefaults } from './switching-defaults';
import { firmwareProblem, validateAudioWrite } from './validate';

export const CONTROL_ACTIONS = [
  'microphoneMute',
  'audienceMute',
  'volume',
  'audio',
  'identify',
  'calibrate',
  'profile',
  'cameraSwitcher',
  'switchingDefaults',
  'soundLocationAlgorithm',
] as const;

export type ControlActionName = (typeof CONTROL_ACTIONS)[number];

export const TOGGLE = 'toggle';
export const VOLUME_STEPS = { up: 'increment', down: 'decrement' } as const;
export type VolumeDirection = keyof typeof VOLUME_STEPS;
export const SOUND_LOCATION_ALGORITHMS = ['BP', 'TDOA'] as const;
export type SoundLocationAlgorithm = (typeof SOUND_LOCATION_ALGORITHMS)[number];

export type MuteAction = 'microphoneMute' | 'audienceMute';

export type ControlCommand =
  | { readonly action: MuteAction; readonly value: boolean | typeof TOGGLE }
  | { readonly action: 'volume'; readonly value: VolumeDirection }
  | { readonly action: 'audio'; readonly value: JsonObject }
  | { readonly action: 'identify' | 'calibrate' }
  | { readonly action: 'profile'; readonly value: ProfileChoice }
  | { readonly action: 'cameraSwitcher'; readonly value: boolean }
  | { readonly action: 'switchingDefaults'; readonly value: JsonObject }
  | { readonly action: 'soundLocationAlgorithm'; readonly value: SoundLocationAlgorithm };

/** The group an action's result is sent as; none for identify and calibrate, whose result is `{}`. */
export const ACTION_GROUPS: Readonly<Record<ControlActionName, StateGroupName | undefined>> = {
  microphoneMute: 'audio',
  audienceMute: 'audio',
  volume: 'audio',
  audio: 'audio',
  identify: undefined,
  calibrate: undefined,
  profile: 'profiles',
  cameraSwitcher: 'cameraSwitcher',
  switchingDefaults: 'switching',
  soundLocationAlgorithm: 'switching',
};

/**
 * The groups a run of `action` may find in the cache: its own group (the value before a write, the value
 * to toggle), the hardware (whose firmware refuses what it lacks before anything is sent), and for a
 * profile switch the layout it reads back. A control node keeps these current, and no more: each group a
 * device's state follows costs it a read at start and at every resync.
 */
export function groupsActionUses(action: ControlActionName): StateGroupName[] {
  const groups: StateGroupName[] = ['hardware'];
  const own = ACTION_GROUPS[action];
  if (own !== undefined) groups.push(own);
  if (action === 'profile') groups.push('switching');
  return groups;
}

/** Firmware floors of actions that are not audio fields (docs/device-api.md). */
const ACTION_FLOORS: Partial<Record<ControlActionName, FirmwareVersion>> = {
  identify: parseFirmwareVersion('1.8'),
  soundLocationAlgorithm: parseFirmwareVersion('2.0'),
};

/** What each action takes, in words for the editor's help and for error messages. */
export const ACTION_VALUES: Readonly<Record<ControlActionName, string>> = {
  microphoneMute: 'true, false or "toggle"',
  audienceMute: 'true, false or "toggle"',
  volume: '"up" or "down"',
  audio: 'an object of /api/v1/audio fields, such as {"speakerTrebleLevel": 60}',
  identify: 'nothing',
  calibrate: 'nothing',
  profile: 'a room profile\'s name or id (a name first), or {"id": …} or {"name": …}',
  cameraSwitcher: 'true or false',
  switchingDefaults:
    'an object with any of defaultCameraInputPort, zonesTriggerWaitTime, switchToDefaultWaitTime',
  soundLocationAlgorithm: '"BP" or "TDOA"',
};

export function isControlAction(name: unknown): name is ControlActionName {
  return typeof name === 'string' && (CONTROL_ACTIONS as readonly string[]).includes(name);
}

/** Booleans, and the words a text-only channel (MQTT, a dashboard) sends for them. */
function asBoolean(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (typeof value !== 'string') return undefined;
  const word = value.trim().toLowerCase();
  if (word === 'true' || word === 'on') return true;
  if (word === 'false' || word === 'off') return false;
  return undefined;
}

function wrongValue(action: ControlActionName, value: unknown): DeviceError {
  return invalidInput(`The ${action} action takes ${ACTION_VALUES[action]}; got ${shown(value)}`);
}

function word(value: unknown): string | undefined {
  return typeof value === 'string' ? value.trim() : undefined;
}

function checkFirmware(
  subject: string,
  firmwareVersion: string | undefined,
  floor: FirmwareVersion | undefined,
): void {
  if (floor === undefined) return;
  const problem = firmwareProblem(subject, firmwareVersion, floor);
  if (problem !== undefined) throw problem;
}

/**
 * The command an action and its value ask for, checked. `firmwareVersion` is the device's, from its
 * hardware answer, when known: what that firmware lacks is refused here instead of by the device. A wrong
 * value is reported before a firmware that is too old.
 */
export function parseControlAction(
  action: unknown,
  value: unknown,
  firmwareVersion?: string,
): ControlCommand {
  if (!isControlAction(action)) {
    throw invalidInput(`Unknown action ${shown(action)}: use one of ${CONTROL_ACTIONS.join(', ')}`);
  }
  const command = commandFor(action, value, firmwareVersion);
  checkFirmware(action, firmwareVersion, ACTION_FLOORS[action]);
  return command;
}

function commandFor(
  action: ControlActionName,
  value: unknown,
  firmwareVersion: string | undefined,
): ControlCommand {
  switch (action) {
    case 'microphoneMute':
    case 'audienceMute': {
      const chosen = word(value)?.toLowerCase() === TOGGLE ? TOGGLE : asBoolean(value);
      if (chosen === undefined) throw wrongValue(action, value);
      const field = AUDIO_FIELDS[action];
      checkFirmware(action, firmwareVersion, field.floor);
      return { action, value: chosen };
    }
    case 'volume': {
      const direction = word(value)?.toLowerCase();
      if (direction !== 'up' && direction !== 'down') throw wrongValue(action, value);
      return { action, value: direction };
    }
    case 'audio':
      return { action, value: validateAudioWrite(value, firmwareVersion) };
    case 'identify':
    case 'calibrate':
      return { action };
    case 'profile': {
      const choice = parseProfileChoice(value);
      if (choice === undefined) throw wrongValue(action, value);
      return { action, value: choice };
    }
    case 'cameraSwitcher': {
      const enabled = asBoolean(value);
      if (enabled === undefined) throw wrongValue(action, value);
      return { action, value: enabled };
    }
    case 'switchingDefaults':
      return { action, value: validateSwitchingDefaults(value) };
    case 'soundLocationAlgorithm': {
      const algorithm = SOUND_LOCATION_ALGORITHMS.find((name) => name === word(value)?.toUpperCase());
      if (algorithm === undefined) throw wrongValue(action, value);
      return { action, value: algorithm };
    }
  }
}
