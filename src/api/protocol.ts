/**
 * The device's protocol facts in one place: its paths, its streams and their event names, and the HTTP
 * methods. Nothing outside this module spells a device path (the simulator, which is the device, aside).
 * Sources: the device's local API, behaviour and control specifications (control sections 1 and 3).
 * Imports nothing, so any layer may import it without making a circle.
 */

export const API_PREFIX = '/api/v1';

/** Every device endpoint the package reads, writes or names. */
export const DEVICE_PATHS = {
  login: `${API_PREFIX}/auth/login`,
  capabilities: `${API_PREFIX}/auth/capabilities`,
  audio: `${API_PREFIX}/audio`,
  volumeChange: `${API_PREFIX}/audio/volume/change`,
  calibrate: `${API_PREFIX}/audio/calibrate`,
  identify: `${API_PREFIX}/audio/identify`,
  hardware: `${API_PREFIX}/audio/hardware`,
  status: `${API_PREFIX}/status`,
  zones: `${API_PREFIX}/room/zones`,
  layout: `${API_PREFIX}/room/layout`,
  profiles: `${API_PREFIX}/room/profiles`,
  cameraSwitcher: `${API_PREFIX}/integrations/camera-switcher`,
  networkConfiguration: `${API_PREFIX}/network/configuration`,
  events: `${API_PREFIX}/events`,
  data: `${API_PREFIX}/data`,
  heartbeat: `${API_PREFIX}/heartbeat`,
} as const;

/** The first segment after the prefix that holds the login: its answers carry the token. */
export const AUTH_SEGMENT = 'auth';

/** `POST` here makes a room profile the active one; the id is the device's and may hold any character. */
export function profileActivePath(profileId: string): string {
  return `${DEVICE_PATHS.profiles}/${encodeURIComponent(profileId)}/active`;
}

/** The events the data stream is asked for; the device names its error events after them. */
export const DATA_EVENT_NAMES = ['soundLocation', 'deviceMetrics'] as const;
export type DataEventName = (typeof DATA_EVENT_NAMES)[number];

/** The event a data stream sends instead of `name` when it cannot (unknown name, microphone muted...). */
export function dataErrorEventName(name: string): string {
  return `error (${name})`;
}

/** The name inside `error (<name>)`, or undefined for any other event. */
export function dataErrorEventSubject(eventName: string): string | undefined {
  // Asked of every event on a live stream: most are not errors, and a prefix test is cheaper.
  if (!eventName.startsWith('error (')) return undefined;
  return /^error \((.*)\)$/.exec(eventName)?.[1];
}

/** The two streams the package keeps open: the talker's position and metrics, and the device's changes. */
export const STREAM_PATHS = {
  data: `${DEVICE_PATHS.data}?events=${DATA_EVENT_NAMES.join(',')}`,
  changes: DEVICE_PATHS.events,
} as const;

/**
 * The names of the change stream's events (docs/device-api.md, Change stream event names): a resource's
 * path when that resource changed, or a word for the three notices that have no resource.
 */
export const CHANGE_EVENTS = {
  calibrate: DEVICE_PATHS.calibrate,
  hardware: DEVICE_PATHS.hardware,
  cameraSwitcher: DEVICE_PATHS.cameraSwitcher,
  layout: DEVICE_PATHS.layout,
  zones: DEVICE_PATHS.zones,
  zoneInputMaps: `${API_PREFIX}/room/zone-input-maps`,
  networkConfiguration: DEVICE_PATHS.networkConfiguration,
  ledState: 'ledStateUpdated',
  usbConnection: 'usbConnection',
  componentsConnection: 'deviceComponentsConnection',
  activeZoneControl: `${API_PREFIX}/audio/active-zone-control`,
  roomDevices: `${API_PREFIX}/room/devices`,
  settings: `${API_PREFIX}/settings`,
} as const;

/** The device's Server-Sent Events endpoints: their answers never end, so a one-shot request refuses them. */
export const STREAMING_PATHS: readonly string[] = [
  DEVICE_PATHS.data,
  DEVICE_PATHS.events,
  DEVICE_PATHS.heartbeat,
];

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

/** The methods a request may use, in the order an editor lists them. */
export const HTTP_METHODS: readonly HttpMethod[] = ['GET', 'POST', 'PATCH', 'PUT', 'DELETE'];

/** The methods whose request carries a body. */
export const METHODS_WITH_BODY: ReadonlySet<HttpMethod> = new Set<HttpMethod>(['POST', 'PATCH', 'PUT']);

/**
 * Streams the device feeds at a steady pace whatever happens: the data stream sends deviceMetrics every
 * 5 s even while sound location is off (docs/device-api.md, Stream idle and heartbeat), so a silence of
 * events there is death, however many keepalive bytes arrive.
 */
export const STEADY_EVENT_STREAMS: readonly string[] = [DEVICE_PATHS.data];
