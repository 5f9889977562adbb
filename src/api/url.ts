import { DeviceError } from '../errors';
import { validateApiPath } from './api-path';
import { DEVICE_PATHS, HTTP_METHODS, type HttpMethod } from './protocol';
import { baseUrlOf, portNumber, urlHost } from './settings';

export { MAX_API_PATH_LENGTH, validateApiPath } from './api-path';

/** The host part of a URL for this host: IPv6 addresses in brackets. Throws INVALID_CONFIG. */
export function formatHost(host: string): string {
  return urlHost(host);
}

/** Throws INVALID_CONFIG unless the port is an integer 1..65535; undefined means 443. */
export function validatePort(port: number | undefined): number {
  return portNumber(port);
}

/** `https://<host>[:port]`, the port left out when it is 443. Throws INVALID_CONFIG on bad input. */
export function buildBaseUrl(host: string, port?: number): string {
  return baseUrlOf(host, port);
}

/** The path of a request a caller may send, validated; the login is the client's own. Throws INVALID_INPUT. */
export function validateRequest(method: HttpMethod, path: string): string {
  if (!HTTP_METHODS.includes(method)) {
    throw new DeviceError(
      'INVALID_INPUT',
      `Method ${String(method)} is not one of ${HTTP_METHODS.join(', ')}`,
    );
  }
  const apiPath = validateApiPath(path);
  if (apiPath.split('?')[0] === DEVICE_PATHS.login) {
    throw new DeviceError(
      'INVALID_INPUT',
      'The client logs in by itself: do not call the login endpoint directly',
    );
  }
  return apiPath;
}
