/**
 * The one settings model: turns what a user gave (config node properties after Node-RED's `${VAR}`
 * substitution, or a library user's DeviceClientOptions) into resolved device settings, with the
 * defaults applied. Every refusal is a DeviceError INVALID_CONFIG whose message names the property.
 * The rules and texts live in ./settings-rules.ts, which the editor runs too.
 */

import { createSecureContext } from 'node:tls';
import { DeviceError } from '../errors';
import type { Backoff } from './backoff';
import {
  type Checked,
  checkAccount,
  checkCaText,
  checkClientId,
  checkDeviceProperty,
  checkFingerprint,
  checkHost,
  checkPort,
  checkTimeoutSeconds,
  checkTlsMode,
  checkVendor,
  DEVICE_DEFAULTS,
  DEVICE_PROPERTIES,
  MAX_TIMEOUT_SECONDS,
  type SettingProblem,
  trimmed,
} from './settings-rules';
import { MAX_WINDOW_LIMIT } from './sliding-window';
import type { Account, DeviceClientOptions, TlsOptions } from './types';
import { packageVersion } from './version';

export { DEVICE_DEFAULTS } from './settings-rules';

/**
 * The config node's properties as the editor stores them (numbers may arrive as strings: from older
 * flows, hand-edited JSON, or a `${VAR}` that Node-RED substituted).
 */
export interface DeviceSettingsInput {
  host?: unknown;
  port?: unknown;
  account?: unknown;
  clientId?: unknown;
  vendor?: unknown;
  tls?: unknown;
  fingerprint?: unknown;
  ca?: unknown;
  timeout?: unknown;
}

/** Everything a client needs but the password, defaults filled in. */
export interface DeviceSettings {
  host: string;
  port: number;
  account: Account;
  clientId: string;
  vendor: string;
  tls: TlsOptions;
  timeoutMs: number;
}

/** What the client runs with, every option resolved. */
export interface ResolvedClientSettings extends DeviceSettings {
  /** `https://<host>[:port]`, the port left out when it is 443. */
  baseUrl: string;
  password: string;
  clientVersion: string;
  maxRequestsPerMinute: number;
  /** New event-stream connections in any minute, across all streams of the client. */
  maxStreamConnectsPerMinute: number;
  loginBackoff: Backoff;
  rateLimitBackoff: Backoff;
}

export type { Backoff };

export const CLIENT_DEFAULTS = {
  maxRequestsPerMinute: 300,
  // The device allows about 60 stream connections a minute per client and answers 429 past them.
  maxStreamConnectsPerMinute: 60,
  loginBackoff: { initialMs: 1000, maxMs: 60_000 },
  rateLimitBackoff: { initialMs: 1000, maxMs: 60_000 },
} as const;

function invalidConfig(message: string): DeviceError {
  return new DeviceError('INVALID_CONFIG', message);
}

function accepted<T>(checked: Checked<T>): T {
  if (!checked.ok) throw invalidConfig(checked.problem.message);
  return checked.value;
}

/** The CA text parsed the way the TLS layer will; the editor can only check its form. */
function readableCa(ca: string): string {
  try {
    createSecureContext({ ca });
  } catch (error) {
    throw invalidConfig(
      `The CA certificate PEM cannot be read: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  return ca;
}

/** Every problem of a config node's properties, as the runtime sees them (after `${VAR}` substitution). */
export function deviceSettingsProblems(input: DeviceSettingsInput): SettingProblem[] {
  const problems: SettingProblem[] = [];
  for (const property of DEVICE_PROPERTIES) {
    const problem = checkDeviceProperty(property, input[property], { editing: false, tlsMode: input.tls });
    if (problem !== undefined) problems.push(problem);
  }
  return problems;
}

/** A config node's properties as client settings (everything but the password). Throws INVALID_CONFIG. */
export function deviceSettingsFromProperties(input: DeviceSettingsInput): DeviceSettings {
  const [problem] = deviceSettingsProblems(input);
  if (problem !== undefined) throw invalidConfig(problem.message);
  const tlsMode = accepted(checkTlsMode(trimmed(input.tls)));
  const fingerprint = trimmed(input.fingerprint);
  let tls: TlsOptions;
  if (tlsMode === 'ca') tls = { mode: 'ca', ca: readableCa(accepted(checkCaText(input.ca))) };
  else if (tlsMode === 'pin' && fingerprint !== '' && fingerprint !== undefined && fingerprint !== null)
    tls = { mode: 'pin', fingerprint: accepted(checkFingerprint(fingerprint)) };
  else tls = { mode: tlsMode };
  return {
    host: String(trimmed(input.host)),
    port: portFromProperty(input.port),
    account: accepted(checkAccount(trimmed(input.account))),
    clientId: accepted(checkClientId(trimmed(input.clientId))),
    vendor: accepted(checkVendor(trimmed(input.vendor))),
    tls,
    timeoutMs: timeoutMsFromProperty(input.timeout),
  };
}

/** The config node's port property (blank: 443). Throws INVALID_CONFIG. */
export function portFromProperty(value: unknown): number {
  const problem = checkDeviceProperty('port', value, { editing: false });
  if (problem !== undefined) throw invalidConfig(problem.message);
  return accepted(checkPort(trimmed(value)));
}

/** The config node's timeout property, in seconds (blank: 10), as milliseconds. Throws INVALID_CONFIG. */
export function timeoutMsFromProperty(value: unknown): number {
  const problem = checkDeviceProperty('timeout', value, { editing: false });
  if (problem !== undefined) throw invalidConfig(problem.message);
  return Math.round(accepted(checkTimeoutSeconds(trimmed(value))) * 1000);
}

/** The host as it goes into a URL (IPv6 in brackets); throws INVALID_CONFIG naming the host. */
export function urlHost(host: unknown): string {
  return accepted(checkHost(host));
}

/** A port given as a number (library options); undefined means 443. */
export function portNumber(port: unknown): number {
  if (port === undefined) return DEVICE_DEFAULTS.port;
  return accepted(checkPort(typeof port === 'number' ? port : Number.NaN));
}

/** `https://<host>[:port]`, the port left out when it is 443. Throws INVALID_CONFIG on bad input. */
export function baseUrlOf(host: unknown, port?: unknown): string {
  const hostPart = urlHost(host);
  const validPort = portNumber(port);
  return validPort === DEVICE_DEFAULTS.port ? `https://${hostPart}` : `https://${hostPart}:${validPort}`;
}

/** A positive number option, or its fallback when absent; INVALID_CONFIG naming the option otherwise. */
export function positive(
  name: string,
  value: unknown,
  fallback: number,
  options: { integer?: boolean; max?: number } = {},
) {
  if (value === undefined) return fallback;
  if (
    typeof value !== 'number' ||
    !Number.isFinite(value) ||
    value <= 0 ||
    (options.integer === true && !Number.isInteger(value)) ||
    (options.max !== undefined && value > options.max)
  ) {
    const limit = options.max === undefined ? '' : ` of at most ${options.max}`;
    throw invalidConfig(
      `${name} must be a positive ${options.integer === true ? 'whole ' : ''}number${limit}; got ${String(value)}`,
    );
  }
  return value;
}

function backoff(name: string, value: unknown, fallback: Backoff): Backoff {
  if (value === undefined) return { ...fallback };
  if (typeof value !== 'object' || value === null)
    throw invalidConfig(`${name} must be an object {initialMs, maxMs}`);
  const initialMs = positive(`${name}.initialMs`, Reflect.get(value, 'initialMs'), fallback.initialMs);
  const maxMs = positive(`${name}.maxMs`, Reflect.get(value, 'maxMs'), Math.max(fallback.maxMs, initialMs));
  if (maxMs < initialMs) throw invalidConfig(`${name}.maxMs must not be smaller than ${name}.initialMs`);
  return { initialMs, maxMs };
}

/** A library user's TLS option; without one, trust on first use (`pin`), as the config node does. */
export function tlsOptionsOf(tls: unknown): TlsOptions {
  if (tls === undefined) return { mode: DEVICE_DEFAULTS.tls };
  if (typeof tls !== 'object' || tls === null) {
    throw invalidConfig(`TLS options must be an object {mode, fingerprint?, ca?}; got ${String(tls)}`);
  }
  const mode = accepted(checkTlsMode(Reflect.get(tls, 'mode')));
  if (mode === 'insecure') return { mode };
  if (mode === 'ca') return { mode, ca: readableCa(accepted(checkCaText(Reflect.get(tls, 'ca')))) };
  const fingerprint: unknown = Reflect.get(tls, 'fingerprint');
  if (fingerprint === undefined || fingerprint === '') return { mode };
  if (typeof fingerprint !== 'string') throw invalidConfig('Certificate fingerprint must be text');
  return { mode, fingerprint: accepted(checkFingerprint(fingerprint)) };
}

/** A library user's options, every default applied. Throws INVALID_CONFIG naming the option. */
export function resolveClientSettings(options: DeviceClientOptions): ResolvedClientSettings {
  if (typeof options !== 'object' || options === null)
    throw invalidConfig('Device client options are missing');
  const baseUrl = baseUrlOf(options.host, options.port);
  const password: unknown = options.password;
  if (password !== undefined && password !== null && typeof password !== 'string') {
    throw invalidConfig('Password must be text (it may be blank)');
  }
  return {
    baseUrl,
    host: options.host,
    port: portNumber(options.port),
    account: accepted(checkAccount(options.account)),
    password: typeof password === 'string' ? password : '',
    clientId: accepted(checkClientId(options.clientId)),
    clientVersion: accepted(checkClientId(options.clientVersion, packageVersion(), 'Client version')),
    vendor: accepted(checkVendor(options.vendor)),
    tls: tlsOptionsOf(options.tls),
    timeoutMs: positive('timeoutMs', options.timeoutMs, DEVICE_DEFAULTS.timeoutSeconds * 1000, {
      max: MAX_TIMEOUT_SECONDS * 1000,
    }),
    maxRequestsPerMinute: positive(
      'maxRequestsPerMinute',
      options.maxRequestsPerMinute,
      CLIENT_DEFAULTS.maxRequestsPerMinute,
      { integer: true, max: MAX_WINDOW_LIMIT },
    ),
    maxStreamConnectsPerMinute: positive(
      'maxStreamConnectsPerMinute',
      options.maxStreamConnectsPerMinute,
      CLIENT_DEFAULTS.maxStreamConnectsPerMinute,
      { integer: true, max: MAX_WINDOW_LIMIT },
    ),
    loginBackoff: backoff('loginBackoff', options.loginBackoff, CLIENT_DEFAULTS.loginBackoff),
    rateLimitBackoff: backoff('rateLimitBackoff', options.rateLimitBackoff, CLIENT_DEFAULTS.rateLimitBackoff),
  };
}
