/**
 * The device paths and change-event names the control model speaks of.
 *
 * Kept in this one file until `src/api/protocol.ts` (every device path, owned by the client) lands: then
 * these names are re-exported from there and this file goes away. Nothing else in src/control spells a path.
 */
import { LAYOUT_PATH } from '../api/index';

export { LAYOUT_PATH };
export const AUDIO_PATH = '/api/v1/audio';
export const VOLUME_CHANGE_PATH = '/api/v1/audio/volume/change';
export const CALIBRATE_PATH = '/api/v1/audio/calibrate';
export const IDENTIFY_PATH = '/api/v1/audio/identify';
export const HARDWARE_PATH = '/api/v1/audio/hardware';
export const STATUS_PATH = '/api/v1/status';
export const PROFILES_PATH = '/api/v1/room/profiles';
export const CAMERA_SWITCHER_PATH = '/api/v1/integrations/camera-switcher';
export const NETWORK_PATH = '/api/v1/network/configuration';

/** POST here makes a room profile the active one; the whole id is URL-encoded. */
export function profileActivatePath(profileId: string): string {
  return `${PROFILES_PATH}/${encodeURIComponent(profileId)}/active`;
}

/** Change events named after no path. The others carry the path of the resource they report. */
export const LED_EVENT = 'ledStateUpdated';
export const USB_EVENT = 'usbConnection';
export const COMPONENTS_EVENT = 'deviceComponentsConnection';
/** Events some firmware sends in place of a layout event; their body, when any, is layout-shaped. */
export const ZONES_EVENT = '/api/v1/room/zones';
export const ZONE_INPUT_MAPS_EVENT = '/api/v1/room/zone-input-maps';
