/** How control builds its DeviceErrors, and the HTTP details a reclassified refusal keeps. */
import { DeviceError, type DeviceErrorCode, type DeviceErrorDetails } from '../errors';

export function controlError(
  code: DeviceErrorCode,
  message: string,
  details: DeviceErrorDetails = {},
): DeviceError {
  return new DeviceError(code, message, details);
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
