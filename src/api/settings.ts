/**
 * The one settings model: turns what a user gave (config node properties after Node-RED's `${VAR}`
 * substitution, or a library user's DeviceClientOptions) into checked device settings, with the
 * defaults applied. Each is checked here, once: the client and the device state take the result as it
 * is. Every refusal is a DeviceError INVALID_CONFIG whose message names the property. The rules and
 * texts live in ./settings-rules.ts, which the editor runs too.
 */

import { createSecureContext } from 'node:tls';
import { DeviceError } from '../errors';
import type { Backoff } from '../timing/backoff';
import { MAX_WINDOW_LIMIT } from '../timing/sliding-window';
import { backoff, positive } from './option-checks';
import {
  type Checked,
  checkAccount,
  checkCaText,
  checkClientId,
  checkFingerprint,
  checkHost,
  checkPort,
  checkTlsMode,
  checkVendor,
  DEVICE_DEFAULTS,
  DEVICE_PROPERTIES,
  type DeviceProperty,
  type DevicePropertyValues,
  MAX_TIMEOUT_SECONDS,
  readDeviceProperty,
  type SettingProblem,
  trimmed,
} from './settings-rules';
import type { Account, DeviceClientOptions, TlsOptions } from './types';
import { packageVersion } from './version';

export { positive } from './option-checks';
export { DEVICE_DEFAULTS } from './settings-rules';

/**
 * The config node's properties as the editor stores them (numbers may arrive as strings: from
 * hand-edited JSON, or a `${VAR}` that Node-RED substituted).
 */
export type DeviceSettingsInput = Partial<Record<DeviceProperty, unknown>>;

/** Everything a client needs but the password, checked, defaults filled in. */
export interface ClientSettings {
  /** As the user gave it, trimmed: the device's name in logs and the key of its first-use pin. */
  host: string;
  port: number;
  /** `https://<host>[:port]`, the port left out when it is 443. */
  baseUrl: string;
  account: Account;
  clientId: string;
  vendor: string;
  tls: TlsOptions;
  timeoutMs: number;
}

/** A config node's settings: the client's, and how often the device state reads the audio settings. */
export interface DeviceSettings extends ClientSettings {
  /** 0: only after a deploy and after each write. */
  audioIntervalMs: number;
}

/** What the client runs with, every option resolved. */
export interface ResolvedClientSettings extends ClientSettings {
  password: string;
  clientVersion: string;
  maxRequestsPerMinute: number;
  /** New event-stream connections in any minute, across all streams of the client. */
  maxStreamConnectsPerMinute: number;
  loginBackoff: Backoff;
  rateLimitBackoff: Backoff;
  /** Decides what trust on first use pins (DeviceClientOptions.trustFirstUse). */
  trustFirstUse?: (fingerprint256: string) => string;
}

type TrustFirstUse = (fingerprint256: string) => string;

function trustFirstUseOf(hook: unknown): { trustFirstUse?: TrustFirstUse } {
  if (hook === undefined) return {};
  if (typeof hook === 'function') return { trustFirstUse: hook as TrustFirstUse };
  throw invalidConfig('trustFirstUse must be a function');
}

export type { Backoff };

export const CLIENT_DEFAULTS = {
  maxRequestsPerMinute: 300,
  // The device allows about 60 stream connections a minute per client and answers 429 past them.
  maxStreamConnectsPerMinute: 60,
  loginBackoff: { initialMs: 1000, maxMs: 60_000 },
  rateLimitBackoff: { initialMs: 1000, maxMs: 60_000 },
} as const;

/** The settings this module made (and froze): the client takes them without checking again. */
const resolved = new WeakSet<object>();

function invalidConfig(message: string): DeviceError {
  return new DeviceError('INVALID_CONFIG', message);
}

function accepted<T>(checked: Checked<T>): T {
  if (!checked.ok) throw invalidConfig(checked.problem.message);
  return checked.value;
}

/** The CA text parsed the way the TLS layer will; the editor can only check its form. */
function caProblem(ca: string): SettingProblem | undefined {
  try {
    createSecureContext({ ca });
    return undefined;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return {
      property: 'ca',
      reason: 'caUnreadable',
      message: `The CA certificate PEM cannot be read: ${reason}`,
    };
  }
}

function readableCa(ca: string): string {
  const problem = caProblem(ca);
  if (problem !== undefined) throw invalidConfig(problem.message);
  return ca;
}

function baseUrlFor(urlHost: string, port: number): string {
  return port === DEVICE_DEFAULTS.port ? `https://${urlHost}` : `https://${urlHost}:${port}`;
}

type ParsedSettings = { ok: true; settings: DeviceSettings } | { ok: false; problems: SettingProblem[] };

/** Every property read once: the settings, or every problem (the runtime sees them after `${VAR}` substitution). */
function parseDeviceSettings(input: DeviceSettingsInput): ParsedSettings {
  const problems: SettingProblem[] = [];
  const values: Partial<Record<DeviceProperty, unknown>> = {};
  for (const property of DEVICE_PROPERTIES) {
    const checked = readDeviceProperty(property, input[property], input.tls);
    if (checked.ok) values[property] = checked.value;
    else problems.push(checked.problem);
  }
  // Complete: every property was read without a problem.
  const read = values as DevicePropertyValues;
  const unreadableCa = problems.length === 0 && read.ca !== undefined ? caProblem(read.ca) : undefined;
  if (unreadableCa !== undefined) problems.push(unreadableCa);
  if (problems.length > 0) return { ok: false, problems };
  let tls: TlsOptions = { mode: 'insecure' };
  if (read.tls === 'ca') tls = { mode: 'ca', ca: read.ca ?? '' };
  else if (read.tls === 'pin')
    tls = { mode: 'pin', ...(read.fingerprint && { fingerprint: read.fingerprint }) };
  const settings: DeviceSettings = {
    host: String(trimmed(input.host)),
    port: read.port,
    baseUrl: baseUrlFor(read.host, read.port),
    account: read.account,
    clientId: read.clientId,
    vendor: read.vendor,
    tls,
    timeoutMs: Math.round(read.timeout * 1000),
    audioIntervalMs: Math.round(read.audioInterval * 1000),
  };
  return { ok: true, settings: Object.freeze(settings) };
}

/** Every problem of a config node's properties, as the runtime sees them (after `${VAR}` substitution). */
export function deviceSettingsProblems(input: DeviceSettingsInput): SettingProblem[] {
  const parsed = parseDeviceSettings(input);
  return parsed.ok ? [] : parsed.problems;
}

/** A config node's properties as checked device settings (everything but the password). Throws INVALID_CONFIG. */
export function deviceSettingsFromProperties(input: DeviceSettingsInput): DeviceSettings {
  const parsed = parseDeviceSettings(input);
  if (!parsed.ok) throw invalidConfig(parsed.problems[0].message);
  return parsed.settings;
}

/** The config node's port property (blank: 443). Throws INVALID_CONFIG. */
export function portFromProperty(value: unknown): number {
  return accepted(readDeviceProperty('port', value));
}

/** The config node's timeout property, in seconds (blank: 10), as milliseconds. Throws INVALID_CONFIG. */
export function timeoutMsFromProperty(value: unknown): number {
  return Math.round(accepted(readDeviceProperty('timeout', value)) * 1000);
}

/**
 * Checked settings and the password as what a client runs with: the client options a config node does
 * not offer take their defaults. Nothing is checked again.
 */
export function clientSettingsOf(
  settings: ClientSettings,
  extra: { password: string; tls?: TlsOptions; trustFirstUse?: TrustFirstUse },
): ResolvedClientSettings {
  const { host, port, baseUrl, account, clientId, vendor, timeoutMs } = settings;
  return frozen({
    host,
    port,
    baseUrl,
    account,
    clientId,
    vendor,
    tls: extra.tls ?? settings.tls,
    timeoutMs,
    password: extra.password,
    clientVersion: packageVersion(),
    maxRequestsPerMinute: CLIENT_DEFAULTS.maxRequestsPerMinute,
    maxStreamConnectsPerMinute: CLIENT_DEFAULTS.maxStreamConnectsPerMinute,
    loginBackoff: { ...CLIENT_DEFAULTS.loginBackoff },
    rateLimitBackoff: { ...CLIENT_DEFAULTS.rateLimitBackoff },
    ...trustFirstUseOf(extra.trustFirstUse),
  });
}

function frozen(settings: ResolvedClientSettings): ResolvedClientSettings {
  resolved.add(settings);
  return Object.freeze(settings);
}

/** A library user's options as the client runs with them: resolved here, or as they are when already resolved. */
export function clientSettingsFor(
  options: DeviceClientOptions | ResolvedClientSettings,
): ResolvedClientSettings {
  return resolved.has(options) ? (options as ResolvedClientSettings) : resolveClientSettings(options);
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
  return baseUrlFor(urlHost(host), portNumber(port));
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
  return frozen({
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
    ...trustFirstUseOf(options.trustFirstUse),
  });
}
