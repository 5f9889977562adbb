import type { DeviceError } from '../../errors';
import type { StatusView } from '../plain/status';
import type { StreamCondition, StreamKind } from './stream-hub';

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

/** How bad a condition is, for a node that listens to two streams and has one status to show. */
const SEVERITY: Record<StreamCondition['state'], number> = {
  streaming: 0,
  muted: 1,
  connecting: 2,
  reconnecting: 3,
  auth_failed: 4,
};

/** The condition a node with several streams shows: the worst one. */
export function worstCondition(conditions: ReadonlyMap<StreamKind, StreamCondition>): StreamCondition {
  let worst: StreamCondition = { state: 'connecting' };
  let first = true;
  for (const condition of conditions.values()) {
    if (first || SEVERITY[condition.state] > SEVERITY[worst.state]) worst = condition;
    first = false;
  }
  return worst;
}

/**
 * Hands a stream's failure to `report` when the stream cannot be opened, once per error code, as the room
 * zones node reports a failing poll: a stream that keeps failing the same way while it retries is one error
 * for a Catch node, not one per attempt. A healthy stream that drops and reconnects is only shown in the
 * status (a network blip is not an error of the flow); streaming again forgets the code.
 */
export function streamErrorReporter(
  report: (error: DeviceError) => void,
): (condition: StreamCondition) => void {
  let reported: string | undefined;
  let streaming = false;
  return (condition) => {
    if (condition.state === 'streaming' || condition.state === 'muted') {
      reported = undefined;
      streaming = true;
      return;
    }
    if (condition.state === 'connecting') return;
    const wasStreaming = streaming;
    streaming = false;
    if (condition.error === undefined || condition.error.code === reported) return;
    // The first failure after streaming is the drop itself; an attempt that fails after it is reported.
    if (wasStreaming && condition.state === 'reconnecting') return;
    reported = condition.error.code;
    report(condition.error);
  };
}
