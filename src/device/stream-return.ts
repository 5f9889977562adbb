import type { StreamCondition } from './stream-hub';

/**
 * Changes a device makes while its change stream is down are never announced, so whoever follows the
 * stream reads again once it streams after a gap. The one place that decides when that is: returns an
 * `onCondition` handler that calls `onStreaming` each time the stream starts streaming, saying whether
 * it is the first time (a follower that read at start has nothing to catch up on then).
 */
export function onStreamingAgain(
  onStreaming: (first: boolean) => void,
): (condition: StreamCondition) => void {
  let streaming = false;
  let streamed = false;
  return (condition) => {
    if (condition.state !== 'streaming') {
      streaming = false;
      return;
    }
    if (streaming) return;
    streaming = true;
    const first = !streamed;
    streamed = true;
    onStreaming(first);
  };
}
