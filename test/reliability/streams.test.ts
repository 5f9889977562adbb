/**
 * The live streams over a real network's bad days, through the nodes against the simulator: dropped and
 * stalled connections, a rebooted device, a changed password, a device that refuses more connections, and
 * many redeploys. The harness checks after each test that no secret was shown along the way.
 */
import should from 'should';
import {
  activeZoneNodeDef,
  catchModule,
  counter,
  deviceConfig,
  eventsNodeDef,
  helper,
  nodeModules,
  tab,
  translate,
  until,
} from '../nodes/support';
import { shownStatusText } from '../support/status-text';
import { useReliabilityHarness } from './harness';
import { fullDeploy } from './rig';

const STREAMING = translate('conference-audio-device.stream.streaming');
const AUTH_FAILED = translate('conference-audio-device.stream.authFailed');
const NEW_PASSWORD = 'N3w-Str3am!pass-4qW';
const IN_PRESENTER = { x: 0, y: 1500, powerLevel: 40 };

describe('reliability: live streams', () => {
  const rig = useReliabilityHarness({ talker: 'still', soundLocationIntervalMs: 20, metricsIntervalMs: 100 });

  /** One events node (`n-events` -> `out`) on the harness's simulator; its status texts as they change. */
  async function deploy(extra: Record<string, unknown> = {}) {
    rig.simulator.placeTalker(IN_PRESENTER);
    await helper.load(
      nodeModules(catchModule),
      [
        tab,
        deviceConfig(rig.simulator),
        eventsNodeDef('n-events', 'out', { rate: 0, ...extra }),
        { id: 'out', type: 'helper', z: 'f1' },
        { id: 'n-catch', type: 'catch', z: 'f1', scope: ['n-events'], uncaught: false, wires: [['failed']] },
        { id: 'failed', type: 'helper', z: 'f1' },
      ],
      rig.credentials(),
    );
    const out = counter(helper.getNode('out'));
    const failed = counter(helper.getNode('failed'));
    const statuses: string[] = [];
    helper.getNode('n-events').on('call:status', (call: never) => {
      const text = shownStatusText((call as { args: [{ text?: string }] }).args[0]?.text ?? '');
      if (statuses.at(-1) !== text) statuses.push(text);
    });
    await until(() => out.count > 0, 'the first event');
    return { out, statuses, failed };
  }

  it('reconnects after a dropped connection, showing the wait, and the events go on', async () => {
    const { out, statuses, failed } = await deploy();
    rig.simulator.dropStreams();
    await until(() => statuses.some((text) => / in \d+ s$/.test(text)), 'the reconnecting status');
    const before = out.count;
    await until(
      () => statuses.at(-1) === STREAMING && out.count > before + 3,
      'events after the reconnect',
      10000,
    );
    should(rig.simulator.counters.streamConnections).equal(2);
    // A blip the stream recovered from is shown, not reported as an error of the flow.
    should(failed.count).equal(0);
  });

  it('reconnects after a stall: headers, then no byte for the idle timeout', async () => {
    helper.settings({ conferenceAudioDeviceStreamIdleTimeout: 0.2 });
    const { out, statuses } = await deploy();
    rig.simulator.stallStreams(true);
    await until(() => statuses.some((text) => / in \d+ s$/.test(text)), 'the reconnecting status');
    rig.simulator.stallStreams(false);
    const before = out.count;
    await until(
      () => statuses.at(-1) === STREAMING && out.count > before + 3,
      'events after the stall',
      10000,
    );
  });

  it('waits longer after each failed attempt: no reconnect storm', async () => {
    helper.settings({ conferenceAudioDeviceStreamIdleTimeout: 0.1 });
    const { statuses } = await deploy();
    rig.simulator.stallStreams(true);
    const waits = () =>
      statuses
        .map((text) => / in (\d+) s$/.exec(text)?.[1])
        .filter((wait) => wait !== undefined)
        .map(Number);
    await until(() => waits().length >= 3, 'three reconnect waits', 10000);
    const [first = 0, second = 0, third = 0] = waits();
    // Doubling with jitter of at most half: 1 s, then 1 to 2 s, then 2 to 4 s.
    should(second).be.aboveOrEqual(first);
    should(third).be.above(first);
    // One connection per attempt, none in between.
    should(rig.simulator.counters.streamConnections).be.belowOrEqual(waits().length + 1);
  });

  it('reconnects after the device ends the response', async () => {
    const { out } = await deploy();
    rig.simulator.endStreams();
    await until(() => rig.simulator.counters.streamConnections === 2, 'the second connection', 10000);
    const before = out.count;
    await until(() => out.count > before + 3, 'events after the reconnect');
  });

  it('logs in once more after a device reboot and streams on', async () => {
    const { out, statuses } = await deploy();
    rig.simulator.reboot();
    rig.simulator.dropStreams();
    const before = out.count;
    await until(() => out.count > before + 3, 'events after the re-login', 10000);
    should(rig.simulator.counters.logins).equal(2);
    should(rig.simulator.counters.failedLogins).equal(0);
    should(statuses).not.containEql(AUTH_FAILED);
  });

  it('after a password change logs in once more, then shows "auth failed" without a login storm', async () => {
    const { statuses, failed } = await deploy();
    rig.watch.addSecret('the new password', NEW_PASSWORD);
    rig.simulator.setPassword('general', NEW_PASSWORD);
    rig.simulator.dropStreams();
    await until(() => statuses.at(-1) === AUTH_FAILED, 'the auth failed status', 10000);
    should(rig.simulator.counters.failedLogins).equal(1);
    // One error for a Catch node, with the code a flow switches on; the drop before it was none.
    await until(() => failed.count === 1, 'the error at the Catch node');
    should((failed.messages[0]?.error as { code?: string } | undefined)?.code).equal('AUTH_FAILED');
  });

  it('reads a refused connection (429) as "wait", never as a login failure, and keeps within the limit', async () => {
    const { statuses } = await deploy();
    // The device's limit is now the one connection already made: every reconnect is refused for a while.
    const limited = await rig.startSimulator({
      talker: 'still',
      soundLocationIntervalMs: 20,
      streamConnectionsPerMinute: 1,
    });
    await helper.unload();
    await helper.load(
      nodeModules(),
      [
        tab,
        deviceConfig(limited),
        eventsNodeDef('n-events', 'out', { rate: 0 }),
        { id: 'out', type: 'helper', z: 'f1' },
      ],
      rig.credentials(),
    );
    const texts: string[] = [];
    helper.getNode('n-events').on('call:status', (call: never) => {
      texts.push(shownStatusText((call as { args: [{ text?: string }] }).args[0]?.text ?? ''));
    });
    await until(() => limited.openStreams === 1, 'the one allowed stream');
    limited.dropStreams();
    await until(
      () => texts.some((text) => text.startsWith('RATE_LIMITED')),
      'the rate-limited status',
      10000,
    );
    should(texts).not.containEql(AUTH_FAILED);
    should(statuses).not.containEql(AUTH_FAILED);
    should(limited.counters.failedLogins).equal(0);
  });

  it('100 redeploys of ten live nodes leave no stream open', async () => {
    // A device that allows the 200 connections 100 deploys make in a few seconds.
    const device = await rig.startSimulator({
      talker: 'still',
      soundLocationIntervalMs: 20,
      streamConnectionsPerMinute: 100_000,
    });
    device.placeTalker(IN_PRESENTER);
    const flow = [
      tab,
      deviceConfig(device),
      ...Array.from({ length: 5 }, (_, index) => eventsNodeDef(`n-events-${index}`, 'out')),
      ...Array.from({ length: 5 }, (_, index) => activeZoneNodeDef(`n-zone-${index}`, 'out', { hold: 0 })),
      { id: 'out', type: 'helper', z: 'f1' },
    ];
    await helper.load(nodeModules(), flow, rig.credentials());
    for (let deploy = 0; deploy < 100; deploy++) await fullDeploy(flow, rig.credentials());
    // The last deploy holds one data stream and one change stream for its ten nodes.
    await until(() => device.openStreams === 2, 'the data and change streams of the last deploy');
    await helper.unload();
    await until(() => device.openStreams === 0, 'every stream closed after the last unload');
  });
});
