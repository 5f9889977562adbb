/**
 * The check of a request path, without Node.js APIs: the request node's runtime and its editor both use it.
 */
import { DeviceError } from '../errors';
import { API_PREFIX, DEVICE_PATHS } from './protocol';

/** Far above any endpoint of the API, far below the header limits of web servers (a longer one never leaves). */
export const MAX_API_PATH_LENGTH = 2048;

function describe(value: unknown): string {
  // Control characters escaped: a path from a message must not start a new line in the log.
  return typeof value === 'string' ? `'${JSON.stringify(value).slice(1, -1)}'` : String(value);
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
