export { DeviceError, type DeviceErrorCode, isDeviceError } from '../errors';
export { DeviceClient, type DeviceClientEvents, LOGIN_PATH } from './client';
export { deviceMessageFrom } from './errors';
export { LAYOUT_PATH, readRoomZones, ZONES_PATH, type ZonesEndpointMemory } from './room-zones';
export {
  type DeviceEvent,
  EventStream,
  type EventStreamEvents,
  type EventStreamOptions,
  type StreamResponse,
  type StreamState,
  type StreamStateDetail,
} from './streams';
export { normaliseFingerprint, readCertificateFingerprint } from './tls';
export type {
  Account,
  ConnectionState,
  DeviceClientOptions,
  DeviceRequester,
  DeviceResponse,
  HttpMethod,
  RequestOptions,
  TlsOptions,
} from './types';
export { buildBaseUrl, validateApiPath } from './url';
export { packageVersion } from './version';
