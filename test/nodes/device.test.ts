import should from 'should';
import { type DeviceSimulator, startSimulator } from '../../src/simulator';
import { ENV_PORT, envReference } from '../support/settings-table';
import { shownStatusText } from '../support/status-text';
import {
  activeZoneNodeDef,
  allLogText,
  catchModule,
  counter,
  deviceConfig,
  everythingShown,
  helper,
  nodeModules,
  requestNodeDef,
  statusWhere,
  tab,
  until,
  useSimulator,
  zonesNodeDef,
} from './support';

const PASSWORD = 'Sup3r-Secret-Pw!';

function requestNode(id: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return requestNodeDef(id, 'out', extra);
}

const outNode = { id: 'out', type: 'helper', z: 'f1' };

describe('device config node (conference-audio-device)', () => {
  let sim: DeviceSimulator;

  useSimulator({ passwords: { general: PASSWORD } }, (started) => {
    sim = started;
  });

  it('shows connecting, then connected on every node using the device', async () => {
    await helper.load(
      nodeModules(),
      [tab, deviceConfig(sim), requestNode('n-a'), requestNode('n-b'), outNode],
      {
        device: { password: PASSWORD },
      },
    );
    const a = helper.getNode('n-a');
    const b = helper.getNode('n-b');
    const connecting = statusWhere(a, (s) => s.text === 'connecting');
    const connectedA = statusWhere(a, (s) => s.text === 'connected');
    const connectedB = statusWhere(b, (s) => s.text === 'connected');
    a.receive({});
    should((await connecting).fill).equal('yellow');
    should(await connectedA).containDeep({ fill: 'green', shape: 'dot', text: 'connected' });
    should((await connectedB).fill).equal('green');
  });

  it('shares one login between two nodes on one device', async () => {
    await helper.load(
      nodeModules(),
      [tab, deviceConfig(sim), requestNode('n-a'), zonesNodeDef('n-zones', 'out'), outNode],
      { device: { password: PASSWORD } },
    );
    const out = counter(helper.getNode('out'));
    helper.getNode('n-a').receive({});
    helper.getNode('n-zones').receive({});
    await until(() => out.count === 2, 'both answers');
    helper.getNode('n-a').receive({});
    await until(() => out.count === 3, 'a third answer');
    should(sim.counters.logins).equal(1);
  });

  it('shows auth failed for a wrong password and keeps the password out of every output', async () => {
    await helper.load(
      nodeModules(catchModule),
      [
        tab,
        deviceConfig(sim),
        requestNode('n-a'),
        outNode,
        { id: 'n-catch', type: 'catch', z: 'f1', scope: ['n-a'], uncaught: false, wires: [['failed']] },
        { id: 'failed', type: 'helper', z: 'f1' },
      ],
      { device: { password: `${PASSWORD}-wrong` } },
    );
    const a = helper.getNode('n-a');
    const failed = counter(helper.getNode('failed'));
    const status = statusWhere(a, (s) => s.text === 'auth failed');
    a.receive({});
    should((await status).fill).equal('red');
    await until(() => failed.count === 1, 'the caught error');
    should((failed.messages[0].error as { code: string }).code).equal('AUTH_FAILED');
    const everything = everythingShown('n-a', failed.messages);
    should(everything).not.containEql(PASSWORD);
  });

  it('shows unreachable when nothing answers at the address', async () => {
    const closed = await startSimulator({ port: 0 });
    const port = Number(new URL(closed.url).port);
    await closed.close();
    await helper.load(nodeModules(), [tab, { ...deviceConfig(sim), port }, requestNode('n-a'), outNode]);
    const a = helper.getNode('n-a');
    const status = statusWhere(a, (s) => s.text === 'unreachable');
    a.receive({});
    should((await status).fill).equal('red');
  });

  it('shows invalid configuration and fails inputs with INVALID_CONFIG for a bad host', async () => {
    await helper.load(nodeModules(catchModule), [
      tab,
      { ...deviceConfig(sim), host: 'http://bad host' },
      requestNode('n-a'),
      outNode,
      { id: 'n-catch', type: 'catch', z: 'f1', scope: ['n-a'], uncaught: false, wires: [['failed']] },
      { id: 'failed', type: 'helper', z: 'f1' },
    ]);
    const failed = counter(helper.getNode('failed'));
    helper.getNode('n-a').receive({});
    await until(() => failed.count === 1, 'the caught error');
    should((failed.messages[0].error as { code: string }).code).equal('INVALID_CONFIG');
    const statuses = (helper.getNode('n-a').status as unknown as { args: Array<[{ text?: string }]> }).args;
    should(statuses.map(([s]) => shownStatusText(s.text ?? ''))).containEql('invalid configuration');
  });

  describe('with environment variable references, substituted by Node-RED when the flow starts', () => {
    afterEach(() => {
      delete process.env[ENV_PORT];
    });

    it('connects to the port an environment variable names', async () => {
      process.env[ENV_PORT] = String(sim.port);
      await helper.load(
        nodeModules(),
        [tab, { ...deviceConfig(sim), port: envReference(ENV_PORT) }, requestNode('n-a'), outNode],
        { device: { password: PASSWORD } },
      );
      const out = counter(helper.getNode('out'));
      helper.getNode('n-a').receive({});
      await until(() => out.count === 1, 'the answer');
      should(out.messages[0].statusCode).equal(200);
    });

    it('fails with INVALID_CONFIG naming the port and the variable when it is not set', async () => {
      await helper.load(nodeModules(catchModule), [
        tab,
        { ...deviceConfig(sim), port: envReference(ENV_PORT) },
        requestNode('n-a'),
        outNode,
        { id: 'n-catch', type: 'catch', z: 'f1', scope: ['n-a'], uncaught: false, wires: [['failed']] },
        { id: 'failed', type: 'helper', z: 'f1' },
      ]);
      const failed = counter(helper.getNode('failed'));
      helper.getNode('n-a').receive({});
      await until(() => failed.count === 1, 'the caught error');
      const error = failed.messages[0].error as { code: string; message: string };
      should(error.code).equal('INVALID_CONFIG');
      should(error.message).match(new RegExp(`Port .*${ENV_PORT} is not set`));
    });
  });

  it('logs a fingerprint pinned on first use once, so the user can copy it', async () => {
    await helper.load(nodeModules(), [tab, deviceConfig(sim, { tls: 'pin' }), requestNode('n-a'), outNode], {
      device: { password: PASSWORD },
    });
    const out = counter(helper.getNode('out'));
    helper.getNode('n-a').receive({});
    helper.getNode('n-a').receive({});
    await until(() => out.count === 2, 'two answers');
    const lines = allLogText()
      .split('\n')
      .filter((line) => line.includes('Pinned the device certificate'));
    should(lines).have.length(1);
    should(lines[0]).containEql(sim.fingerprint256);
  });

  it('refuses a device whose certificate does not match the pinned fingerprint', async () => {
    await helper.load(
      nodeModules(),
      [tab, deviceConfig(sim, { tls: 'pin', fingerprint: 'AB'.repeat(32) }), requestNode('n-a'), outNode],
      { device: { password: PASSWORD } },
    );
    const a = helper.getNode('n-a');
    const status = statusWhere(a, (s) => s.text === 'certificate rejected');
    a.receive({});
    should((await status).fill).equal('red');
    should(sim.counters.logins).equal(0);
  });

  it('logs in afresh after a redeploy with a changed password', async () => {
    await helper.load(nodeModules(), [tab, deviceConfig(sim), requestNode('n-a'), outNode], {
      device: { password: PASSWORD },
    });
    let out = counter(helper.getNode('out'));
    helper.getNode('n-a').receive({});
    await until(() => out.count === 1, 'the first answer');
    await helper.unload();
    sim.setPassword('general', 'N3w-Password');
    await helper.load(nodeModules(), [tab, deviceConfig(sim), requestNode('n-a'), outNode], {
      device: { password: 'N3w-Password' },
    });
    out = counter(helper.getNode('out'));
    helper.getNode('n-a').receive({});
    await until(() => out.count === 1, 'the answer after redeploy');
    should(sim.counters.logins).equal(2);
  });

  it('reads the zones for its nodes a few times, not once per event, in a flood of unreadable layout events', async () => {
    await helper.load(
      nodeModules(),
      [
        tab,
        deviceConfig(sim),
        zonesNodeDef('n-zones', 'out', { output: 'changes', onStart: true }),
        activeZoneNodeDef('n-active', 'out'),
        outNode,
      ],
      { device: { password: PASSWORD } },
    );
    const out = counter(helper.getNode('out'));
    await until(() => out.count >= 1 && sim.openStreams === 2, 'the first read and both streams');
    sim.resetRecords();
    const zoneReads = () =>
      sim.requests.filter((request) => ['/api/v1/room/zones', '/api/v1/room/layout'].includes(request.path))
        .length;
    // 2,000 a second for 3 s, as a hostile device sent them, then a quiet second and a half.
    const flood = setInterval(() => {
      for (let index = 0; index < 100; index++) sim.emitChange('/api/v1/room/layout', 'not a layout');
    }, 50);
    await new Promise((resolve) => setTimeout(resolve, 3000)).finally(() => clearInterval(flood));
    await new Promise((resolve) => setTimeout(resolve, 1500));
    // Reads after events are a second apart at least, for each of the two caches that read the layout (the
    // zones, and the device state the active zone follows): one per second of flood and one after it, each.
    should(zoneReads()).be.within(1, 12);
  });
});
