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
