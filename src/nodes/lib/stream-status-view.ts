import type { StreamCondition } from '../../device/stream-hub';
import type { StatusView } from '../plain/status';

/**
 * What node status shows for the live streams, as i18n keys of the device config node's catalogue
 * (`stream.*`). Node-RED free, so the mapping is tested without a runtime.
 */
export function streamStatus(condition: StreamCondition): StatusView {
  switch (condition.state) {
    case 'connecting':
      return { fill: 'yellow', shape: 'ring', key: 'stream.connecting' };
    case 'streaming':
      return { fill: 'green', shape: 'dot', key: 'stream.streaming' };
    case 'muted':
      return { fill: 'yellow', shape: 'dot', key: 'stream.muted' };
    case 'auth_failed':
      return { fill: 'red', shape: 'ring', key: 'stream.authFailed' };
    case 'reconnecting': {
      const code = condition.code ?? 'UNREACHABLE';
      if (condition.retryInMs === undefined) {
        return { fill: 'red', shape: 'ring', key: 'stream.reconnectingNow', params: { code } };
      }
      // Whole seconds, never "in 0 s" while a wait is still ahead.
      const seconds = Math.max(1, Math.ceil(condition.retryInMs / 1000));
      return { fill: 'red', shape: 'ring', key: 'stream.reconnecting', params: { seconds, code } };
    }
  }
}
