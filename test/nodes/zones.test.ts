import should from 'should';
import { type DeviceSimulator, sampleZones } from '../../src/simulator';
import { shownStatusText } from '../support/status-text';
import {
  catchModule,
  collect,
  completeModule,
  counter,
  delay,
  deviceConfig,
  doneWatchers,
  helper,
  joinModule,
  nodeModules,
  statusWhere,
  tab,
  until,
  useSimulator,
  zonesNodeDef,
} from './support';

const ZONES_PATH = '/api/v1/room/zones';

function zonesNode(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return zonesNodeDef('n-zones', 'out', extra);
}

const outNode = { id: 'out', type: 'helper', z: 'f1' };

/** Loads a zones node in changes mode; resolves once it has read the zones and opened its change stream. */
async function followChanges(sim: DeviceSimulator): Promise<ReturnType<typeof counter>> {
  await helper.load(nodeModules(), [
    tab,
    deviceConfig(sim),
    zonesNode({ output: 'changes', onStart: true }),
    outNode,
  ]);
  const out = counter(helper.getNode('out'));
  await until(() => out.count === 1 && sim.openStreams === 1, 'the first read and the change stream');
  return out;
}

/** How many times the simulator has been asked for its zones so far. */
function zonesReads(sim: DeviceSimulator): number {
  return sim.requests.filter((request) => request.path === ZONES_PATH).length;
}

function zone(id: string, label: string, x: number): Record<string, unknown> {
  return {
    types: ['Switching'],
    geometry: { point1: { x, y: 0 }, point2: { x: x + 1000, y: 1000 } },
    label,
    id,
  };
}

describe('room zones node (conference-audio-zones)', () => {
  let sim: DeviceSimulator;

  useSimulator({}, (started) => {
    sim = started;
  });

  it('answers an input message with all zones and their geometry, keeping the message', async () => {
    await helper.load(nodeModules(), [tab, deviceConfig(sim), zonesNode(), outNode]);
    const received = collect(helper.getNode('out'), 1);
    helper.getNode('n-zones').receive({ payload: 'go', _msgid: 'm1', custom: 42 });
    const [msg] = await received;
    should(msg._msgid).equal('m1');
    should(msg.custom).equal(42);
    should(msg.topic).equal('zones');
    should(msg.source).equal('zones');
    const zones = msg.payload as Array<Record<string, unknown>>;
    should(zones).have.length(sampleZones().length);
    should(zones[0]).containDeep(sampleZones()[0] as Record<string, unknown>);
    should(zones[0]).have.properties(['bounds', 'width', 'height', 'centre', 'area']);
    should(msg).not.have.property('warnings');
  });

  it('in map mode sends the room map as SVG with every zone label, and the zones beside it', async () => {
    sim.setZones([zone('z1', 'Stage <left>', 0), zone('z2', 'Seats & aisle', 2000)]);
    await helper.load(nodeModules(), [tab, deviceConfig(sim), zonesNode({ output: 'map' }), outNode]);
    const received = collect(helper.getNode('out'), 1);
    helper.getNode('n-zones').receive({ payload: 'go' });
    const [msg] = await received;
    const svg = msg.payload as string;
    should(svg.trim()).startWith('<svg').and.endWith('</svg>');
    should(svg).containEql('Stage &lt;left&gt;').and.containEql('Seats &amp; aisle');
    should(msg.zones).have.length(2);
    should((msg.zones as Array<Record<string, unknown>>)[0]).have.property('bounds');
  });

  it('adds msg.warnings when the configuration breaks a rule (9 zones)', async () => {
    sim.setZones(Array.from({ length: 9 }, (_, i) => zone(`z${i}`, `Zone ${i}`, i * 2000)));
    await helper.load(nodeModules(), [tab, deviceConfig(sim), zonesNode(), outNode]);
    const received = collect(helper.getNode('out'), 1);
    helper.getNode('n-zones').receive({});
    const [msg] = await received;
    should(msg.payload).have.length(9);
    should((msg.warnings as Array<{ code: string }>).map((w) => w.code)).containEql('TOO_MANY_ZONES');
  });

  it('shows the zone count and the time of the last read as status', async () => {
    await helper.load(nodeModules(), [tab, deviceConfig(sim), zonesNode(), outNode]);
    const zones = helper.getNode('n-zones');
    const status = statusWhere(zones, (s) => typeof s.text === 'string' && s.text.startsWith('3 zones · '));
    zones.receive({ payload: 'go' });
    const shown = await status;
    should(shown.text).match(/^3 zones · \d\d:\d\d:\d\d$/);
    should(shown.fill).equal('green');
  });

  it('never shows the same read status twice in a row, however fast the reads come', async () => {
    await helper.load(nodeModules(), [tab, deviceConfig(sim), zonesNode(), outNode]);
    const zones = helper.getNode('n-zones');
    const shown: unknown[] = [];
    zones.on('call:status', (call: { args: Array<{ text?: unknown }> }) => {
      shown.push(call.args[0]?.text);
    });
    const received = collect(helper.getNode('out'), 5);
    for (let read = 0; read < 5; read++) zones.receive({ payload: read });
    await received;
    const reads = shown.filter(
      (text) => typeof text === 'string' && shownStatusText(text).startsWith('3 zones · '),
    );
    should(reads.length).be.above(0);
    reads.forEach((text, index) => {
      if (index > 0) should(text).not.equal(reads[index - 1]);
    });
  });

  it('shows the zone count of the latest read when the zones changed since the previous one', async () => {
    await helper.load(nodeModules(), [tab, deviceConfig(sim), zonesNode(), outNode]);
    const zones = helper.getNode('n-zones');
    const first = statusWhere(zones, (s) => typeof s.text === 'string' && s.text.startsWith('3 zones · '));
    zones.receive({ payload: 'first' });
    await first;
    sim.setZones([zone('z1', 'Stage', 0), zone('z2', 'Seats', 2000)]);
    const second = statusWhere(zones, (s) => typeof s.text === 'string' && s.text.startsWith('2 zones · '));
    zones.receive({ payload: 'second' });
    should((await second).text).match(/^2 zones · \d\d:\d\d:\d\d$/);
  });

  it('sends one message per zone that a join node in automatic mode rebuilds into the array', async () => {
    const join = {
      id: 'n-join',
      type: 'join',
      z: 'f1',
      mode: 'auto',
      build: 'array',
      property: 'payload',
      propertyType: 'msg',
      key: 'topic',
      joiner: '\\n',
      joinerType: 'str',
      accumulate: false,
      timeout: '',
      count: '',
      reduceRight: false,
      wires: [['joined']],
    };
    await helper.load(nodeModules(joinModule), [
      tab,
      deviceConfig(sim),
      zonesNode({ output: 'each', wires: [['out', 'n-join']] }),
      outNode,
      join,
      { id: 'joined', type: 'helper', z: 'f1' },
    ]);
    const single = collect(helper.getNode('out'), 3);
    const joined = collect(helper.getNode('joined'), 1);
    helper.getNode('n-zones').receive({ payload: 'go', custom: 'kept' });
    const parts = await single;
    const ids = sampleZones().map((z) => (z as { id: string }).id);
    should(parts.map((m) => m.topic)).eql(ids.map((id) => `zones/${id}`));
    should(parts.map((m) => (m.parts as { index: number }).index)).eql([0, 1, 2]);
    should(parts.every((m) => m.custom === 'kept')).be.true();
    const [rebuilt] = await joined;
    should((rebuilt.payload as Array<{ id: string }>).map((z) => z.id)).eql(ids);
  });

  it('in each mode makes a zone id with a NUL, a wildcard or a slash one safe topic level, warning once', async () => {
    sim.setZones([zone('desk\u0000#/1', 'Desk', 0)]);
    await helper.load(nodeModules(), [tab, deviceConfig(sim), zonesNode({ output: 'each' }), outNode]);
    const out = counter(helper.getNode('out'));
    const zonesNodeUnderTest = helper.getNode('n-zones');
    zonesNodeUnderTest.receive({});
    zonesNodeUnderTest.receive({});
    await until(() => out.count === 2, 'two reads');
    should(out.messages.map((msg) => msg.topic)).eql(['zones/desk__1', 'zones/desk__1']);
    const warnings = (zonesNodeUnderTest.warn as unknown as { getCalls(): { args: unknown[] }[] })
      .getCalls()
      .map((call) => String(call.args[0]));
    should(warnings.filter((text) => text.includes('desk'))).have.length(1);
  });

  it('in changes mode reports all zones as added first, then only real changes', async () => {
    await helper.load(nodeModules(completeModule, catchModule), [
      tab,
      deviceConfig(sim),
      zonesNode({ output: 'changes' }),
      outNode,
      ...doneWatchers('n-zones'),
    ]);
    const out = counter(helper.getNode('out'));
    const ok = counter(helper.getNode('ok'));
    const zones = helper.getNode('n-zones');

    zones.receive({});
    await until(() => ok.count === 1, 'first read done');
    should(out.count).equal(1);
    const first = out.messages[0].payload as Record<string, unknown[]>;
    should(first.added).have.length(3);
    should(first.removed).have.length(0);

    zones.receive({});
    await until(() => ok.count === 2, 'second read done');
    should(out.count).equal(1);

    const replaced = [...sampleZones()];
    replaced[0] = { ...(replaced[0] as object), label: 'Stage' };
    replaced.pop();
    sim.setZones(replaced);
    zones.receive({});
    await until(() => ok.count === 3, 'third read done');
    should(out.count).equal(2);
    const change = out.messages[1].payload as {
      added: unknown[];
      removed: Array<{ id: string }>;
      changed: Array<{ after: { label: string } }>;
      zones: unknown[];
    };
    should(change.added).have.length(0);
    should(change.removed).have.length(1);
    should(change.changed.map((c) => c.after.label)).eql(['Stage']);
    should(change.zones).have.length(2);
  });

  it('in changes mode reports a layout change the device announces, without an input or a poll', async () => {
    const out = await followChanges(sim);
    const readsBefore = zonesReads(sim);
    sim.setZones(sampleZones().slice(1));
    await until(() => out.count === 2, 'the announced change');
    const change = out.messages[1]?.payload as { removed: Array<{ id: string }>; zones: unknown[] };
    should(change.removed.map((zone) => zone.id)).eql([(sampleZones()[0] as { id: string }).id]);
    should(change.zones).have.length(2);
    // The announcement carried the zones: no read was needed.
    should(zonesReads(sim)).equal(readsBefore);
  });

  it('in changes mode reads the zones when an announcement names only a part of them', async () => {
    await followChanges(sim);
    const readsBefore = zonesReads(sim);
    const [, second] = sampleZones() as Array<{ id: string }>;
    sim.emitChange(`${ZONES_PATH}/${second?.id}`, second);
    await until(() => zonesReads(sim) > readsBefore, 'a read after the partial announcement');
  });

  it('in changes mode reads the zones when the change stream dropped an event over the size cap', async () => {
    await followChanges(sim);
    const readsBefore = zonesReads(sim);
    // It may have been the layout: the zones are read.
    sim.emitChange('/api/v1/room/layout', { zones: [], filler: 'x'.repeat(70 * 1024) });
    await until(() => zonesReads(sim) > readsBefore, 'a read after the dropped event');
  });

  it('in changes mode reads the zones again when the change stream is back after a drop', async () => {
    const out = await followChanges(sim);
    sim.dropStreams();
    // Made while no change stream is open: the device announces it to nobody.
    sim.setZones(sampleZones().slice(1));
    await until(() => out.count === 2, 'the change found after the reconnect');
    should(((out.messages[1]?.payload ?? {}) as { removed?: unknown[] }).removed).have.length(1);
  });

  it("gives each zone its camera input from the layout's camera switcher map (newer firmware)", async () => {
    sim.setFirmware('layout');
    await helper.load(nodeModules(), [tab, deviceConfig(sim), zonesNode(), outNode]);
    const received = collect(helper.getNode('out'), 1);
    helper.getNode('n-zones').receive({});
    const [msg] = await received;
    should(msg?.source).equal('layout');
    should(((msg?.payload ?? []) as Array<{ cameraInput?: unknown }>).map((zone) => zone.cameraInput)).eql([
      'USB1',
      'USB2',
      'USB3',
    ]);
  });

  it('reads on its interval and once after deploy', async () => {
    helper.settings({ conferenceAudioZonesMinInterval: 0.02 });
    await helper.load(nodeModules(), [
      tab,
      deviceConfig(sim),
      zonesNode({ interval: 0.02, onStart: true }),
      outNode,
    ]);
    const out = counter(helper.getNode('out'));
    await until(() => out.count >= 3, 'three polled messages');
    should(out.messages[0].topic).equal('zones');
    should(out.messages[0].payload).have.length(3);
  });

  it('refuses an interval in hexadecimal with a warning and reads on no timer', async () => {
    await helper.load(nodeModules(), [tab, deviceConfig(sim), zonesNode({ interval: '0x10' }), outNode]);
    const warnings = (helper.getNode('n-zones').warn as unknown as { getCalls(): { args: unknown[] }[] })
      .getCalls()
      .map((call) => String(call.args[0]));
    should(warnings.some((text) => /Interval: .*decimal.*0x10/.test(text))).be.true();
  });

  it('reads once after deploy when onStart is set, without input or interval', async () => {
    await helper.load(nodeModules(), [tab, deviceConfig(sim), zonesNode({ onStart: true }), outNode]);
    const out = counter(helper.getNode('out'));
    await until(() => out.count === 1, 'the start read');
    await delay(50);
    should(out.count).equal(1);
    should(sim.counters.requestsByPath[ZONES_PATH]).equal(1);
  });

  it('never starts a poll while the previous read is still running on a slow device', async () => {
    helper.settings({ conferenceAudioZonesMinInterval: 0.005 });
    sim.setFault({ kind: 'latency', ms: 150, path: ZONES_PATH });
    await helper.load(nodeModules(), [tab, deviceConfig(sim), zonesNode({ interval: 0.005 }), outNode]);
    const out = counter(helper.getNode('out'));
    await until(() => out.count >= 3, 'three slow reads');
    // About 30 ticks per read came and went: each device request produced exactly one message, and
    // no tick started a read of its own (the client would share it, but the node would send it twice).
    const requests = sim.counters.requestsByPath[ZONES_PATH] ?? 0;
    should(requests).be.belowOrEqual(out.count + 1);
    should(out.count).be.belowOrEqual(requests);
  });

  it('shares one device request between inputs that arrive while a read runs', async () => {
    sim.setFault({ kind: 'latency', ms: 100, path: ZONES_PATH });
    await helper.load(nodeModules(), [tab, deviceConfig(sim), zonesNode(), outNode]);
    const out = collect(helper.getNode('out'), 3);
    const zones = helper.getNode('n-zones');
    zones.receive({ n: 1 });
    zones.receive({ n: 2 });
    zones.receive({ n: 3 });
    const messages = await out;
    should(messages.map((m) => m.n).sort()).eql([1, 2, 3]);
    should(sim.counters.requestsByPath[ZONES_PATH]).equal(1);
  });

  it('hands an error with its code to a Catch node and calls done once per input', async () => {
    sim.setModel('310');
    await helper.load(nodeModules(completeModule, catchModule), [
      tab,
      deviceConfig(sim),
      zonesNode(),
      outNode,
      ...doneWatchers('n-zones'),
    ]);
    const failed = counter(helper.getNode('failed'));
    const ok = counter(helper.getNode('ok'));
    const out = counter(helper.getNode('out'));
    const zones = helper.getNode('n-zones');
    const status = statusWhere(zones, (s) => s.text === 'failed: UNSUPPORTED_MODEL');
    zones.receive({ payload: 1, _msgid: 'a' });
    zones.receive({ payload: 2, _msgid: 'b' });
    await until(() => failed.count === 2, 'two caught errors');
    await delay(30);
    should(failed.count).equal(2);
    should(ok.count).equal(0);
    should(out.count).equal(0);
    const error = failed.messages[0].error as Record<string, unknown>;
    should(error.code).equal('UNSUPPORTED_MODEL');
    should(error.message).match(/410/);
    should((error.source as { id: string }).id).equal('n-zones');
    should(failed.messages.map((m) => m.payload).sort()).eql([1, 2]);
    should((await status).fill).equal('red');
  });

  it('calls done exactly once per successful input', async () => {
    await helper.load(nodeModules(completeModule, catchModule), [
      tab,
      deviceConfig(sim),
      zonesNode(),
      outNode,
      ...doneWatchers('n-zones'),
    ]);
    const ok = counter(helper.getNode('ok'));
    const failed = counter(helper.getNode('failed'));
    const zones = helper.getNode('n-zones');
    for (let i = 0; i < 5; i++) zones.receive({ i });
    await until(() => ok.count === 5, 'five done calls');
    await delay(30);
    should(ok.count).equal(5);
    should(failed.count).equal(0);
  });

  it('reports a polling error to Catch once, not at every poll', async () => {
    helper.settings({ conferenceAudioZonesMinInterval: 0.005 });
    sim.setModel('310');
    await helper.load(nodeModules(catchModule), [
      tab,
      deviceConfig(sim),
      zonesNode({ interval: 0.005 }),
      outNode,
      { id: 'n-catch', type: 'catch', z: 'f1', scope: ['n-zones'], uncaught: false, wires: [['failed']] },
      { id: 'failed', type: 'helper', z: 'f1' },
    ]);
    const failed = counter(helper.getNode('failed'));
    await until(() => (sim.counters.requestsByPath[ZONES_PATH] ?? 0) >= 4, 'four polls');
    should(failed.count).equal(1);
    should((failed.messages[0].error as { code: string }).code).equal('UNSUPPORTED_MODEL');
  });

  it('leaves no socket or timer behind after unload', async () => {
    const resources = () =>
      process
        .getActiveResourcesInfo()
        .filter((r) => r !== 'TTYWrap')
        .sort()
        .join(',');
    // Mocha arms its own test timeout after the first await: measure after it.
    await delay(1);
    const before = resources();
    helper.settings({ conferenceAudioZonesMinInterval: 0.01 });
    await helper.load(nodeModules(), [
      tab,
      deviceConfig(sim),
      zonesNode({ interval: 0.01, onStart: true }),
      outNode,
    ]);
    const out = counter(helper.getNode('out'));
    await until(() => out.count >= 2, 'two polls');
    should(resources()).not.equal(before);
    await helper.unload();
    // Sockets finish closing on the next turns of the event loop; a busy machine may need a few.
    await until(() => resources() === before, 'the resources of before the deploy', 2000).catch(() => {
      should(resources()).equal(before);
    });
  });
});

describe('room zones node on a device whose layout carries fields the zones endpoint does not', () => {
  let sim: DeviceSimulator;

  useSimulator({ layoutZoneExtras: { on: true } }, (started) => {
    sim = started;
  });

  it('in changes mode stays quiet when a layout event repeats the zones it read from the zones endpoint', async () => {
    const out = await followChanges(sim);
    // The same zones, announced in the layout's spelling (each with `on: true`), then a real change.
    sim.setZones(sampleZones());
    sim.setZones(sampleZones().slice(1));
    await until(() => out.count >= 2, 'the next announcement');
    const change = out.messages[1]?.payload as { removed: unknown[]; changed: unknown[]; added: unknown[] };
    should(change.removed).have.length(1);
    should(change.changed).have.length(0);
    should(change.added).have.length(0);
  });
});
