import type { DeviceError } from '../errors';
/** Shapes shared by the device client and its users. No Node-RED import here. */

export type Account = 'general' | 'admin';

import type { HttpMethod } from './protocol';

export type { HttpMethod };

export type TlsOptions =
  /** Accept the device's self-signed certificate without checking it. */
  | { mode: 'insecure' }
  /** Verify the device's certificate against this PEM (one or more certificates). */
  | { mode: 'ca'; ca: string }
  /**
   * The SHA-256 fingerprint of the device's leaf certificate must match.
   * Without a fingerprint: trust on first use (pin the first one seen, emit `pinned`).
   * Accepted forms: `AB:CD:...` or plain hex, any case.
   */
  | { mode: 'pin'; fingerprint?: string };

export interface DeviceClientOptions {
  /** IPv4 address, IPv6 address (with or without brackets) or host name. */
  host: string;
  /** Default 443. */
  port?: number;
  account: Account;
  /** May be blank (older deployments). Held in memory only. */
  password: string;
  /** Value of `<vendor>-Client-Id`. Default `node-red`. */
  clientId?: string;
  /** Value of `<vendor>-Client-Version`. Default: this package's version. */
  clientVersion?: string;
  /** Word used in the Authorization scheme and the two client header names. Default `Vendor`. */
  vendor?: string;
  /** Default `{ mode: 'insecure' }`. */
  tls?: TlsOptions;
  /**
   * TLS `pin` without a fingerprint: asked with the fingerprint of the first certificate seen, before
   * anything is sent on that connection. Answers the fingerprint to pin (normally the one given), or throws
   * a DeviceError (code `TLS`) to refuse the connection; the next connection asks again. Default: trust it.
   */
  trustFirstUse?: (fingerprint256: string) => string;
  /** Per-request timeout. Default 10000. */
  timeoutMs?: number;
  /**
   * Client-side ceiling on requests sent: never more than this many in any minute. A tenth of it (at least
   * one) may go at once; beyond that requests are spaced evenly, one every minute / (ceiling - burst), so
   * demand above the ceiling is answered at a steady pace instead of stalling. Default 300 (the device
   * allows about 600): 30 at once, then one every 0.22 s.
   */
  maxRequestsPerMinute?: number;
  /** New event-stream connections in any minute, across all streams of this client. Default 60 (the device's limit). */
  maxStreamConnectsPerMinute?: number;
  /** Backoff after a refused login: first delay and cap. Defaults 1000 and 60000. */
  loginBackoff?: { initialMs?: number; maxMs?: number };
  /** Pause before the next request after a rate-limit answer (429, or 409 "Too many requests"): first delay and cap, doubling. Defaults 1000 and 60000. */
  rateLimitBackoff?: { initialMs?: number; maxMs?: number };
}

/** The device connection as a user sees it on node status. */
export type ConnectionState =
  | 'idle'
  | 'connecting'
  | 'connected'
  | 'auth_failed'
  | 'unreachable'
  | 'rate_limited';

export interface DeviceResponse<T = unknown> {
  statusCode: number;
  /** Parsed JSON when the body is JSON; the text otherwise; undefined when empty. */
  body: T;
  headers: Record<string, string>;
}

export interface RequestOptions {
  /** Abort this one request early (the client's own timeout still applies). */
  signal?: AbortSignal;
}

/**
 * What code that reads from a device needs. `DeviceClient` implements it;
 * anything else (a test double in a unit test of pure code) may too.
 * A non-2xx answer is thrown as a DeviceError with a stable code.
 */
export interface DeviceRequester {
  request<T = unknown>(
    method: HttpMethod,
    path: string,
    body?: unknown,
    options?: RequestOptions,
  ): Promise<DeviceResponse<T>>;
}

export interface DeviceClientEvents {
  /** Emitted on every change of state; the error that caused it, when one did. */
  state: [state: ConnectionState, error?: DeviceError];
  /** Trust on first use pinned this certificate fingerprint. */
  pinned: [fingerprint256: string];
  /** In pin mode the device showed another certificate than the pinned one; the connection was refused. */
  pinMismatch: [expected: string, seen: string];
  /** The device uses another vendor word than the configured one; the client uses the device's from now. */
  vendor: [word: string, configured: string];
}
