import type { NodeAPI } from 'node-red';
import { DeviceError, isDeviceError } from '../../errors';
import { summarisedMessage } from '../texts/error-text';

/** Turns a DeviceError into the message users read, in their language. */
export type ErrorLocaliser = (error: DeviceError) => string;

/** The error's message in the runtime's language (texts/error-text.ts). */
export function errorLocaliser(RED: NodeAPI): ErrorLocaliser {
  return (error) => summarisedMessage((key, params) => RED._(key, params), error);
}

/**
 * The error a node hands to `done(err)` / `node.error(err, msg)`. Node-RED
 * copies own `code`, `stack` and `cause` of the reported object into the
 * Catch node's `msg.error`; DeviceError's `code` is an own property, so
 * flows can switch on `msg.error.code`. The `cause` (a transport error
 * object) is dropped: it is noisy in a message and not part of the contract.
 */
export function toNodeError(error: unknown, localise?: ErrorLocaliser): Error {
  if (isDeviceError(error)) {
    const copy = new DeviceError(error.code, localise ? localise(error) : error.message, {
      ...(error.statusCode !== undefined ? { statusCode: error.statusCode } : {}),
      ...(error.deviceMessage !== undefined ? { deviceMessage: error.deviceMessage } : {}),
      ...(error.retryAfterMs !== undefined ? { retryAfterMs: error.retryAfterMs } : {}),
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
