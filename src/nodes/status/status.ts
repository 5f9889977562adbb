import type { ConnectionState } from '../../api/types';
import type { Translate } from '../texts/catalogue';

/**
 * What a node's status shows, as an i18n key (relative to the catalogue of the node type that translates
 * it) plus colour and shape. Node-RED free so the mapping is unit-tested without a runtime.
 */
export interface StatusView {
  fill: 'red' | 'green' | 'yellow' | 'grey' | 'blue';
  shape: 'ring' | 'dot';
  key: string;
  params?: Record<string, string | number>;
}

/** A status as Node-RED's `node.status()` takes it. */
export interface StatusMessage {
  fill: StatusView['fill'];
  shape: StatusView['shape'];
  text: string;
}

/**
 * `view` as readable text in the runtime's language. Translated here, not in the editor: a Status node, a
 * dashboard or a log reads the text the runtime sends, and must not get a catalogue key.
 */
export function statusMessage(translate: Translate, view: StatusView): StatusMessage {
  return { fill: view.fill, shape: view.shape, text: translate(view.key, view.params) };
}

const CONNECTION_VIEWS: Readonly<Record<Exclude<ConnectionState, 'unreachable'>, StatusView>> = {
  idle: { fill: 'grey', shape: 'ring', key: 'status.idle' },
  connecting: { fill: 'yellow', shape: 'ring', key: 'status.connecting' },
  connected: { fill: 'green', shape: 'dot', key: 'status.connected' },
  auth_failed: { fill: 'red', shape: 'ring', key: 'status.authFailed' },
  rate_limited: { fill: 'red', shape: 'ring', key: 'status.rateLimited' },
};

export function connectionStatus(state: ConnectionState, errorCode?: string): StatusView {
  if (state !== 'unreachable') return { ...CONNECTION_VIEWS[state] };
  return errorCode === 'TIMEOUT' || errorCode === 'TLS' ? faultStatus(errorCode) : faultStatus('UNREACHABLE');
}

/** Device error codes with words of their own in the device catalogue; every other code is shown as it is. */
const FAULT_KEYS: Readonly<Record<string, string>> = {
  AUTH_FAILED: 'status.authFailed',
  RATE_LIMITED: 'status.rateLimited',
  UNREACHABLE: 'status.unreachable',
  TIMEOUT: 'status.timeout',
  TLS: 'status.tls',
  INVALID_CONFIG: 'status.invalidConfig',
};

/**
 * A failed request or read, by its DeviceError code, as the device catalogue words it: every node shows
 * the same fault in the same words as the device node ("auth failed", never `AUTH_FAILED` on one node and
 * "auth failed" on the next).
 */
export function faultStatus(code: string): StatusView {
  const key = FAULT_KEYS[code];
  return key === undefined
    ? { fill: 'red', shape: 'ring', key: 'status.failed', params: { code } }
    : { fill: 'red', shape: 'ring', key };
}

/** Connected, with the word the device uses in place of the configured vendor word, to set in the config. */
export function connectedWithVendorHint(word: string): StatusView {
  return { fill: 'yellow', shape: 'dot', key: 'status.connectedVendor', params: { word } };
}

export function invalidConfigStatus(): StatusView {
  return faultStatus('INVALID_CONFIG');
}

/** `status` with `note` after its text ("streaming · 2 events too large, dropped"); unchanged without one. */
export function withNote<S extends { text?: string }>(status: S, note: string | undefined): S {
  if (note === undefined) return status;
  return {
    ...status,
    text: status.text === undefined || status.text === '' ? note : `${status.text} · ${note}`,
  };
}

/** `14:02:07` in the runtime's local time: short enough for a status line. */
export function clockTime(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}
