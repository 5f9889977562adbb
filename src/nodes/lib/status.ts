import type { ConnectionState } from '../../api/types';

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

export function invalidConfigStatus(): StatusView {
  return { fill: 'red', shape: 'ring', key: 'status.invalidConfig' };
}

/** `14:02:07` in the runtime's local time: short enough for a status line. */
export function clockTime(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}
