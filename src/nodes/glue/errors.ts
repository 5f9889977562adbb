import type { NodeAPI } from 'node-red';
import { DeviceError, isDeviceError } from '../../errors';

/** The device config node's catalogue holds the summary of every error code, for all four node types. */
const DEVICE_CATALOGUE =
  '@conference-audio/node-red-local-api/conference-audio-device:conference-audio-device.';

/** Turns a DeviceError into the message users read, in their language. */
export type ErrorLocaliser = (error: DeviceError) => string;

/**
 * The catalogue's summary of the error's code in the user's language, then the client's own detail
 * (technical, English), as Node-RED's core nodes do with system errors. The en-US template is the detail
 * alone, so English messages read as the client wrote them.
 */
export function errorLocaliser(RED: NodeAPI): ErrorLocaliser {
  return (error) => {
    const summary = RED._(`${DEVICE_CATALOGUE}codes.${error.code}`);
    // A catalogue that is not loaded answers with the key itself: keep the detail alone then.
    if (summary.endsWith(`codes.${error.code}`)) return error.message;
    return RED._(`${DEVICE_CATALOGUE}errors.device`, { summary, detail: error.message });
  };
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
