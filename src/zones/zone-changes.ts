import { CHANGE_EVENTS } from '../api/protocol';
import { parseLayoutResponse, parseZonesResponse } from './parse';
import type { ZoneReadResult } from './types';

/**
 * Change events of the device (the change stream) are named after the resource that changed and carry
 * what a GET of it returns. These helpers tell which of them are about the room's zones and read the
 * zones they carry.
 */
const { layout: LAYOUT_EVENT, zones: ZONES_EVENT } = CHANGE_EVENTS;

/** Whether a change event is about the zones: the layout, the zone list, or one zone under it. */
export function isZonesChange(eventName: string): boolean {
  const path = eventName.split('?', 1)[0] ?? '';
  return (
    path === LAYOUT_EVENT ||
    path.startsWith(`${LAYOUT_EVENT}/`) ||
    path === ZONES_EVENT ||
    path.startsWith(`${ZONES_EVENT}/`)
  );
}

/**
 * The zones a change event carries, or undefined when it carries no complete list (a single zone, a part
 * of the layout, a body that cannot be read): the zones must then be read from the device.
 */
export function zonesFromChange(eventName: string, data: unknown): ZoneReadResult | undefined {
  const path = eventName.split('?', 1)[0] ?? '';
  try {
    if (path === LAYOUT_EVENT) return parseLayoutResponse(data);
    if (path === ZONES_EVENT) return parseZonesResponse(data);
  } catch {
    // Unreadable here is not an error of the stream: the read that follows reports it if it persists.
  }
  return undefined;
}
