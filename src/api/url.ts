import { isIPv4, isIPv6 } from 'node:net';
import { DeviceError } from '../errors';

const DEFAULT_HTTPS_PORT = 443;
const HOST_NAME_LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/i;
const API_PREFIX = '/api/v1';
/** Far above any endpoint of the API, far below the header limits of web servers (a longer one never leaves). */
export const MAX_API_PATH_LENGTH = 2048;

function describe(value: unknown): string {
  // Control characters escaped: a path from a message must not start a new line in the log.
  return typeof value === 'string' ? `'${JSON.stringify(value).slice(1, -1)}'` : String(value);
}

/** A DNS host name as RFC 1123 allows it; a trailing dot (fully qualified) is accepted. */
function isHostName(host: string): boolean {
  const name = host.endsWith('.') ? host.slice(0, -1) : host;
  if (name.length === 0 || name.length > 253) return false;
  const labels = name.split('.');
  if (!labels.every((label) => HOST_NAME_LABEL.test(label))) return false;
  // URL parsers read a name whose last label is a number as an IPv4 address
  // ("999.1.1.1", "10.0.0"): such a host is a mistyped address, not a name.
  const last = labels[labels.length - 1] ?? '';
  return !/^(?:\d+|0x[0-9a-f]*)$/i.test(last);
}

/** The host part of a URL for this host: IPv6 addresses in brackets. Throws INVALID_CONFIG. */
export function formatHost(host: string): string {
  if (typeof host !== 'string' || host.length === 0) {
    throw new DeviceError(
      'INVALID_CONFIG',
      'Device host is empty: enter the IP address or host name of the device',
    );
  }
  if (/\s/.test(host)) {
    throw new DeviceError('INVALID_CONFIG', `Device host ${describe(host)} contains a space`);
  }
  if (host.includes('://')) {
    throw new DeviceError(
      'INVALID_CONFIG',
      `Device host ${describe(host)} must be an address or host name without a scheme (https is always used)`,
    );
  }
  if (host.includes('@')) {
    throw new DeviceError(
      'INVALID_CONFIG',
      `Device host ${describe(host)} must not contain user information`,
    );
  }
  if (isIPv4(host)) return host;
  const unbracketed = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  if (isIPv6(unbracketed)) {
    if (unbracketed.includes('%')) {
      throw new DeviceError(
        'INVALID_CONFIG',
        `Device host ${describe(host)} has an IPv6 zone index, which HTTPS URLs cannot carry; use a global or unique-local address`,
      );
    }
    return `[${unbracketed.toLowerCase()}]`;
  }
  if (host.includes('/')) {
    throw new DeviceError('INVALID_CONFIG', `Device host ${describe(host)} must not contain a path`);
  }
  if (isHostName(host)) return host.toLowerCase();
  throw new DeviceError(
    'INVALID_CONFIG',
    `Device host ${describe(host)} is not an IPv4 address, an IPv6 address or a host name`,
  );
}

/** Throws INVALID_CONFIG unless the port is an integer 1..65535; undefined means 443. */
export function validatePort(port: number | undefined): number {
  if (port === undefined) return DEFAULT_HTTPS_PORT;
  if (typeof port !== 'number' || !Number.isInteger(port) || port < 1 || port > 65535) {
    throw new DeviceError(
      'INVALID_CONFIG',
      `Device port ${describe(port)} must be a whole number from 1 to 65535`,
    );
  }
  return port;
}

/** `https://<host>[:port]`, the port left out when it is 443. Throws INVALID_CONFIG on bad input. */
export function buildBaseUrl(host: string, port?: number): string {
  const urlHost = formatHost(host);
  const validPort = validatePort(port);
  return validPort === DEFAULT_HTTPS_PORT ? `https://${urlHost}` : `https://${urlHost}:${validPort}`;
}

/**
 * Accepts `/api/v1` and paths below it (a query string is allowed) and returns the path unchanged.
 * Throws INVALID_INPUT for anything that could leave the API or smuggle a second request.
 */
export function validateApiPath(path: string): string {
  if (typeof path !== 'string' || path.length === 0) {
    throw new DeviceError('INVALID_INPUT', 'Request path is empty: give a path such as /api/v1/audio');
  }
  if (path.length > MAX_API_PATH_LENGTH) {
    throw new DeviceError(
      'INVALID_INPUT',
      `Request path is ${path.length} characters long; at most ${MAX_API_PATH_LENGTH} are sent`,
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
    if (/[/\\]/.test(decoded) || /\p{Cc}/u.test(decoded)) {
      throw new DeviceError(
        'INVALID_INPUT',
        `Request path ${describe(path)} must not encode '/', '\\' or control characters (%2F, %5C, %0D...)`,
      );
    }
    if (decoded === '.' || decoded === '..') {
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
