import { DeviceError, isDeviceError } from '../../errors';

/**
 * The error a node hands to `done(err)` / `node.error(err, msg)`. Node-RED
 * copies own `code`, `stack` and `cause` of the reported object into the
 * Catch node's `msg.error`; DeviceError's `code` is an own property, so
 * flows can switch on `msg.error.code`. The `cause` (a transport error
 * object) is dropped: it is noisy in a message and not part of the contract.
 */
export function toNodeError(error: unknown): Error {
  if (isDeviceError(error)) {
    const copy = new DeviceError(error.code, error.message, {
      ...(error.statusCode !== undefined ? { statusCode: error.statusCode } : {}),
      ...(error.deviceMessage !== undefined ? { deviceMessage: error.deviceMessage } : {}),
    });
    if (error.stack !== undefined) copy.stack = error.stack;
    return copy;
  }
  if (error instanceof Error) return error;
  return new Error(String(error));
}

export function errorCode(error: unknown): string {
  return isDeviceError(error) ? error.code : 'ERROR';
}

export function invalidInput(message: string): DeviceError {
  return new DeviceError('INVALID_INPUT', message);
}
