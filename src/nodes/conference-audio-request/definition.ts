/**
 * The device request node's properties: methods, defaults and the path check. Imported by the runtime and
 * by the editor (no Node-RED, no DOM), so the dialog refuses exactly the paths a request would.
 */
import { validateApiPath } from '../../api/api-path';
import { DEVICE_PATHS, HTTP_METHODS, type HttpMethod } from '../../api/protocol';
import { type DeviceError, isDeviceError } from '../../errors';
import { palette } from '../palette';

export { METHODS_WITH_BODY } from '../../api/protocol';

export const TYPE = 'conference-audio-request';

/** Its place in the palette (scripts/build.js writes these into the editor's registerType). */
export const PALETTE = palette(TYPE, { inputs: 1, outputs: 1 });

/** The methods a request may use, in the order the dialog lists them. */
export const METHODS = HTTP_METHODS;

export const REQUEST_DEFAULTS = {
  method: 'GET',
  path: DEVICE_PATHS.audio,
} as const satisfies { method: HttpMethod; path: string };

/** A method as typed or sent in msg.method, any case; undefined when it is none of METHODS. */
export function readMethod(value: unknown): HttpMethod | undefined {
  if (typeof value !== 'string') return undefined;
  const upper = value.trim().toUpperCase();
  return (METHODS as readonly string[]).includes(upper) ? (upper as HttpMethod) : undefined;
}

/** Why a configured path would be refused (the runtime's own check), or undefined when it is fine. */
export function pathError(value: unknown): DeviceError | undefined {
  try {
    validateApiPath(String(value ?? '').trim());
    return undefined;
  } catch (error) {
    if (isDeviceError(error)) return error;
    throw error;
  }
}
