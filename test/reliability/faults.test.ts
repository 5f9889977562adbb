/**
 * What happens to a deployed flow over months: the device is down at deploy, reboots, gets a new
 * password, limits requests, answers slowly, breaks off mid-answer or resets the connection. Each case runs
 * through the nodes against the simulator's fault controls and ends with the same flow serving the next
 * input; the harness checks that no secret was shown along the way.
 *
 * Simulated time: the client's login backoff and rate-limit pause read `Date.now()` and the zones node polls
 * with `setInterval`, so those two are faked where minutes must pass. Real timers keep running for sockets
 * and request timeouts, and the simulator's rate-limit window keeps the real monotonic clock.
 */
import FakeTimers from '@sinonjs/fake-timers';
import should from 'should';
import { delay, helper } from '../nodes/support';
import { freePort } from '../support/wait';
import { DeviceFlow, waitFor, ZONES_PATH, zonesNode } from './device-flows';
import { useReliabilityHarness } from './harness';

const LOGIN_PATH = '/api/v1/auth/login';
const NEW_PASSWORD = 'N3w-Rel!ability-9zK';

/** Whether `texts` holds `expected` in this order, other texts allowed in between. */
function inOrder(texts: readonly string[], expected: readonly (string | RegExp)[]): boolean {
  let at = 0;
  for (const text of texts) {
    const want = expected[at];
    if (want !== undefined && (typeof want === 'string' ? text === want : want.test(text))) at += 1;
  }
  return at === expected.length;
}

describe('reliability: device faults through the nodes', () => {
  const rig = useReliabilityHarness();

  it('recovers without a redeploy from a device that was down at deploy, showing each state', async () => {
    const port = await freePort();
    helper.settings({ conferenceAudioZonesMinInterval: 0.05 });
    const flow = await DeviceFlow.deploy(rig, zonesNode({ interval: 0.05, onStart: true }), {
      device: { port },
    });
    await waitFor(() => flow.statusTexts().includes('unreachable'), 'the unreachable status');
    await waitFor(() => flow.failed.count === 1, 'the error of the first poll');
    should(flow.failed.messages.map((msg) => (msg.error as { code: string }).code)).eql(['UNREACHABLE']);

    await rig.startSimulator({ port });
    await waitFor(() => flow.outputs.count > 0, 'the first read after the device came up');
    should(
      inOrder(flow.statusTexts(), ['connecting', 'unreachable', 'connecting', 'connected', /^3 zones · /]),
    ).be.true(`status texts: ${flow.statusTexts().join(' | ')}`);
    // A poll that fails again would report to Catch a second time.
    should(flow.failed.count).equal(1);
    should((await flow.serves()).payload).have.length(3);
  });

  it('logs in exactly once more after a device reboot, and the read succeeds', async () => {
    const flow = await DeviceFlow.deploy(rig, zonesNode());
    await flow.serves();
    rig.simulator.reboot();
    should((await flow.serves()).payload).have.length(3);
    should(rig.simulator.counters.logins).equal(2);
    should(rig.simulator.counters.failedLogins).equal(0);
    await flow.serves();
    should(rig.simulator.counters.logins).equal(2);
  });

  it('shows auth failed after the password changed and, polling every 5 s, logs in at most once a minute', async () => {
    rig.watch.addSecret('the new password', NEW_PASSWORD);
    const clock = FakeTimers.install({
      toFake: ['Date', 'setInterval', 'clearInterval'],
      shouldClearNativeTimers: true,
    });
    try {
      const flow = await DeviceFlow.deploy(rig, zonesNode({ interval: 5, onStart: true }));
      await waitFor(() => flow.outputs.count === 1, 'the read after deploy');
      rig.simulator.setPassword('general', NEW_PASSWORD);
      // Each failed poll shows the fault in the device node's words (the device node's own status adds one).
      const failedPolls = () => flow.statuses.filter((status) => status.text === 'auth failed').length;
      const polls = 120;
      for (let poll = 1; poll <= polls; poll += 1) {
        clock.tick(5000);
        await waitFor(() => failedPolls() >= poll, `poll #${poll}`);
      }
      const attempts = rig.simulator.requests
        .filter((request) => request.path === LOGIN_PATH && request.status === 401)
        .map((request) => request.time);
      // Ten simulated minutes: the pause after each refusal doubles from 1 s to its 60 s cap, so about six
      // attempts while it grows, then one a minute; never one per poll.
      should(attempts.length).be.within(8, 16);
      const gaps = attempts.slice(1).map((time, index) => time - (attempts[index] ?? 0));
      should(gaps.slice(-5).every((gap) => gap >= 60_000)).be.true(
        `gaps between attempts: ${gaps.join(', ')} ms`,
      );
      should(flow.statusTexts()).containEql('auth failed');
      should(flow.failed.messages.map((msg) => (msg.error as { code: string }).code)).eql(['AUTH_FAILED']);
      should(rig.simulator.counters.logins).equal(1);
    } finally {
      // The poller's fake interval is cleared while the fake clock still owns it.
      await helper.unload();
      clock.uninstall();
    }
  });

  it('fails with AUTH_FAILED once the password changed and serves again after a redeploy with the new one', async () => {
    const flow = await DeviceFlow.deploy(rig, zonesNode());
    await flow.serves();
    rig.simulator.setPassword('general', NEW_PASSWORD);
    should(await flow.fails('AUTH_FAILED')).match(/Login refused: wrong password for account 'general'/);
    should(await flow.fails('AUTH_FAILED')).match(/not asking the device again/);
    should(rig.simulator.counters.failedLogins).equal(1);
    should(flow.statusTexts()).containEql('auth failed');

    await helper.unload();
    const redeployed = await DeviceFlow.deploy(rig, zonesNode(), { password: NEW_PASSWORD });
    should((await redeployed.serves()).payload).have.length(3);
    should(rig.simulator.counters.logins).equal(2);
  });

  it('backs off when the device limits requests, never shows auth failed, and reads again once allowed', async () => {
    const clock = FakeTimers.install({ toFake: ['Date'] });
    try {
      const flow = await DeviceFlow.deploy(rig, zonesNode());
      rig.simulator.setRateLimit(3);
      await flow.serves();
      await flow.serves();
      should(await flow.fails('RATE_LIMITED')).match(/limiting requests/);
      should(flow.statusTexts()).containEql('rate limited');

      // Simulated time stands still, so the client's pause has not passed: the input waits in the client.
      const sent = rig.simulator.requests.length;
      const waiting = flow.input();
      await delay(100);
      should(rig.simulator.requests.length).equal(sent);
      // A minute passes: the client's pause (on Date) ends, and the device's window (on the monotonic
      // clock, left real) is cleared as the minute would clear it. The client's timer lets the input go.
      clock.tick(61_000);
      rig.simulator.setRateLimit(3);
      should((await waiting).kind).equal('output');
      should((await flow.serves()).payload).have.length(3);

      should(rig.simulator.counters.logins).equal(1);
      should(flow.statusTexts()).not.containEql('auth failed');
      should(flow.failed.messages.map((msg) => (msg.error as { code: string }).code)).eql(['RATE_LIMITED']);
    } finally {
      clock.uninstall();
    }
  });

  it('fails with TIMEOUT on a slow device, shows timeout, and serves the next input normally', async () => {
    const flow = await DeviceFlow.deploy(rig, zonesNode(), { device: { timeout: 0.5 } });
    await flow.serves();
    rig.simulator.setFault({ kind: 'latency', ms: 60_000, path: ZONES_PATH });
    should(await flow.fails('TIMEOUT')).match(/did not answer within 0.5 s/);
    should(flow.statusTexts()).containEql('timeout');
    rig.simulator.setFault(null);
    should((await flow.serves()).payload).have.length(3);
  });

  it('fails with BAD_RESPONSE for an answer cut off mid-body, and serves the next input normally', async () => {
    const flow = await DeviceFlow.deploy(rig, zonesNode());
    rig.simulator.setFault({ kind: 'cut-off', path: ZONES_PATH, times: 1 });
    should(await flow.fails('BAD_RESPONSE')).match(
      /GET \/api\/v1\/room\/zones broke off after \d+ of \d+ bytes/,
    );
    should((await flow.serves()).payload).have.length(3);
  });

  it('fails with UNREACHABLE for a connection reset, and serves the next input normally', async () => {
    const flow = await DeviceFlow.deploy(rig, zonesNode());
    rig.simulator.setFault({ kind: 'reset', path: ZONES_PATH, times: 1 });
    await flow.fails('UNREACHABLE');
    should(flow.statusTexts()).containEql('unreachable');
    should((await flow.serves()).payload).have.length(3);
    should(flow.statusTexts().at(-1)).match(/^3 zones · /);
  });
});
