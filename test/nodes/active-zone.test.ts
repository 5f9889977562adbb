import should from 'should';
import { type DeviceSimulator, sampleZones } from '../../src/simulator';
import {
  activeZoneFlow,
  activeZoneNodeDef,
  catchModule,
  completeModule,
  counter,
  eventsNodeDef,
  FAST_READINGS,
  helper,
  IN_PRESENTER,
  nodeModules,
  receiveUntilDone,
  statusWhere,
  translate,
  until,
  useSimulator,
} from './support';

interface SampleZone {
  id: string;
  label: string;
}
const [presenter, audienceLeft] = sampleZones() as [SampleZone, SampleZone, SampleZone];
const IN_AUDIENCE_LEFT = { x: -4000, y: 6000, powerLevel: 40 };
const OUTSIDE_EVERY_ZONE = { x: 0, y: 10400, powerLevel: 40 };

const MUTED = translate('conference-audio-device.stream.muted');

type Answer = { zone: Record<string, unknown> | null; previous: Record<string, unknown> | null };
const answerOf = (msg: Record<string, unknown> | undefined) => (msg?.payload ?? {}) as Answer;

describe('active zone node (conference-audio-active-zone)', () => {
  let sim: DeviceSimulator;
  let out: ReturnType<typeof counter>;

  useSimulator(FAST_READINGS, (started) => {
    sim = started;
  });

  /** Short hold and the shortest release (MIN_RELEASE_MS) so tests wait for events; the hold test sets its own. */
  async function load(extra: Record<string, unknown> = {}, more: Record<string, unknown>[] = []) {
    await helper.load(
      nodeModules(completeModule, catchModule),
      activeZoneFlow(sim, { hold: 0, release: 500, ...extra }, more),
    );
    out = counter(helper.getNode('out'));
    // The zones are read first; readings before that cannot be placed.
    await until(
      () => sim.requests.some((request) => request.path === '/api/v1/room/zones'),
      'the zones read',
    );
  }

  it('sends the zone the talker speaks in, in the zones node shape, with the reading and <topic>/<zone id>', async () => {
    await load();
    sim.placeTalker(IN_PRESENTER);
    await until(() => out.count >= 1, 'the active zone');
    const msg = out.messages[0];
    const { zone, previous } = answerOf(msg);
    should(zone).containDeep({ id: presenter.id, label: presenter.label, types: ['Switching'] });
    should(zone).have.properties(['bounds', 'width', 'height', 'centre', 'area', 'geometry']);
    should(previous).be.null();
    should(msg?.topic).equal(`stage/${presenter.id}`);
    should(msg?.location).containDeep({
      x: IN_PRESENTER.x,
      y: IN_PRESENTER.y,
      powerLevel: IN_PRESENTER.powerLevel,
    });
    should(msg?.location).have.properties(['azimuth', 'time']);
  });

  it('sends only changes: one message while the talker stays in a zone', async () => {
    await load({}, [
      eventsNodeDef('n-events', 'readings', { rate: 0 }),
      { id: 'readings', type: 'helper', z: 'f1' },
    ]);
    const readings = counter(helper.getNode('readings'));
    sim.placeTalker(IN_PRESENTER);
    await until(() => out.count >= 1 && readings.count >= 20, 'twenty readings in the zone');
    should(out.count).equal(1);
  });

  it('names the previous zone when the talker moves on, and "none" after the release', async () => {
    await load();
    sim.placeTalker(IN_PRESENTER);
    await until(() => out.count >= 1, 'the first zone');
    sim.placeTalker(IN_AUDIENCE_LEFT);
    await until(() => out.count >= 2, 'the second zone');
    should(answerOf(out.messages[1]).zone?.id).equal(audienceLeft.id);
    should(answerOf(out.messages[1]).previous?.id).equal(presenter.id);
    sim.silenceTalker();
    await until(() => out.count >= 3, 'the release');
    should(answerOf(out.messages[2])).containDeep({ zone: null, previous: { id: audienceLeft.id } });
    should(out.messages[2]?.topic).equal('stage/none');
  });

  it('hands each message its own copy of the zone: a flow that edits it changes no later message', async () => {
    await load();
    sim.placeTalker(IN_PRESENTER);
    await until(() => out.count >= 1, 'the first zone');
    const sent = answerOf(out.messages[0]).zone as { label: string; bounds: { minX: number } };
    sent.label = 'edited by a flow';
    sent.bounds.minX = 123456;
    sim.placeTalker(IN_AUDIENCE_LEFT);
    await until(() => out.count >= 2, 'the second zone');
    should(answerOf(out.messages[1]).previous).containDeep({ id: presenter.id, label: presenter.label });
    should((answerOf(out.messages[1]).previous as { bounds: { minX: number } }).bounds.minX).not.equal(
      123456,
    );
  });

  it('lets go of the zone when the talker speaks outside every zone', async () => {
    await load();
    sim.placeTalker(IN_PRESENTER);
    await until(() => out.count >= 1, 'the zone');
    sim.placeTalker(OUTSIDE_EVERY_ZONE);
    await until(() => out.count >= 2, 'the release');
    should(answerOf(out.messages[1]).zone).be.null();
  });

  it('makes a zone active only after the talker has spoken in it for the hold time', async () => {
    await load({ hold: 300 }, [
      eventsNodeDef('n-events', 'readings', { rate: 0 }),
      { id: 'readings', type: 'helper', z: 'f1' },
    ]);
    const readings = counter(helper.getNode('readings'));
    sim.placeTalker(IN_PRESENTER);
    await until(() => out.count >= 1, 'the active zone');
    // The device's own clock: the deciding reading came at least the hold time after the first one there.
    const first = readings.messages.find(
      (msg) => (msg.payload as { powerLevel?: number }).powerLevel === IN_PRESENTER.powerLevel,
    );
    const firstTime = Date.parse(String(((first?.payload ?? {}) as { time?: string }).time));
    const decidingTime = Date.parse(String(((out.messages[0]?.location ?? {}) as { time?: string }).time));
    should(decidingTime - firstTime).be.aboveOrEqual(300 - 25);
  });

  it('ignores zones of other types, and counts them with zone type "any"', async () => {
    const stage = {
      types: ['Presence'],
      geometry: { point1: { x: -2500, y: 600 }, point2: { x: 2500, y: 3000 } },
      label: 'Stage',
      id: 'stage-presence',
    };
    sim.setZones([stage]);
    await load({ zoneType: 'any' }, [
      activeZoneNodeDef('n-switching', 'switching', { hold: 0, release: 200 }),
      { id: 'switching', type: 'helper', z: 'f1' },
    ]);
    const switching = counter(helper.getNode('switching'));
    sim.placeTalker(IN_PRESENTER);
    await until(() => out.count >= 1, 'the presence zone');
    should(answerOf(out.messages[0]).zone?.id).equal('stage-presence');
    should(switching.count).equal(0);
  });

  it('answers an input with the current answer on that message, done once', async () => {
    await load();
    const ok = counter(helper.getNode('ok'));
    const failed = counter(helper.getNode('failed'));
    await receiveUntilDone('n-active', { payload: 'now?', _msgid: 'ask-1' }, { ok, failed });
    should(out.messages[0]).containDeep({
      _msgid: 'ask-1',
      payload: { zone: null, previous: null },
      topic: 'stage/none',
    });
    sim.placeTalker(IN_PRESENTER);
    await until(() => out.count >= 2, 'the active zone');
    await receiveUntilDone('n-active', { _msgid: 'ask-2' }, { ok, failed });
    should(out.messages[2]).containDeep({ _msgid: 'ask-2', payload: { zone: { id: presenter.id } } });
    should(ok.count).equal(2);
    should(failed.count).equal(0);
  });

  it('shows the active zone, and "microphone muted" while muted, then lets the zone go', async () => {
    await load({ release: 500 });
    const node = helper.getNode('n-active');
    const showsZone = statusWhere(node, (status) => status.text === presenter.label);
    sim.placeTalker(IN_PRESENTER);
    await showsZone;
    const muted = statusWhere(node, (status) => status.text === MUTED);
    sim.setMuted(true);
    await muted;
    // No reading comes while muted: the release is timed by the node.
    await until(() => out.count >= 2, 'the release while muted');
    should(answerOf(out.messages[1]).zone).be.null();
  });

  it('follows the device: a deleted active zone ends the answer at once', async () => {
    await load({ release: 60_000 });
    sim.placeTalker(IN_PRESENTER);
    await until(() => out.count >= 1, 'the active zone');
    sim.setZones(sampleZones().filter((zone) => (zone as SampleZone).id !== presenter.id));
    await until(() => out.count >= 2, 'the end of the deleted zone');
    should(answerOf(out.messages[1])).containDeep({ zone: null, previous: { id: presenter.id } });
  });

  it('reads the zones again within seconds after a failed read, and places the talker then', async () => {
    sim.setFault({ kind: 'status', status: 500, path: '/api/v1/room/zones', times: 1 });
    sim.placeTalker(IN_PRESENTER);
    await helper.load(
      nodeModules(completeModule, catchModule),
      activeZoneFlow(sim, { hold: 0, release: 500 }),
    );
    out = counter(helper.getNode('out'));
    const failed = counter(helper.getNode('failed'));
    await until(() => failed.count === 1, 'the failed read at the Catch node');
    // The refresh time is minutes: only the retry after a failure brings the zones back this soon.
    await until(() => out.count >= 1, 'the active zone after the read is tried again');
    should(answerOf(out.messages[0]).zone).containDeep({ id: presenter.id });
    should(failed.count).equal(1);
  });

  it('reads the zones again after a failed read while muted, though no reading comes to prompt it', async () => {
    sim.setMuted(true);
    sim.setFault({ kind: 'status', status: 500, path: '/api/v1/room/zones', times: 1 });
    await helper.load(
      nodeModules(completeModule, catchModule),
      activeZoneFlow(sim, { hold: 0, release: 500 }),
    );
    const failed = counter(helper.getNode('failed'));
    const node = helper.getNode('n-active');
    await until(() => failed.count === 1, 'the failed read at the Catch node');
    // The zones error holds the status until a read works; then the stream's own word shows again.
    await statusWhere(node, (status) => status.text === MUTED);
    should(sim.requests.filter((request) => request.path === '/api/v1/room/zones').length).be.aboveOrEqual(2);
  });

  it('reports a device without zones to Catch once, with its code, and in the status', async () => {
    sim.setModel('310');
    await helper.load(
      nodeModules(completeModule, catchModule),
      activeZoneFlow(sim, { hold: 0, release: 200 }),
    );
    const failed = counter(helper.getNode('failed'));
    const status = statusWhere(
      helper.getNode('n-active'),
      (shown) => shown.text === 'failed: UNSUPPORTED_MODEL',
    );
    await until(() => failed.count === 1, 'the error at the Catch node');
    should((failed.messages[0]?.error as { code?: string } | undefined)?.code).equal('UNSUPPORTED_MODEL');
    await status;
  });

  it("carries each zone's camera input from the layout's camera switcher map", async () => {
    // The events node joins the change stream after the active zone node: it hears the layout second.
    await load({}, [
      eventsNodeDef('n-changes', 'changes', { events: ['changes'] }),
      { id: 'changes', type: 'helper', z: 'f1' },
    ]);
    const changes = counter(helper.getNode('changes'));
    await until(() => sim.openStreams === 2, 'the data and change streams');
    sim.emitChange('/api/v1/room/layout', {
      zones: sampleZones(),
      cameraSwitcherZoneInputMaps: [{ zoneId: presenter.id, inputPort: 'USB2' }],
    });
    await until(() => changes.count >= 1, 'the layout change');
    sim.placeTalker(IN_PRESENTER);
    await until(() => out.count >= 1, 'the active zone');
    should(answerOf(out.messages[0]).zone).have.property('cameraInput', 'USB2');
  });

  /** What the node reported through node.warn (the helper spies on it). */
  function warnings(): string[] {
    return (helper.getNode('n-active').warn as unknown as { getCalls(): { args: unknown[] }[] })
      .getCalls()
      .map((call) => String(call.args[0]));
  }

  it('with a zone type no zone has says so in its status and warns once, naming the types there are', async () => {
    // The events node joins the change stream after the active zone node: it hears the layout second.
    await load({ zoneType: 'Switchng' }, [
      eventsNodeDef('n-changes', 'changes', { events: ['changes'] }),
      { id: 'changes', type: 'helper', z: 'f1' },
    ]);
    const changes = counter(helper.getNode('changes'));
    const statuses = () =>
      (helper.getNode('n-active').status as unknown as { getCalls(): { args: [{ text?: unknown }] }[] })
        .getCalls()
        .map((call) => call.args[0]?.text);
    await until(() => statuses().includes('no Switchng zone on the device'), 'the status about the type');
    await until(() => sim.openStreams >= 2, 'the change stream');
    // Zones again, announced by the device: still one warning.
    sim.setZones(sampleZones());
    await until(() => changes.count >= 1, 'the announced zones');
    const aboutType = warnings().filter((text) => text.includes('Switchng'));
    should(aboutType).have.length(1);
    should(aboutType[0]).match(/Switching/);
  });

  it('warns that a release shorter than readings allow is raised', async () => {
    await load({ release: 0 });
    should(warnings().some((text) => /Release 0 ms .* using 500 ms/.test(text))).be.true();
  });

  it('refuses a hold in hexadecimal: "0x10" is not 16 ms', async () => {
    await load({ hold: '0x10' });
    should(warnings().some((text) => /Hold: .*decimal.*0x10/.test(text))).be.true();
  });

  it('makes a zone id with control characters and a slash one safe topic level', async () => {
    sim.setZones([{ ...(sampleZones()[0] as object), id: 'pre\u0001senter/+' }]);
    await load();
    sim.placeTalker(IN_PRESENTER);
    await until(() => out.count >= 1, 'the active zone');
    should(out.messages[0]?.topic).equal('stage/presenter__');
    should(warnings().filter((text) => text.includes('presenter'))).have.length(1);
  });
});
