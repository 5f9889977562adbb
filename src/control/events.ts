/**
 * What a change event of /api/v1/events does to the state (device-control.md 3): the groups it sets
 * directly, and the resources to read again. Pure. Every variant the sources disagree on is read: USB as
 * `{status}` or `{connected}`, an event with no body meaning "read me again", zone events that may carry a
 * layout-shaped body or nothing.
 */
import { isEmptyBody, isJsonObject, type JsonObject } from './json';
import {
  CALIBRATE_PATH,
  CAMERA_SWITCHER_PATH,
  COMPONENTS_EVENT,
  HARDWARE_PATH,
  LAYOUT_PATH,
  LED_EVENT,
  NETWORK_PATH,
  PROFILES_PATH,
  STATUS_PATH,
  USB_EVENT,
  ZONE_INPUT_MAPS_EVENT,
  ZONES_EVENT,
} from './paths';
import { withoutSecrets } from './secrets';
import { type GroupState, type StateGroups, switchingFromLayout } from './state-groups';

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
  if (typeof ledType !== 'string' || ledType === '') return reread(STATUS_PATH);
  const leds = isJsonObject(current.status?.leds) ? current.status.leds : {};
  return statusWith(current, { leds: { ...leds, [ledType]: led } });
}

/** `{status}` per the schema, `{connected: bool}` per a tutorial; `status` first. */
function usbEvent(data: JsonObject, current: StateGroups): EventOutcome {
  if (typeof data.status === 'string') return statusWith(current, { usb: { status: data.status } });
  if (typeof data.connected === 'boolean') {
    return statusWith(current, { usb: { status: data.connected ? 'connected' : 'disconnected' } });
  }
  return reread(STATUS_PATH);
}

/** The event says `overallStatus` where GET /status says `deviceComponents.status`. */
function componentsEvent(data: JsonObject, current: StateGroups): EventOutcome {
  const status = data.overallStatus ?? data.status;
  if (typeof status !== 'string') return reread(STATUS_PATH);
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
  if (name === CALIBRATE_PATH) return calibrateEvent(data, current);
  // The network event has no defined body: it only says "read me again".
  if (name === NETWORK_PATH) return reread(NETWORK_PATH);
  // A profile switch comes as a layout event, even an unchanged one: the profiles are read every time.
  if (name === LAYOUT_PATH) {
    if (isEmptyBody(data)) return reread(LAYOUT_PATH, PROFILES_PATH);
    return { groups: { switching: switchingFromLayout(data) }, reads: [PROFILES_PATH] };
  }
  // These two carry the whole resource, as its GET does.
  const wholeGroup =
    name === HARDWARE_PATH ? 'hardware' : name === CAMERA_SWITCHER_PATH ? 'cameraSwitcher' : undefined;
  if (wholeGroup !== undefined) {
    if (!isJsonObject(data) || isEmptyBody(data)) return reread(name);
    return { groups: { [wholeGroup]: withoutSecrets(data) }, reads: [] };
  }
  const isStatusEvent = name === LED_EVENT || name === USB_EVENT || name === COMPONENTS_EVENT;
  const isZoneEvent = name === ZONES_EVENT || name === ZONE_INPUT_MAPS_EVENT;
  if (!isStatusEvent && !isZoneEvent) return NOTHING;
  if (!isJsonObject(data) || isEmptyBody(data)) return reread(isStatusEvent ? STATUS_PATH : LAYOUT_PATH);
  if (name === LED_EVENT) return ledEvent(data, current);
  if (name === USB_EVENT) return usbEvent(data, current);
  if (name === COMPONENTS_EVENT) return componentsEvent(data, current);
  return zoneEvent(data, current);
}
