import FakeTimers from '@sinonjs/fake-timers';
import should from 'should';
import { STREAM_DEFAULTS } from '../../src/api/streams';
import { CHANGE_STREAM_IDLE_FACTOR } from '../../src/device/connection';
import { ResyncSchedule } from '../../src/device/state-resync';
import type { StreamCondition } from '../../src/device/stream-hub';

const MINUTE = 60_000;

describe('device/state-resync: the timed resync stretched while the change stream is steady', () => {
  let clock: ReturnType<typeof FakeTimers.install>;
  let reads: number[];
  let schedule: ResyncSchedule;

  beforeEach(() => {
    clock = FakeTimers.install({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    reads = [];
    schedule = new ResyncSchedule({ intervalMs: MINUTE, steadyIntervalMs: 10 * MINUTE }, async () => {
      reads.push(Date.now() / MINUTE);
    });
  });
  afterEach(() => {
    schedule.stop();
    clock.uninstall();
  });

  const STREAMING: StreamCondition = { state: 'streaming' };
  /** The stream broke off: the device ended it, or the network did. */
  const FAILED: StreamCondition = { state: 'reconnecting', retryInMs: 1000, code: 'UNREACHABLE' };
  /** Silent for its whole idle time: reopened. */
  const SILENT: StreamCondition = { state: 'reconnecting', retryInMs: 1000, code: 'TIMEOUT' };

  /** The state starts: the change stream opens and everything is read. */
  function startStreaming(): void {
    schedule.changesCondition({ state: 'connecting' });
    schedule.changesCondition(STREAMING);
    schedule.restart();
  }

  /** The stream comes back after `condition` and `downMs`; its return reads everything (the device state does that). */
  async function backAfter(condition: StreamCondition, downMs = 1000): Promise<void> {
    schedule.changesCondition(condition);
    await clock.tickAsync(downMs);
    schedule.changesCondition(STREAMING);
    schedule.restart();
  }

  it('reads every 10 minutes from the read at the open while the stream streams without a break', async () => {
    startStreaming();
    await clock.tickAsync(25 * MINUTE);
    should(reads).eql([10, 20]);
  });

  it('keeps the minute rhythm while the change stream is down', async () => {
    schedule.changesCondition(FAILED);
    schedule.restart();
    await clock.tickAsync(5 * MINUTE);
    should(reads).eql([1, 2, 3, 4, 5]);
  });

  it('reads a minute after the stream returns from a failure, and is stretched again once it streamed a whole minute', async () => {
    startStreaming();
    await clock.tickAsync(5 * MINUTE);
    should(reads).eql([]);
    await backAfter(FAILED);
    const back = Date.now() / MINUTE;
    await clock.tickAsync(15 * MINUTE);
    should(reads).eql([back + 1, back + 11]);
  });

  it('keeps the minute rhythm for the interval in which the stream failed, even when it is back by then', async () => {
    startStreaming();
    await clock.tickAsync(2 * MINUTE);
    // A failure and a return inside one interval, whose return read this schedule does not see.
    await clock.tickAsync(MINUTE / 2);
    schedule.changesCondition(FAILED);
    schedule.changesCondition(STREAMING);
    await clock.tickAsync(MINUTE / 2);
    should(reads).eql([3]);
    await clock.tickAsync(5 * MINUTE);
    should(reads).eql([3]);
  });

  it('stays stretched across the reopen of a silent change stream, counting from its return', async () => {
    startStreaming();
    await clock.tickAsync(5 * MINUTE);
    await backAfter(SILENT);
    await clock.tickAsync(10 * MINUTE);
    // Ten minutes from the return's full read, 5 minutes and a second after the start.
    should(reads).eql([(15 * MINUTE + 1000) / MINUTE]);
  });

  it("reads nothing of its own in a quiet room at the defaults: the silent change stream's reopen reads first", async () => {
    schedule.stop();
    schedule = new ResyncSchedule({}, async () => {
      reads.push(Date.now() / MINUTE);
    });
    startStreaming();
    const silenceMs = STREAM_DEFAULTS.idleTimeoutMs * CHANGE_STREAM_IDLE_FACTOR;
    for (let reopen = 0; reopen < 3; reopen++) {
      await clock.tickAsync(silenceMs);
      await backAfter(SILENT);
    }
    should(reads).eql([]);
  });

  it('keeps the minute rhythm when the reopen of a silent change stream fails', async () => {
    startStreaming();
    await clock.tickAsync(5 * MINUTE);
    schedule.changesCondition(SILENT);
    // The reopen times out as well: the stream is down, not silent.
    await backAfter(SILENT, MINUTE / 2);
    const back = Date.now() / MINUTE;
    await clock.tickAsync(MINUTE);
    should(reads).eql([back + 1]);
  });

  it('never waits longer than the interval itself when the steady interval is shorter', async () => {
    schedule.stop();
    schedule = new ResyncSchedule({ intervalMs: MINUTE, steadyIntervalMs: 1000 }, async () => {
      reads.push(Date.now() / MINUTE);
    });
    startStreaming();
    await clock.tickAsync(3 * MINUTE);
    should(reads).eql([1, 2, 3]);
  });
});

describe('device/state-resync: timers and the wall clock', () => {
  // Timers run on the monotonic clock, Date.now() on the wall clock: each rounds to its own millisecond,
  // so a timer may run when the wall clock says a millisecond less has passed. Two fake clocks, one each.
  let timers: ReturnType<typeof FakeTimers.install>;
  let wallClock: ReturnType<typeof FakeTimers.install>;

  beforeEach(() => {
    timers = FakeTimers.install({ toFake: ['setTimeout', 'clearTimeout'] });
    wallClock = FakeTimers.install({ toFake: ['Date'] });
  });
  afterEach(() => {
    wallClock.uninstall();
    timers.uninstall();
  });

  it('reads when its timer runs a millisecond early by the wall clock, with the steady interval equal to the interval', async () => {
    let reads = 0;
    const schedule = new ResyncSchedule({ intervalMs: MINUTE, steadyIntervalMs: MINUTE }, async () => {
      reads++;
    });
    try {
      schedule.changesCondition({ state: 'streaming' });
      schedule.restart();
      wallClock.tick(MINUTE - 1);
      await timers.tickAsync(MINUTE);
      should(reads).equal(1);
    } finally {
      schedule.stop();
    }
  });
});
