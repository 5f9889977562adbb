import should from 'should';
import type { StreamCondition } from '../../src/device/stream-hub';
import { onStreamingAgain } from '../../src/device/stream-return';

describe('device/stream-return: when a follower of the change stream reads again', () => {
  const streaming: StreamCondition = { state: 'streaming' };
  const connecting: StreamCondition = { state: 'connecting' };
  const reconnecting: StreamCondition = {
    state: 'reconnecting',
    retryInMs: 1000,
    code: 'UNREACHABLE',
  };

  function follow(conditions: StreamCondition[]): boolean[] {
    const calls: boolean[] = [];
    const handle = onStreamingAgain((first) => calls.push(first));
    for (const condition of conditions) handle(condition);
    return calls;
  }

  it('calls once on the first open, saying it is the first', () => {
    should(follow([connecting, streaming])).eql([true]);
  });

  it('calls again, not first, each time the stream is back after a gap', () => {
    should(follow([streaming, reconnecting, streaming, reconnecting, connecting, streaming])).eql([
      true,
      false,
      false,
    ]);
  });

  it('does not call for a repeated streaming condition without a gap', () => {
    should(follow([streaming, streaming])).eql([true]);
  });

  it('does not call while the stream never opens', () => {
    should(follow([connecting, reconnecting, { state: 'auth_failed' }])).eql([]);
  });
});
