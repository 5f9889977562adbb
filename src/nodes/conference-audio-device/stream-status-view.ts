import type { StreamCondition } from '../../device/stream-hub';
import type { StatusView } from '../status/status';

/** The conditions that show the same whatever their detail. */
const STEADY_VIEWS: Readonly<Record<Exclude<StreamCondition['state'], 'reconnecting'>, StatusView>> = {
  connecting: { fill: 'yellow', shape: 'ring', key: 'stream.connecting' },
  streaming: { fill: 'green', shape: 'dot', key: 'stream.streaming' },
  muted: { fill: 'yellow', shape: 'dot', key: 'stream.muted' },
  auth_failed: { fill: 'red', shape: 'ring', key: 'stream.authFailed' },
};

/**
 * What node status shows for the live streams, as i18n keys of the device config node's catalogue
 * (`stream.*`). Node-RED free, so the mapping is tested without a runtime.
 */
export function streamStatus(condition: StreamCondition): StatusView {
  if (condition.state !== 'reconnecting') return { ...STEADY_VIEWS[condition.state] };
  const code = condition.code ?? 'UNREACHABLE';
  if (condition.retryInMs === undefined) {
    return { fill: 'red', shape: 'ring', key: 'stream.reconnectingNow', params: { code } };
  }
  // Whole seconds, never "in 0 s" while a wait is still ahead.
  const seconds = Math.max(1, Math.ceil(condition.retryInMs / 1000));
  return { fill: 'red', shape: 'ring', key: 'stream.reconnecting', params: { seconds, code } };
}
