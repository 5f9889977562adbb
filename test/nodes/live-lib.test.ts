import should from 'should';
import { streamErrorReporter, worstCondition } from '../../src/device/stream-status';
import { DeviceError } from '../../src/errors';
import { streamStatus } from '../../src/nodes/conference-audio-device/stream-status-view';
import { readLiveEvents } from '../../src/nodes/conference-audio-events/definition';
import { readNonNegative } from '../../src/nodes/settings/node-settings';
import { MAX_MESSAGE_RATE, RateWindow } from '../../src/timing/rate-window';

describe('nodes/lib: live nodes', () => {
  describe('RateWindow', () => {
    it('lets at most the rate pass in any second, and the next once the oldest is a second old', () => {
      const window = new RateWindow(5);
      const passed = [0, 100, 200, 300, 400, 500, 999, 1000, 1050, 1100].filter((at) => window.admit(at));
      should(passed).eql([0, 100, 200, 300, 400, 1000, 1100]);
      should(window.dropped).equal(3);
    });

    it('passes a steady 5 a second at rate 5 without a loss', () => {
      const window = new RateWindow(5);
      const times = Array.from({ length: 50 }, (_, index) => index * 200);
      should(times.every((at) => window.admit(at))).be.true();
    });

    it('with rate 0 lets everything pass; below 1 a second spaces them out', () => {
      const all = new RateWindow(0);
      should([0, 0, 0, 1].every((at) => all.admit(at))).be.true();
      const slow = new RateWindow(0.5);
      should([0, 1000, 1999, 2000].filter((at) => slow.admit(at))).eql([0, 2000]);
    });

    it('refuses a negative or non-numeric rate', () => {
      should(() => new RateWindow(-1)).throw(RangeError);
      should(() => new RateWindow(Number.NaN)).throw(RangeError);
    });

    it('refuses a rate so high that its window would keep unbounded times', () => {
      should(() => new RateWindow(1e308)).throw(RangeError);
      should(() => new RateWindow(MAX_MESSAGE_RATE)).not.throw();
    });
  });

  describe('settings of the live nodes', () => {
    it('reads the events as an array or a comma-separated text, the default when absent', () => {
      should(readLiveEvents(undefined)).eql({ ok: true, value: ['soundLocation'] });
      should(readLiveEvents(['deviceMetrics', 'changes'])).eql({
        ok: true,
        value: ['deviceMetrics', 'changes'],
      });
      should(readLiveEvents('soundLocation, changes')).eql({ ok: true, value: ['soundLocation', 'changes'] });
    });

    it('names an unknown event and falls back to the known ones, or the default', () => {
      const mixed = readLiveEvents(['changes', 'talker']);
      should(mixed).have.properties({ ok: false, fallback: ['changes'] });
      should((mixed as { reason: string }).reason).match(/"talker"/);
      should(readLiveEvents([])).have.properties({ ok: false, fallback: ['soundLocation'] });
      should(readLiveEvents(42)).have.properties({ ok: false, fallback: ['soundLocation'] });
    });

    it('reads numbers from text and refuses negatives', () => {
      should(readNonNegative('2.5', 5, 'Rate')).eql({ ok: true, value: 2.5 });
      should(readNonNegative('', 5, 'Rate')).eql({ ok: true, value: 5 });
      should(readNonNegative(-1, 5, 'Rate')).have.properties({ ok: false, fallback: 5 });
      should(readNonNegative('soon', 5, 'Rate')).have.properties({ ok: false, fallback: 5 });
    });
  });

  describe('stream status', () => {
    it('shows the wait before the next attempt in whole seconds, with the code', () => {
      should(streamStatus({ state: 'reconnecting', retryInMs: 2100, code: 'UNREACHABLE' })).eql({
        fill: 'red',
        shape: 'ring',
        key: 'stream.reconnecting',
        params: { seconds: 3, code: 'UNREACHABLE' },
      });
      should(streamStatus({ state: 'reconnecting', retryInMs: 10, code: undefined }).params).eql({
        seconds: 1,
        code: 'UNREACHABLE',
      });
    });

    it('tells streaming, muted and auth failed apart', () => {
      should(streamStatus({ state: 'streaming' }).key).equal('stream.streaming');
      should(streamStatus({ state: 'muted' }).key).equal('stream.muted');
      should(streamStatus({ state: 'auth_failed' }).key).equal('stream.authFailed');
    });

    it('reports a stream that cannot be opened once per code, and a drop of a healthy stream not at all', () => {
      const reported: string[] = [];
      const report = streamErrorReporter((error) => reported.push(error.code));
      const failing = (code: 'UNREACHABLE' | 'AUTH_FAILED' | 'RATE_LIMITED') =>
        ({ state: 'reconnecting', retryInMs: 1000, code, error: new DeviceError(code, 'x') }) as const;
      report({ state: 'connecting' });
      report(failing('UNREACHABLE'));
      report(failing('UNREACHABLE'));
      report(failing('RATE_LIMITED'));
      should(reported).eql(['UNREACHABLE', 'RATE_LIMITED']);
      report({ state: 'streaming' });
      report(failing('UNREACHABLE'));
      should(reported).eql(['UNREACHABLE', 'RATE_LIMITED']);
      report(failing('UNREACHABLE'));
      report({ state: 'auth_failed', error: new DeviceError('AUTH_FAILED', 'refused') });
      should(reported).eql(['UNREACHABLE', 'RATE_LIMITED', 'UNREACHABLE', 'AUTH_FAILED']);
    });

    it('shows the worse of two streams', () => {
      const both = new Map([
        ['data', { state: 'muted' }],
        ['changes', { state: 'streaming' }],
      ] as const);
      should(worstCondition(both)).eql({ state: 'muted' });
      should(worstCondition(new Map([['changes', { state: 'auth_failed' }]] as const))).eql({
        state: 'auth_failed',
      });
    });
  });
});
