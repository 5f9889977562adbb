/**
 * What the active zone node takes from the device's switching state group (the layout's
 * `cameraSwitcherDefaults`): the device's own camera switching timing, and the camera input it shows when
 * no zone is active. Pure (no Node-RED): the runtime feeds it each switching group the device state sends.
 */
import type { GroupState } from '../../control';
import { SWITCHING_DEFAULTS_KEY, type SwitchingDefaultsKey } from '../../control/switching-defaults';
import { type ActiveZoneTiming, CAMERA_INPUT_FIELD, type CameraInput } from '../../zones';
import { readNonNegative } from '../settings/node-settings';
import { MAX_DELAY_MS } from './definition';

/** The device's wait before it switches to a zone: the node's hold. */
const HOLD_KEY: SwitchingDefaultsKey = 'zonesTriggerWaitTime';
/** The device's wait before it falls back to the default camera: the node's release. */
const RELEASE_KEY: SwitchingDefaultsKey = 'switchToDefaultWaitTime';
const DEFAULT_INPUT_KEY: SwitchingDefaultsKey = 'defaultCameraInputPort';

export interface DeviceSwitching {
  /**
   * The device's timing, each value falling back to the node's own where the device gives none or one
   * that cannot be a delay; undefined when the group carries no defaults at all.
   */
  timing: ActiveZoneTiming | undefined;
  /** Why a value of the device was not taken (the node warns), one line per value. */
  problems: string[];
  /** The camera input for "no zone", or null when the device names none. */
  defaultCameraInput: CameraInput | null;
}

function asCameraInput(value: unknown): CameraInput | null {
  if (typeof value === 'string' && value.trim() !== '') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  return null;
}

/** The switching group read for the node, with `fallback` (the node's timing) where the device gives none. */
export function readDeviceSwitching(switching: GroupState, fallback: ActiveZoneTiming): DeviceSwitching {
  const defaults = switching[SWITCHING_DEFAULTS_KEY];
  if (typeof defaults !== 'object' || defaults === null || Array.isArray(defaults)) {
    return { timing: undefined, problems: [], defaultCameraInput: null };
  }
  const fields = defaults as Record<string, unknown>;
  const problems: string[] = [];
  // Absent or blank: the node's own value stands. Unreadable: it stands too, and the node says why.
  const delay = (key: SwitchingDefaultsKey, own: number) => {
    const read = readNonNegative(fields[key], own, key, MAX_DELAY_MS);
    if (!read.ok) problems.push(read.reason);
    return read.ok ? read.value : own;
  };
  return {
    timing: { holdMs: delay(HOLD_KEY, fallback.holdMs), releaseMs: delay(RELEASE_KEY, fallback.releaseMs) },
    problems,
    defaultCameraInput: asCameraInput(fields[DEFAULT_INPUT_KEY]),
  };
}

/** The camera input of an active zone (as the layout maps it), or null when none is mapped. */
export function zoneCameraInput(zone: Record<string, unknown>): CameraInput | null {
  return asCameraInput(zone[CAMERA_INPUT_FIELD]);
}
