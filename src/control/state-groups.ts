/**
 * The device state's groups, each in the shape of the GET that reports it, with the spec's
 * spellings, and the resource each is read from. Pure: a GET body in, a group out.
 */

import { DEVICE_PATHS } from '../api/protocol';
import { controlError } from './errors';
import { STATE_GROUPS, type StateGroupName } from './group-names';
import { groupShapeProblem, groupSizeProblem } from './group-shapes';
import { isJsonObject, type JsonObject } from './json';
import { withoutSecrets } from './secrets';
import { SWITCHING_DEFAULTS_KEY } from './switching-defaults';

export { STATE_GROUPS, type StateGroupName };

/** A group's value: a JSON object, secrets removed. */
export type GroupState = JsonObject;

export type StateGroups = Partial<Record<StateGroupName, GroupState>>;

export function isStateGroupName(name: string): name is StateGroupName {
  return (STATE_GROUPS as readonly string[]).includes(name);
}

/** The one GET that reports each group. `status`'s `calibrating` comes from calibrate events only. */
export const GROUP_RESOURCES: Readonly<Record<StateGroupName, string>> = {
  audio: DEVICE_PATHS.audio,
  hardware: DEVICE_PATHS.hardware,
  status: DEVICE_PATHS.status,
  switching: DEVICE_PATHS.layout,
  cameraSwitcher: DEVICE_PATHS.cameraSwitcher,
  profiles: DEVICE_PATHS.profiles,
  network: DEVICE_PATHS.networkConfiguration,
};

/**
 * The groups a full resync reads, in the order the reference driver reads them. Audio is not among them:
 * it is polled, as no event announces its changes.
 */
export const RESYNC_GROUPS: readonly StateGroupName[] = [
  'hardware',
  'status',
  'switching',
  'cameraSwitcher',
  'network',
  'profiles',
];

/** The group a GET path reports, if any. */
export function groupOfResource(path: string): StateGroupName | undefined {
  return STATE_GROUPS.find((group) => GROUP_RESOURCES[group] === path);
}

/** The map of zones to camera inputs; older documents spell it in the plural. */
export const ZONE_INPUT_MAP_KEY = 'cameraSwitcherZoneInputMap';
const ZONE_INPUT_MAP_PLURAL = 'cameraSwitcherZoneInputMaps';
export const SOUND_LOCATION_ALGORITHM_KEY = 'soundLocationAlgorithm';

/**
 * The switching group out of a layout-shaped body: the zone-to-camera map (under its schema spelling),
 * the switching defaults and the sound location algorithm, each only when the body has it (the
 * algorithm exists from firmware 2.0).
 */
export function switchingFromLayout(layout: unknown): GroupState {
  if (!isJsonObject(layout)) return {};
  const map = layout[ZONE_INPUT_MAP_KEY] ?? layout[ZONE_INPUT_MAP_PLURAL];
  const group: GroupState = {};
  if (map !== undefined) group[ZONE_INPUT_MAP_KEY] = map;
  for (const key of [SWITCHING_DEFAULTS_KEY, SOUND_LOCATION_ALGORITHM_KEY]) {
    if (layout[key] !== undefined) group[key] = layout[key];
  }
  return withoutSecrets(group);
}

/** The status group: the GET body as it is, plus `calibrating`, which only calibrate events change. */
export function statusFromBody(body: unknown, previous: GroupState | undefined): GroupState {
  return {
    ...withoutSecrets(isJsonObject(body) ? body : {}),
    calibrating: previous?.calibrating === true,
  };
}

/**
 * The group a GET of its resource answered with. `previous` is the group as it stood, for what the body
 * does not carry (`calibrating`). Throws BAD_RESPONSE for a body of the wrong shape or size: nothing of
 * it is kept, so the group stays as last read.
 */
export function groupFromBody(group: StateGroupName, body: unknown, previous?: GroupState): GroupState {
  const problem = groupShapeProblem(group, body) ?? groupSizeProblem(body);
  if (problem !== undefined) {
    throw controlError(
      'BAD_RESPONSE',
      `The device's answer to GET ${GROUP_RESOURCES[group]} is not a valid ${group} reading: ${problem}`,
    );
  }
  if (group === 'switching') return switchingFromLayout(body);
  if (group === 'status') return statusFromBody(body, previous);
  return withoutSecrets(isJsonObject(body) ? body : {});
}
