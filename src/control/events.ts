/**
 * What a change event of /api/v1/events does to the state (device-control.md 3): the groups it sets
 * directly, and the resources to read again. Pure. Every variant the sources disagree on is read: USB as
 * `{status}` or `{connected}`, an event with no body meaning "read me again", zone events that may carry a
 * layout-shaped body or nothing.
 */

import { CHANGE_EVENTS } from '../api/protocol';
import { isEmptyBody, isJsonObject, type JsonObject } from './json';
import { withoutSecrets } from './secrets';
import { GROUP_RESOURCES, type GroupState, type StateGroups, switchingFromLayout } from './state-groups';

export interface EventOutcome {
  /** Groups the event itself gives the new value of (whole groups, ready to replace the old ones). */
  readonly groups: StateGroups;
  /** GET paths to read again, in order. */
  readonly reads: readonly string[];
}

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
  const carried = switchingFromLayout(data);
  if (Object.keys(carried).length === 0) return NOTHING;
  return { groups: { switching: { ...current.switching, ...carried } }, reads: [] };
}

/**
 * The outcome of one change event, given the groups as they stand. An event this package does not follow
 * (active-zone-control, room devices, settings) changes nothing.
 */
export function applyChangeEvent(name: string, data: unknown, current: StateGroups): EventOutcome {
  if (name === CHANGE_EVENTS.calibrate) return calibrateEvent(data, current);
  // The network event has no defined body: it only says "read me again".
  if (name === CHANGE_EVENTS.networkConfiguration) return reread(GROUP_RESOURCES.network);
  // A profile switch comes as a layout event, even an unchanged one: the profiles are read every time.
  if (name === CHANGE_EVENTS.layout) {
    if (isEmptyBody(data)) return reread(GROUP_RESOURCES.switching, GROUP_RESOURCES.profiles);
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
    if (!isJsonObject(data) || isEmptyBody(data)) return reread(GROUP_RESOURCES[wholeGroup]);
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
