import type { ConnectionState } from '../../api/types';

/** The package name, which is the first part of each node set's catalogue namespace in the editor. */
export const PACKAGE_NAME = '@conference-audio/node-red-local-api';

/**
 * What a node's status shows for the device connection, as an i18n key
 * (relative to the node type's catalogue) plus colour and shape. Node-RED
 * free so the mapping is unit-tested without a runtime.
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
 * A key of `type`'s catalogue with its node-set namespace, `<package>/<type>:<type>.<key>`: Node-RED loads
 * each node type's catalogue under its node set's namespace, and this form finds it from any node type,
 * in the runtime and in the editor.
 */
export function catalogueKey(type: string, key: string): string {
  return `${PACKAGE_NAME}/${type}:${type}.${key}`;
}

/**
 * A status text the editor translates into its own language, not the runtime's: a key with its
 * namespace, `<package>/<type>:<type>.<key>`, which the editor looks up as it does for core nodes
 * (`node-red:common.status.connected`). The editor passes no parameters with a status, so a status
 * with parameters (a count, a time) carries them as JSON after a space, and the device node's editor
 * script (src/nodes/conference-audio-device/editor.ts) translates it with them, plural forms included.
 */
export function statusText(type: string, key: string, params?: Record<string, string | number>): string {
  const qualified = catalogueKey(type, key);
  return params === undefined ? qualified : `${qualified} ${JSON.stringify(params)}`;
}

/** `view` as a status of a node of `type`'s catalogue (see statusText). */
export function statusMessage(type: string, view: StatusView): StatusMessage {
  return { fill: view.fill, shape: view.shape, text: statusText(type, view.key, view.params) };
}

export function connectionStatus(state: ConnectionState, errorCode?: string): StatusView {
  switch (state) {
    case 'idle':
      return { fill: 'grey', shape: 'ring', key: 'status.idle' };
    case 'connecting':
      return { fill: 'yellow', shape: 'ring', key: 'status.connecting' };
    case 'connected':
      return { fill: 'green', shape: 'dot', key: 'status.connected' };
    case 'auth_failed':
      return { fill: 'red', shape: 'ring', key: 'status.authFailed' };
    case 'rate_limited':
      return { fill: 'red', shape: 'ring', key: 'status.rateLimited' };
    case 'unreachable':
      if (errorCode === 'TIMEOUT') return { fill: 'red', shape: 'ring', key: 'status.timeout' };
      if (errorCode === 'TLS') return { fill: 'red', shape: 'ring', key: 'status.tls' };
      return { fill: 'red', shape: 'ring', key: 'status.unreachable' };
  }
}

/** Connected, with the word the device uses in place of the configured vendor word, to set in the config. */
export function connectedWithVendorHint(word: string): StatusView {
  return { fill: 'yellow', shape: 'dot', key: 'status.connectedVendor', params: { word } };
}

export function invalidConfigStatus(): StatusView {
  return { fill: 'red', shape: 'ring', key: 'status.invalidConfig' };
}

/** `14:02:07` in the runtime's local time: short enough for a status line. */
export function clockTime(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}
