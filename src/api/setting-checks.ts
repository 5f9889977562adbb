/**
 * The check of each device setting as a user types it: the defaults, the limits, what is valid and the
 * message that says why not. Bundled into the config node's editor with ./settings-rules.ts, so it and
 * what it imports (./http-syntax.ts) stay free of Node.js APIs.
 */

import { isHeaderValue, isHostName, isHttpToken, isIPv4, isIPv6 } from './http-syntax';

/** The device's accounts, in the order the dialog lists them. */
export const ACCOUNTS = ['general', 'admin'] as const;
/** How the device's certificate is trusted: pinned (learned on first use), by a CA, or not checked. */
export const TLS_MODES = ['pin', 'ca', 'insecure'] as const;

export const DEVICE_DEFAULTS = {
  port: 443,
  account: 'general',
  clientId: 'node-red',
  vendor: 'Vendor',
  /** Trust on first use: works with a device's self-signed certificate without any setup. */
  tls: 'pin',
  timeoutSeconds: 10,
  /** Audio settings are never announced, so they are polled: every 2 s unless the config node says otherwise. */
  audioIntervalSeconds: 2,
} as const;

/** The reference driver's bound; a longer wait would leave the mute state stale for minutes. */
export const MAX_AUDIO_INTERVAL_SECONDS = 60;

/** Far above any sane request; keeps the timer below setTimeout's 2^31-1 ms ceiling. */
export const MAX_TIMEOUT_SECONDS = 3600;
/** The client id and version become header values: bounded so a pasted text cannot bloat every request. */
export const MAX_CLIENT_HEADER_LENGTH = 500;
const FINGERPRINT_HEX_DIGITS = 64;

/**
 * The config node's properties, as the editor stores them and the runtime receives them: every one but
 * the password (a credential).
 */
export const DEVICE_PROPERTIES = [
  'host',
  'port',
  'account',
  'clientId',
  'vendor',
  'tls',
  'fingerprint',
  'ca',
  'timeout',
  'audioInterval',
] as const;
export type DeviceProperty = (typeof DEVICE_PROPERTIES)[number];

/** What a user reads when a setting is refused: the property it is about, a stable reason, a message. */
export interface SettingProblem {
  property: DeviceProperty;
  /** Stable key for a translated text (the editor's catalogue), e.g. `hostZoneIndex`. */
  reason: string;
  /** English text naming the property; used as it is by the runtime. */
  message: string;
}

export type Checked<T> = { ok: true; value: T } | { ok: false; problem: SettingProblem };

export function refuse<T>(property: DeviceProperty, reason: string, message: string): Checked<T> {
  return { ok: false, problem: { property, reason, message } };
}

export function quoted(value: unknown): string {
  // Control characters escaped: a bad value must not start a new line in the log.
  return typeof value === 'string' ? `'${JSON.stringify(value).slice(1, -1)}'` : String(value);
}

export function isBlank(value: unknown): boolean {
  return value === undefined || value === null || value === '';
}

/**
 * The host as it goes into the URL: IPv4 as given, IPv6 lower case in brackets, a name lower case.
 * An IPv6 zone index (`fe80::1%eth0`) is refused: WHATWG URLs (and so undici) cannot carry one.
 */
export function checkHost(host: unknown): Checked<string> {
  if (typeof host !== 'string' || host.length === 0) {
    return refuse('host', 'hostEmpty', 'Host is empty: enter the device IP address or host name');
  }
  if (/\s/.test(host)) return refuse('host', 'hostSpace', `Host ${quoted(host)} contains a space`);
  if (host.includes('://')) {
    return refuse(
      'host',
      'hostScheme',
      `Host ${quoted(host)} must be an address or host name without a scheme (https is always used)`,
    );
  }
  if (host.includes('@')) {
    return refuse('host', 'hostUserInfo', `Host ${quoted(host)} must not contain user information`);
  }
  if (isIPv4(host)) return { ok: true, value: host };
  const unbracketed = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  const zone = unbracketed.indexOf('%');
  if (zone > 0 && isIPv6(unbracketed.slice(0, zone))) {
    return refuse(
      'host',
      'hostZoneIndex',
      `Host ${quoted(host)} has an IPv6 zone index (${unbracketed.slice(zone)}), which HTTPS URLs cannot carry: use the device's global or unique-local IPv6 address, its IPv4 address or its host name`,
    );
  }
  if (isIPv6(unbracketed)) return { ok: true, value: `[${unbracketed.toLowerCase()}]` };
  if (host.includes('/')) return refuse('host', 'hostPath', `Host ${quoted(host)} must not contain a path`);
  if (isHostName(host)) return { ok: true, value: host.toLowerCase() };
  return refuse(
    'host',
    'host',
    `Host ${quoted(host)} is not an IPv4 address, an IPv6 address or a host name`,
  );
}

/**
 * A number as people write it in a form: decimal digits with an optional fraction. Not `Number()`'s
 * grammar, which reads "0x10" as 16, "0b11" as 3 and "1e3" as 1000: a port of "0x10" is a typo, not 16.
 */
const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)$/;

/** A number, or a decimal number as text (a `${VAR}` after substitution, hand-edited JSON); else NaN. */
export function decimalNumber(value: unknown): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && DECIMAL.test(value.trim())) return Number(value.trim());
  return Number.NaN;
}

/** Blank means 443. A number as text (`${PORT}` after substitution) is read. */
export function checkPort(value: unknown): Checked<number> {
  if (isBlank(value)) return { ok: true, value: DEVICE_DEFAULTS.port };
  const port = decimalNumber(value);
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    return refuse('port', 'port', `Port must be a whole number from 1 to 65535; got ${quoted(value)}`);
  }
  return { ok: true, value: port };
}

/** In seconds, as the config node stores it; blank means 10 s. */
export function checkTimeoutSeconds(value: unknown): Checked<number> {
  if (isBlank(value)) return { ok: true, value: DEVICE_DEFAULTS.timeoutSeconds };
  const seconds = decimalNumber(value);
  if (!Number.isFinite(seconds) || seconds <= 0 || seconds > MAX_TIMEOUT_SECONDS) {
    return refuse(
      'timeout',
      'timeout',
      `Timeout must be a number of seconds more than 0 and at most ${MAX_TIMEOUT_SECONDS}; got ${quoted(value)}`,
    );
  }
  return { ok: true, value: seconds };
}

export function checkAccount(value: unknown): Checked<(typeof ACCOUNTS)[number]> {
  if (isBlank(value)) return { ok: true, value: DEVICE_DEFAULTS.account };
  const account = ACCOUNTS.find((known) => known === value);
  if (account !== undefined) return { ok: true, value: account };
  return refuse(
    'account',
    'account',
    `Account must be 'general' or 'admin' (lowercase); got ${quoted(value)}`,
  );
}

/** Header values: printable ASCII, bounded; blank means the default. */
export function checkClientId(
  value: unknown,
  fallback: string = DEVICE_DEFAULTS.clientId,
  label = 'Client id',
): Checked<string> {
  if (isBlank(value)) return { ok: true, value: fallback };
  if (typeof value !== 'string' || value.length > MAX_CLIENT_HEADER_LENGTH || !isHeaderValue(value)) {
    return refuse(
      'clientId',
      'clientId',
      `${label} must be printable ASCII text of at most ${MAX_CLIENT_HEADER_LENGTH} characters, without leading or trailing spaces`,
    );
  }
  return { ok: true, value };
}

/** The word forms header names and the Authorization scheme, so it must be one HTTP token. */
export function checkVendor(value: unknown): Checked<string> {
  if (isBlank(value)) return { ok: true, value: DEVICE_DEFAULTS.vendor };
  if (typeof value !== 'string' || !isHttpToken(value)) {
    return refuse(
      'vendor',
      'vendor',
      "Vendor word must be a single HTTP token (letters, digits and !#$%&'*+-.^_`|~, no spaces): it forms header names and the Authorization scheme",
    );
  }
  return { ok: true, value };
}

export function checkTlsMode(value: unknown): Checked<(typeof TLS_MODES)[number]> {
  if (isBlank(value)) return { ok: true, value: DEVICE_DEFAULTS.tls };
  const mode = TLS_MODES.find((known) => known === value);
  if (mode !== undefined) return { ok: true, value: mode };
  return refuse('tls', 'tls', `TLS mode must be 'pin', 'ca' or 'insecure'; got ${quoted(value)}`);
}

/** `AB:CD:...` upper case from any common spelling (colons, spaces, dashes, plain hex, any case). */
export function checkFingerprint(value: unknown): Checked<string> {
  const hex = typeof value === 'string' ? value.trim().replace(/[:\s-]/g, '') : '';
  if (!/^[0-9a-f]+$/i.test(hex) || hex.length !== FINGERPRINT_HEX_DIGITS) {
    return refuse(
      'fingerprint',
      'fingerprint',
      `Certificate fingerprint must be a SHA-256 fingerprint: 32 bytes of hex, e.g. AB:CD:... (64 hex digits); got ${hex.length} hex digits`,
    );
  }
  return { ok: true, value: (hex.toUpperCase().match(/../g) ?? []).join(':') };
}

/** The form only; the runtime also parses the PEM (./settings.ts), which a browser cannot. */
export function checkCaText(value: unknown): Checked<string> {
  if (typeof value !== 'string' || !value.includes('-----BEGIN CERTIFICATE-----')) {
    return refuse(
      'ca',
      'ca',
      'TLS mode "ca" needs the CA certificate as PEM text (-----BEGIN CERTIFICATE-----...)',
    );
  }
  return { ok: true, value: value.trim() };
}

/**
 * Seconds between two reads of the audio settings: 0 to 60, where 0 reads them only after a deploy and
 * after each write; blank is the default.
 */
export function checkAudioInterval(value: unknown): Checked<number> {
  if (isBlank(value)) return { ok: true, value: DEVICE_DEFAULTS.audioIntervalSeconds };
  const seconds = decimalNumber(value);
  if (!Number.isFinite(seconds) || seconds < 0 || seconds > MAX_AUDIO_INTERVAL_SECONDS) {
    return refuse(
      'audioInterval',
      'audioInterval',
      `Audio interval must be a number of seconds from 0 to ${MAX_AUDIO_INTERVAL_SECONDS} (0: read only after a deploy and each write); got ${quoted(value)}`,
    );
  }
  return { ok: true, value: seconds };
}
