export { DeviceError, type DeviceErrorCode, isDeviceError } from '../errors';
export { DeviceClient } from './client';
export { deviceMessageFrom } from './device-message';
export { LOGIN_PACE_DEFAULTS, type LoginPace, setLoginPace } from './login-pacer';
export {
  API_PREFIX,
  CHANGE_EVENTS,
  DATA_EVENT_NAMES,
  type DataEventName,
  DEVICE_PATHS,
  dataErrorEventName,
  dataErrorEventSubject,
  HTTP_METHODS,
  METHODS_WITH_BODY,
  profileActivePath,
  STREAM_PATHS,
  STREAMING_PATHS,
} from './protocol';
export type { StreamBody, StreamBodyListener } from './stream-body';
export {
  type DeviceEvent,
  EventStream,
  type EventStreamEvents,
  type EventStreamOptions,
  type StreamResponse,
  type StreamState,
  type StreamStateDetail,
  type StreamWarningDetail,
} from './streams';
export { normaliseFingerprint, readCertificateFingerprint } from './tls';
export type * from './types';
export { buildBaseUrl, validateApiPath } from './url';
export { packageVersion } from './version';
