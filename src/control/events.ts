/**
 * What a change event of /api/v1/events does to the state (docs/device-api.md): the groups it sets
 * directly, and the resources to read again. Pure. Every variant the sources disagree on is read: USB as
 * `{status}` or `{connected}`, an event with no body meaning "read me again", zone events that may carry a
 * layout-shaped body or nothing.
 */

import { CHANGE_EVENTS } from '../api/protocol';
import { groupShapeProblem, groupSizeProblem } from './group-shapes';
import { isEmptyBody, isJsonObject, type JsonObject } from './json';
import { withoutSecrets } from './secrets';
import {
  GROUP_RESOURCES,
  type GroupState,
  STATE_GROUPS,
  type StateGroupName,
  type StateGroups,
  switchingFromLayout,
} from './state-groups';

/** Something an event carried that was not kept: said once per `key`, however often it comes. */
export interface DroppedPart {
  readonly group: StateGroupName;
  readonly key: string;
  readonly message: string;
}

export interface EventOutcome {
  /** Groups the event itself gives the new value of (whole groups, ready to replace the old ones). */
  readonly groups: StateGroups;
  /** GET paths to read again, in order. */
  readonly reads: readonly string[];
  readonly dropped?: DroppedPart;
}

/** The LEDs the device documents; a device may report others in its status, which are followed too. */
export const LED_TYPES: readonly string[] = ['console', 'networkA', 'networkB'];
/** How much of a name a device made up is quoted in a log line. */
const MAX_QUOTED_NAME = 80;

const NOTHING: EventOutcome = { groups: {}, reads: [] };

function reread(...paths: string[]): EventOutcome {
  return { groups: {}, reads: paths };
}

/** The status group with some of its top-level fields replaced. */
function statusWith(current: StateGroups, fields: GroupState): EventOutcome {
  return { groups: { status: { calibrating: false, ...current.status, ...fields } }, reads: [] };
}

function calibrateEvent(data: unknown, current: StateGroups): EventOutcome {
  const status = isJsonObject(data) ? data.status : undefined;
  if (status === 'started') return statusWith(current, { calibrating: true });
  if (status === 'completed') return statusWith(current, { calibrating: false });
  return NOTHING;
}

function ledEvent(data: JsonObject, current: StateGroups): EventOutcome {
  const { ledType, ...led } = data;
  if (typeof ledType !== 'string' || ledType === '') return reread(GROUP_RESOURCES.status);
  const leds = isJsonObject(current.status?.leds) ? current.status.leds : {};
  // Each new name would be a new key kept and sent for ever: only the LEDs the device has are followed.
  if (!LED_TYPES.includes(ledType) && !Object.hasOwn(leds, ledType)) {
    const name = ledType.slice(0, MAX_QUOTED_NAME);
    return {
      ...NOTHING,
      dropped: {
        group: 'status',
        key: `ledType ${name}`,
        message: `The device announced an LED "${name}" that its status does not report: the event is ignored`,
      },
    };
  }
  return statusWith(current, { leds: { ...leds, [ledType]: led } });
}

/** `{status}` per the schema, `{connected: bool}` per a tutorial; `status` first. */
function usbEvent(data: JsonObject, current: StateGroups): EventOutcome {
  if (typeof data.status === 'string') return statusWith(current, { usb: { status: data.status } });
  if (typeof data.connected === 'boolean') {
    return statusWith(current, { usb: { status: data.connected ? 'connected' : 'disconnected' } });
  }
  return reread(GROUP_RESOURCES.status);
}

/** The event says `overallStatus` where GET /status says `deviceComponents.status`. */
function componentsEvent(data: JsonObject, current: StateGroups): EventOutcome {
  const status = data.overallStatus ?? data.status;
  if (typeof status !== 'string') return reread(GROUP_RESOURCES.status);
  return statusWith(current, { deviceComponents: { status } });
}

/** A zones or zone-input-maps event: a layout-shaped body updates what it carries; nothing else is known. */
function zoneEvent(data: JsonObject, current: StateGroups): EventOutcome {
  if (groupShapeProblem('switching', data) !== undefined) return reread(GROUP_RESOURCES.switching);
  const carried = switchingFromLayout(data);
  if (Object.keys(carried).length === 0) return NOTHING;
  return { groups: { switching: { ...current.switching, ...carried } }, reads: [] };
}

/**
 * The outcome of one change event, given the groups as they stand. An event this package does not follow
 * (active-zone-control, room devices, settings) changes nothing; one that would make a group too large
 * to keep is dropped.
 */
export function applyChangeEvent(name: string, data: unknown, current: StateGroups): EventOutcome {
  const outcome = outcomeOf(name, data, current);
  for (const group of STATE_GROUPS) {
    const value = outcome.groups[group];
    const problem = value === undefined ? undefined : groupSizeProblem(value);
    if (problem === undefined) continue;
    return {
      ...NOTHING,
      dropped: {
        group,
        key: `size ${group}`,
        message: `A ${name.slice(0, MAX_QUOTED_NAME)} event would make the ${group} group too large (${problem}): the event is ignored`,
      },
    };
  }
  return outcome;
}

function outcomeOf(name: string, data: unknown, current: StateGroups): EventOutcome {
  if (name === CHANGE_EVENTS.calibrate) return calibrateEvent(data, current);
  // The network event has no defined body: it only says "read me again".
  if (name === CHANGE_EVENTS.networkConfiguration) return reread(GROUP_RESOURCES.network);
  // A profile switch comes as a layout event, even an unchanged one: the profiles are read every time.
  if (name === CHANGE_EVENTS.layout) {
    if (isEmptyBody(data) || groupShapeProblem('switching', data) !== undefined)
      return reread(GROUP_RESOURCES.switching, GROUP_RESOURCES.profiles);
    return { groups: { switching: switchingFromLayout(data) }, reads: [GROUP_RESOURCES.profiles] };
  }
  // These two carry the whole resource, as its GET does.
  const wholeGroup =
    name === CHANGE_EVENTS.hardware
      ? 'hardware'
      : name === CHANGE_EVENTS.cameraSwitcher
        ? 'cameraSwitcher'
        : undefined;
  if (wholeGroup !== undefined) {
    if (isEmptyBody(data) || groupShapeProblem(wholeGroup, data) !== undefined)
      return reread(GROUP_RESOURCES[wholeGroup]);
    return { groups: { [wholeGroup]: withoutSecrets(data) }, reads: [] };
  }
  const isStatusEvent =
    name === CHANGE_EVENTS.ledState ||
    name === CHANGE_EVENTS.usbConnection ||
    name === CHANGE_EVENTS.componentsConnection;
  const isZoneEvent = name === CHANGE_EVENTS.zones || name === CHANGE_EVENTS.zoneInputMaps;
  if (!isStatusEvent && !isZoneEvent) return NOTHING;
  if (!isJsonObject(data) || isEmptyBody(data))
    return reread(isStatusEvent ? GROUP_RESOURCES.status : GROUP_RESOURCES.switching);
  if (name === CHANGE_EVENTS.ledState) return ledEvent(data, current);
  if (name === CHANGE_EVENTS.usbConnection) return usbEvent(data, current);
  if (name === CHANGE_EVENTS.componentsConnection) return componentsEvent(data, current);
  return zoneEvent(data, current);
}
