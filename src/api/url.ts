import { DeviceError } from '../errors';
import { API_PREFIX, DEVICE_PATHS, HTTP_METHODS, type HttpMethod, LOGIN_PATH } from './protocol';
import { baseUrlOf, portNumber, urlHost } from './settings';

/** Far above any endpoint of the API, far below the header limits of web servers (a longer one never leaves). */
export const MAX_API_PATH_LENGTH = 2048;

function describe(value: unknown): string {
  // Control characters escaped: a path from a message must not start a new line in the log.
  return typeof value === 'string' ? `'${JSON.stringify(value).slice(1, -1)}'` : String(value);
}

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

/**
 * Accepts `/api/v1` and paths below it (a query string is allowed) and returns the path unchanged.
 * Throws INVALID_INPUT for anything that could leave the API or smuggle a second request.
 */
export function validateApiPath(path: string): string {
  if (typeof path !== 'string' || path.length === 0) {
    throw new DeviceError(
      'INVALID_INPUT',
      `Request path is empty: give a path such as ${DEVICE_PATHS.audio}`,
    );
  }
  if (path.length > MAX_API_PATH_LENGTH) {
    throw new DeviceError(
      'INVALID_INPUT',
      `Request path is ${path.length} characters long; at most ${MAX_API_PATH_LENGTH} are sent`,
    );
  }
  if (/[^\x21-\x7e]/.test(path) && !/[\s\p{Cc}]/u.test(path)) {
    // HTTP sends a path as bytes: anything past printable ASCII must be percent-encoded by the caller.
    throw new DeviceError(
      'INVALID_INPUT',
      `Request path ${describe(path)} has characters outside printable ASCII: percent-encode them (encodeURIComponent)`,
    );
  }
  if (/[\s\\#]/.test(path) || /\p{Cc}/u.test(path)) {
    throw new DeviceError(
      'INVALID_INPUT',
      `Request path ${describe(path)} must not contain spaces, control characters, backslashes or '#'`,
    );
  }
  const [pathname = ''] = path.split('?', 1);
  if (pathname !== API_PREFIX && !pathname.startsWith(`${API_PREFIX}/`)) {
    throw new DeviceError('INVALID_INPUT', `Request path ${describe(path)} must start with ${API_PREFIX}/`);
  }
  // Segments after "/api/v1": a trailing slash is harmless, an inner empty or dot segment is not.
  const segments = pathname.split('/').slice(3);
  segments.forEach((segment, index) => {
    // Judged as the device's web server sees them, after percent-decoding.
    let decoded: string;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      throw new DeviceError('INVALID_INPUT', `Request path ${describe(path)} has a malformed %-escape`);
    }
    if (decoded.includes(';')) {
      // Some servers drop ";parameters" of a segment, so "..;x" would walk up a level there.
      throw new DeviceError(
        'INVALID_INPUT',
        `Request path ${describe(path)} must not contain ';' parameters`,
      );
    }
    if (/[/\\]/.test(decoded) || /\p{Cc}/u.test(decoded)) {
      throw new DeviceError(
        'INVALID_INPUT',
        `Request path ${describe(path)} must not encode '/', '\\' or control characters (%2F, %5C, %0D...)`,
      );
    }
    // Every segment of dots only: ".", "..", and "..." that some servers fold into "..".
    if (/^\.+$/.test(decoded)) {
      throw new DeviceError(
        'INVALID_INPUT',
        `Request path ${describe(path)} must not contain '.' or '..' segments`,
      );
    }
    if (segment === '' && index !== segments.length - 1) {
      throw new DeviceError(
        'INVALID_INPUT',
        `Request path ${describe(path)} must not contain an empty segment ('//')`,
      );
    }
  });
  return path;
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
  if (apiPath.split('?')[0] === LOGIN_PATH) {
    throw new DeviceError(
      'INVALID_INPUT',
      'The client logs in by itself: do not call the login endpoint directly',
    );
  }
  return apiPath;
}
