import FakeTimers from '@sinonjs/fake-timers';
import should from 'should';
import { ResyncSchedule } from '../../src/device/state-resync';

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

  /** The state starts: the change stream opens and everything is read. */
  function startStreaming(): void {
    schedule.changesStreaming(true);
    schedule.restart();
  }

  it('reads a minute after the stream opened, then every 10 minutes while it streams without a break', async () => {
    startStreaming();
    await clock.tickAsync(25 * MINUTE);
    should(reads).eql([1, 11, 21]);
  });

  it('keeps the minute rhythm while the change stream is down', async () => {
    schedule.changesStreaming(false);
    schedule.restart();
    await clock.tickAsync(5 * MINUTE);
    should(reads).eql([1, 2, 3, 4, 5]);
  });

  it('reads a minute after the stream returns, and is stretched again once it streamed a whole minute', async () => {
    startStreaming();
    await clock.tickAsync(5 * MINUTE);
    should(reads).eql([1]);
    schedule.changesStreaming(false);
    await clock.tickAsync(1000);
    // The return reads everything (the device state does that), and puts the timed resync off a minute.
    schedule.changesStreaming(true);
    schedule.restart();
    const back = Date.now() / MINUTE;
    await clock.tickAsync(15 * MINUTE);
    should(reads).eql([1, back + 1, back + 11]);
  });

  it('keeps the minute rhythm for the interval in which the stream stopped, even when it is back by then', async () => {
    startStreaming();
    await clock.tickAsync(2 * MINUTE);
    should(reads).eql([1]);
    // A drop and a return inside one interval, whose return read this schedule does not see.
    await clock.tickAsync(MINUTE / 2);
    schedule.changesStreaming(false);
    schedule.changesStreaming(true);
    await clock.tickAsync(MINUTE / 2);
    should(reads).eql([1, 3]);
    await clock.tickAsync(5 * MINUTE);
    should(reads).eql([1, 3]);
  });

  /** A silent change stream reopened after `downMs`; its return reads everything (the device state does that). */
  async function reopenAfterSilence(downMs = 1000): Promise<void> {
    schedule.changesStreaming(false, true);
    await clock.tickAsync(downMs);
    schedule.changesStreaming(true);
    schedule.restart();
  }

  it('stays stretched across the reopen of a silent change stream, counting from its return', async () => {
    startStreaming();
    await clock.tickAsync(5 * MINUTE);
    await reopenAfterSilence();
    await clock.tickAsync(10 * MINUTE);
    // 5 minutes and a second of silence later, then ten minutes from the return's full read.
    should(reads).eql([1, (15 * MINUTE + 1000) / MINUTE]);
  });

  it('keeps the minute rhythm when the reopen of a silent change stream fails', async () => {
    startStreaming();
    await clock.tickAsync(5 * MINUTE);
    schedule.changesStreaming(false, true);
    // The reopen fails as well: the stream is down, not silent.
    schedule.changesStreaming(false, true);
    await clock.tickAsync(MINUTE / 2);
    schedule.changesStreaming(true);
    schedule.restart();
    const back = Date.now() / MINUTE;
    await clock.tickAsync(MINUTE);
    should(reads).eql([1, back + 1]);
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
