/**
 * The error codes control needs beyond those src/errors.ts lists today. When `ERROR_CODES` there gains
 * them, `ControlErrorCode` becomes `DeviceErrorCode` and the cast in `controlError` goes; callers do not
 * change.
 */
import { DeviceError, type DeviceErrorCode, type DeviceErrorDetails } from '../errors';

export const CONTROL_ERROR_CODES = [
  /** The device's firmware is too old (or, for a field since removed, too new) for a field or an action. */
  'UNSUPPORTED_FIRMWARE',
  /** The device cannot do it now, for a reason it gives (calibrating with a speaker bar unplugged). */
  'DEVICE_BUSY',
] as const;

export type ControlErrorCode = DeviceErrorCode | (typeof CONTROL_ERROR_CODES)[number];

export function controlError(
  code: ControlErrorCode,
  message: string,
  details: DeviceErrorDetails = {},
): DeviceError {
  return new DeviceError(code as DeviceErrorCode, message, details);
}

export function invalidInput(message: string): DeviceError {
  return controlError('INVALID_INPUT', message);
}

/** The HTTP details of a device's answer, to carry onto a reclassified error. */
export function httpDetails(error: DeviceError): DeviceErrorDetails {
  return {
    ...(error.statusCode === undefined ? {} : { statusCode: error.statusCode }),
    ...(error.deviceMessage === undefined ? {} : { deviceMessage: error.deviceMessage }),
    ...(error.retryAfterMs === undefined ? {} : { retryAfterMs: error.retryAfterMs }),
  };
}
