/**
 * The rules for device settings as a user types them: each property's check (./setting-checks.ts), what
 * a `${VAR}` means, and the limits of timers. The runtime (./settings.ts) and the editor share this file:
 * esbuild bundles it into the config node's editor, so it and what it imports stay free of Node.js APIs.
 */

import {
  type ACCOUNTS,
  type Checked,
  checkAccount,
  checkAudioInterval,
  checkCaText,
  checkClientId,
  checkFingerprint,
  checkHost,
  checkPort,
  checkTimeoutSeconds,
  checkTlsMode,
  checkVendor,
  type DeviceProperty,
  isBlank,
  quoted,
  refuse,
  type SettingProblem,
  type TLS_MODES,
} from './setting-checks';

// The checks, defaults and limits are this module's too: importers need not know where each lives.
export * from './setting-checks';

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
  audioInterval: 'Audio interval',
};

/** What each property becomes once checked; `fingerprint` and `ca` are undefined where the TLS mode ignores them. */
export interface DevicePropertyValues {
  /** As it goes into a URL (see checkHost). */
  host: string;
  port: number;
  account: (typeof ACCOUNTS)[number];
  clientId: string;
  vendor: string;
  tls: (typeof TLS_MODES)[number];
  fingerprint: string | undefined;
  ca: string | undefined;
  timeout: number;
  audioInterval: number;
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

const NOT_USED: Checked<undefined> = { ok: true, value: undefined };

/** Each property's check; `fingerprint` and `ca` matter only under the TLS mode that uses them. */
const CHECKS: {
  [P in DeviceProperty]: (value: unknown, tlsMode: unknown) => Checked<DevicePropertyValues[P]>;
} = {
  host: checkHost,
  port: checkPort,
  account: checkAccount,
  clientId: (value) => checkClientId(value),
  vendor: checkVendor,
  tls: checkTlsMode,
  timeout: checkTimeoutSeconds,
  audioInterval: checkAudioInterval,
  fingerprint: (value, tlsMode) =>
    (isBlank(tlsMode) || tlsMode === 'pin') && !isBlank(value) ? checkFingerprint(value) : NOT_USED,
  ca: (value, tlsMode) => (tlsMode === 'ca' ? checkCaText(value) : NOT_USED),
};

/**
 * One config node property as Node-RED handed it over, after substituting environment variables: its
 * checked value, or the problem. A `${NAME}` still there means Node-RED knew no such variable.
 */
export function readDeviceProperty<P extends DeviceProperty>(
  property: P,
  raw: unknown,
  tlsMode?: unknown,
): Checked<DevicePropertyValues[P]> {
  const value = property === 'ca' ? raw : trimmed(raw);
  const variable = envReferenceName(value);
  if (variable === undefined) return CHECKS[property](value, trimmed(tlsMode));
  return refuse(
    property,
    'envNotSet',
    `${LABELS[property]} is ${quoted(value)}, but the environment variable ${variable} is not set: set it where Node-RED starts, or enter the value`,
  );
}

/**
 * One config node property as the user typed it (editor) or as the runtime reads it (readDeviceProperty).
 * `tlsMode` is the dialog's TLS choice, which decides whether `fingerprint` and `ca` matter. While
 * editing, a `${NAME}` reference is accepted, as in every core node; it is judged at runtime.
 */
export function checkDeviceProperty(
  property: DeviceProperty,
  raw: unknown,
  context: { editing: boolean; tlsMode?: unknown },
): SettingProblem | undefined {
  if (context.editing && envReferenceName(property === 'ca' ? raw : trimmed(raw)) !== undefined)
    return undefined;
  const checked = readDeviceProperty(property, raw, context.tlsMode);
  return checked.ok ? undefined : checked.problem;
}
