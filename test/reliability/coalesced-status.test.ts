import FakeTimers from '@sinonjs/fake-timers';
import should from 'should';
import {
  CoalescedStatus,
  STATUS_INTERVAL_MS,
  type StatusLike,
} from '../../src/nodes/status/coalesced-status';

describe('coalesced node status (a status storm must not fill the editor queue)', () => {
  let clock: ReturnType<typeof FakeTimers.install>;
  let shown: StatusLike[];
  let status: CoalescedStatus<StatusLike>;

  beforeEach(() => {
    clock = FakeTimers.install({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    shown = [];
    status = new CoalescedStatus((next) => shown.push(next));
  });
  afterEach(() => {
    status.close();
    clock.uninstall();
  });

  const muted = { fill: 'yellow', shape: 'dot', text: 'microphone muted' };
  const streaming = { fill: 'green', shape: 'dot', text: 'streaming' };

  it('shows the first status at once', () => {
    status.set(streaming);
    should(shown).eql([streaming]);
  });

  it('shows a flood of alternating statuses a few times a second, the latest winning', () => {
    for (let i = 0; i < 23_000; i++) {
      status.set(i % 2 === 0 ? muted : streaming);
      clock.tick(1000 / 23_000);
    }
    should(shown.length).be.belowOrEqual(1000 / STATUS_INTERVAL_MS + 1);
    clock.tick(STATUS_INTERVAL_MS);
    should(shown.at(-1)).eql(streaming);
  });

  it('never shows the same status twice in a row', () => {
    status.set(streaming);
    clock.tick(STATUS_INTERVAL_MS);
    status.set(streaming);
    clock.tick(STATUS_INTERVAL_MS);
    should(shown).have.length(1);
  });

  it('shows nothing after close', () => {
    status.set(streaming);
    status.set(muted);
    status.close();
    clock.tick(STATUS_INTERVAL_MS);
    should(shown).eql([streaming]);
  });
});
