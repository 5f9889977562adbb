/**
 * The rules for device settings as a user types them: the defaults, what is valid, and the message
 * that says why not. The runtime (./settings.ts) and the editor share this file: esbuild bundles it
 * into the config node's editor, so it and what it imports (./http-syntax.ts) stay free of Node.js APIs.
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
} as const;

/**
 * The longest delay Node's timers honour (2^31-1 ms, about 24.8 days): a longer one overflows and the
 * timer fires after 1 ms, so a read "every 30 days" would run every millisecond. Every configured
 * interval and timeout stays at or below it; the editor and the runtime refuse more.
 */
export const MAX_TIMER_MS = 2_147_483_647;
/** MAX_TIMER_MS in whole seconds, for properties given in seconds. */
export const MAX_TIMER_SECONDS = Math.floor(MAX_TIMER_MS / 1000);
/**
 * The longest delay in milliseconds a flow or a dialog may give: the active zone's hold and release, and
 * the device's camera switching wait times a control node writes (the active zone follows those).
 */
export const MAX_DELAY_MS = MAX_TIMER_MS;

/** A timeout in the unit of the Timeout setting, seconds (`10 s`, `0.5 s`), as messages report it. */
export function timeoutText(timeoutMs: number): string {
  return `${Number((timeoutMs / 1000).toFixed(3))} s`;
}

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

/**
 * A whole-value environment variable reference, as Node-RED substitutes it when a flow starts
 * (`${NAME}`, and the older `$(NAME)`); the same pattern the editor's own validation lets through.
 */
const ENV_REFERENCE = /^(?:\$\{([a-zA-Z_][a-zA-Z0-9_]*)\}|\$\(([a-zA-Z_][a-zA-Z0-9_]*)\))$/;
const LABELS: Record<DeviceProperty, string> = {
  host: 'Host',
  port: 'Port',
  account: 'Account',
  clientId: 'Client id',
  vendor: 'Vendor word',
  tls: 'TLS mode',
  fingerprint: 'Certificate fingerprint',
  ca: 'CA certificate',
  timeout: 'Timeout',
};

function refuse<T>(property: DeviceProperty, reason: string, message: string): Checked<T> {
  return { ok: false, problem: { property, reason, message } };
}

function quoted(value: unknown): string {
  // Control characters escaped: a bad value must not start a new line in the log.
  return typeof value === 'string' ? `'${JSON.stringify(value).slice(1, -1)}'` : String(value);
}

/** The variable named by a whole-value `${NAME}` (or `$(NAME)`) reference; undefined for any other value. */
export function envReferenceName(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const match = ENV_REFERENCE.exec(value.trim());
  return match === null ? undefined : (match[1] ?? match[2]);
}

/** Strings as the editor stores them: surrounding spaces are a typing accident, not part of the value. */
export function trimmed(value: unknown): unknown {
  return typeof value === 'string' ? value.trim() : value;
}

function isBlank(value: unknown): boolean {
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

function numberFrom(value: unknown): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && value.trim() !== '') return Number(value.trim());
  return Number.NaN;
}

/** Blank means 443. Numbers stored as text (older flows, `${PORT}` after substitution) are read. */
export function checkPort(value: unknown): Checked<number> {
  if (isBlank(value)) return { ok: true, value: DEVICE_DEFAULTS.port };
  const port = numberFrom(value);
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    return refuse('port', 'port', `Port must be a whole number from 1 to 65535; got ${quoted(value)}`);
  }
  return { ok: true, value: port };
}

/** In seconds, as the config node stores it; blank means 10 s. */
export function checkTimeoutSeconds(value: unknown): Checked<number> {
  if (isBlank(value)) return { ok: true, value: DEVICE_DEFAULTS.timeoutSeconds };
  const seconds = numberFrom(value);
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

/** Each property's check; `fingerprint` and `ca` matter only under the TLS mode that uses them. */
const CHECKS: Record<DeviceProperty, (value: unknown, tlsMode: unknown) => Checked<unknown> | undefined> = {
  host: checkHost,
  port: checkPort,
  account: checkAccount,
  clientId: (value) => checkClientId(value),
  vendor: checkVendor,
  tls: checkTlsMode,
  timeout: checkTimeoutSeconds,
  fingerprint: (value, tlsMode) =>
    (isBlank(tlsMode) || tlsMode === 'pin') && !isBlank(value) ? checkFingerprint(value) : undefined,
  ca: (value, tlsMode) => (tlsMode === 'ca' ? checkCaText(value) : undefined),
};

/**
 * One config node property as the user typed it (editor) or as Node-RED handed it over after
 * substituting environment variables (runtime). `tlsMode` is the dialog's TLS choice, which decides
 * whether `fingerprint` and `ca` matter.
 *
 * - `editing: true`: a `${NAME}` reference is accepted, as in every core node; it is judged at runtime.
 * - `editing: false`: a `${NAME}` still there means Node-RED knew no such variable.
 */
export function checkDeviceProperty(
  property: DeviceProperty,
  raw: unknown,
  context: { editing: boolean; tlsMode?: unknown },
): SettingProblem | undefined {
  const value = property === 'ca' ? raw : trimmed(raw);
  const variable = envReferenceName(value);
  if (variable !== undefined) {
    if (context.editing) return undefined;
    return {
      property,
      reason: 'envNotSet',
      message: `${LABELS[property]} is ${quoted(value)}, but the environment variable ${variable} is not set: set it where Node-RED starts, or enter the value`,
    };
  }
  const checked = CHECKS[property](value, trimmed(context.tlsMode));
  return checked !== undefined && !checked.ok ? checked.problem : undefined;
}
