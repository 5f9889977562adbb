import should from 'should';
import type { DeviceSimulator } from '../../src/simulator';
import { shownStatusText } from '../support/status-text';
import {
  catchModule,
  counter,
  deviceConfig,
  eventsNodeDef,
  helper,
  IN_PRESENTER,
  nodeModules,
  statusWhere,
  tab,
  translate,
  until,
  useSimulator,
} from './support';

const STREAMING = translate('conference-audio-device.stream.streaming');
const MUTED = translate('conference-audio-device.stream.muted');
const DATA_PATH = '/api/v1/data';

const outNode = { id: 'out', type: 'helper', z: 'f1' };

describe('device events node (conference-audio-events)', () => {
  let sim: DeviceSimulator;

  // Fast readings so tests wait for events, not for the device's pace.
  useSimulator({ talker: 'still', soundLocationIntervalMs: 20, metricsIntervalMs: 100 }, (started) => {
    sim = started;
    sim.placeTalker(IN_PRESENTER);
  });

  async function load(nodes: Record<string, unknown>[], device: Record<string, unknown> = {}) {
    await helper.load(nodeModules(), [tab, deviceConfig(sim, device), ...nodes]);
  }

  it('sends each sound location with the event name, the parsed data and <device name>/<event> as topic', async () => {
    await load([eventsNodeDef('n-events', 'out', { rate: 0 }), outNode]);
    const out = counter(helper.getNode('out'));
    await until(() => out.count >= 3, 'three sound locations');
    const msg = out.messages[0] ?? {};
    should(msg.event).equal('soundLocation');
    should(msg.topic).equal('room/soundLocation');
    const payload = msg.payload as Record<string, unknown>;
    should(payload.coordinates).eql({ x: IN_PRESENTER.x, y: IN_PRESENTER.y });
    should(payload.powerLevel).equal(IN_PRESENTER.powerLevel);
    should(payload).have.properties(['azimuth', 'time', 'triggeredZones', 'flags']);
  });

  it('puts its own topic before the event name', async () => {
    await load([eventsNodeDef('n-events', 'out', { topic: 'hall/mic' }), outNode]);
    const out = counter(helper.getNode('out'));
    await until(() => out.count >= 1, 'a sound location');
    should(out.messages[0]?.topic).equal('hall/mic/soundLocation');
  });

  it('shows "streaming" once the data stream is open', async () => {
    await load([eventsNodeDef('n-events', 'out'), outNode]);
    const node = helper.getNode('n-events');
    await statusWhere(node, (status) => status.text === STREAMING);
  });

  it('sends device metrics, and no sound location, when only metrics are chosen', async () => {
    await load([eventsNodeDef('n-events', 'out', { events: ['deviceMetrics'] }), outNode]);
    const out = counter(helper.getNode('out'));
    await until(() => out.count >= 2, 'two device metrics');
    should(out.messages.map((msg) => msg.event)).containDeep(['deviceMetrics', 'deviceMetrics']);
    should(out.messages.every((msg) => msg.event === 'deviceMetrics')).be.true();
    should(((out.messages[0]?.payload ?? {}) as { backgroundNoise?: unknown }).backgroundNoise).be.a.Number();
  });

  it('sends device changes named as the device names them: a resource path or a word', async () => {
    await load([eventsNodeDef('n-events', 'out', { events: ['changes'] }), outNode]);
    const out = counter(helper.getNode('out'));
    await until(() => sim.openStreams === 1, 'the change stream');
    sim.emitChange('ledStateUpdated', { colour: 'green' });
    sim.setZones([]);
    await until(() => out.count >= 2, 'two changes');
    should(out.messages[0]).containDeep({
      event: 'ledStateUpdated',
      payload: { colour: 'green' },
      topic: 'room/ledStateUpdated',
    });
    should(out.messages[1]?.event).equal('/api/v1/room/layout');
    // The path's leading slash makes no empty topic level.
    should(out.messages[1]?.topic).equal('room/api/v1/room/layout');
    should(((out.messages[1]?.payload ?? {}) as { zones?: unknown }).zones).eql([]);
  });

  it('passes silent readings on unchanged', async () => {
    await load([eventsNodeDef('n-events', 'out', { rate: 0 }), outNode]);
    const out = counter(helper.getNode('out'));
    sim.silenceTalker();
    await until(
      () => out.messages.some((msg) => (msg.payload as { powerLevel?: unknown }).powerLevel === 0),
      'a silent reading',
    );
    const silent = out.messages.find((msg) => (msg.payload as { powerLevel?: unknown }).powerLevel === 0);
    should(((silent?.payload ?? {}) as { flags: { voiceDetected: boolean } }).flags.voiceDetected).be.false();
  });

  it('sends at most `rate` sound locations in any second, silent ones counted', async () => {
    // 50 readings a second from the device; one node passes all, the other at most 2 a second.
    await load([
      eventsNodeDef('n-all', 'all', { rate: 0 }),
      eventsNodeDef('n-limited', 'limited', { rate: 2 }),
      { id: 'all', type: 'helper', z: 'f1' },
      { id: 'limited', type: 'helper', z: 'f1' },
    ]);
    const all = counter(helper.getNode('all'));
    const limited = counter(helper.getNode('limited'));
    const receivedAt: number[] = [];
    helper.getNode('limited').on('input', () => receivedAt.push(Date.now()));
    sim.silenceTalker();
    await until(() => limited.count >= 5, 'five limited messages', 10000);
    should(all.count).be.above(limited.count * 3);
    // A bound, not a measurement: any two messages two apart are at least a window apart, less the time
    // between the stream reading an event and the helper receiving it.
    for (let index = 2; index < receivedAt.length; index++) {
      should((receivedAt[index] ?? 0) - (receivedAt[index - 2] ?? 0)).be.above(800);
    }
  });

  it('passes the muted microphone error on and shows "microphone muted" until it is unmuted', async () => {
    await load([eventsNodeDef('n-events', 'out'), outNode]);
    const node = helper.getNode('n-events');
    const out = counter(helper.getNode('out'));
    await statusWhere(node, (status) => status.text === STREAMING);
    const muted = statusWhere(node, (status) => status.text === MUTED);
    sim.setMuted(true);
    await muted;
    await until(() => out.messages.some((msg) => msg.event === 'error (soundLocation)'), 'the error event');
    const error = out.messages.find((msg) => msg.event === 'error (soundLocation)');
    should(error?.payload).containDeep({ statusCode: 503, error: [{ message: 'Microphone muted' }] });
    const unmuted = statusWhere(node, (status) => status.text === STREAMING);
    sim.setMuted(false);
    await unmuted;
    // Muting never ended the stream.
    should(sim.counters.streamConnections).equal(1);
  });

  it('ten nodes of one device hold one data stream, and one change stream beside it', async () => {
    const nodes = Array.from({ length: 10 }, (_, index) =>
      eventsNodeDef(`n-${index}`, 'out', {
        events: index < 5 ? ['soundLocation'] : ['deviceMetrics', 'changes'],
      }),
    );
    await load([...nodes, outNode]);
    const out = counter(helper.getNode('out'));
    await until(() => out.count >= 20, 'messages for every node');
    should(sim.openStreams).equal(2);
    should(sim.requests.filter((request) => request.path.startsWith(DATA_PATH)).length).equal(1);
  });

  it('closes its streams on redeploy: no stream of the device stays open', async () => {
    await load([eventsNodeDef('n-events', 'out', { events: ['soundLocation', 'changes'] }), outNode]);
    await until(() => sim.openStreams === 2, 'both streams');
    await helper.unload();
    await until(() => sim.openStreams === 0, 'every stream closed');
  });

  it('without a device shows "no device" and opens nothing', async () => {
    await helper.load(nodeModules(), [tab, eventsNodeDef('n-events', 'out', { device: '' }), outNode]);
    const node = helper.getNode('n-events');
    const shown = (node.status.getCalls?.() ?? []).map((call) =>
      shownStatusText(String((call.args[0] as { text?: string }).text)),
    );
    should(shown).containEql('no device');
    should(sim.openStreams).equal(0);
  });

  it('with an invalid device config shows it, reports INVALID_CONFIG to Catch and opens nothing', async () => {
    await helper.load(nodeModules(catchModule), [
      tab,
      deviceConfig(sim, { host: '' }),
      eventsNodeDef('n-events', 'out'),
      outNode,
      { id: 'n-catch', type: 'catch', z: 'f1', scope: ['n-events'], uncaught: false, wires: [['failed']] },
      { id: 'failed', type: 'helper', z: 'f1' },
    ]);
    const failed = counter(helper.getNode('failed'));
    await until(() => failed.count === 1, 'the error at the Catch node');
    should((failed.messages[0]?.error as { code?: string } | undefined)?.code).equal('INVALID_CONFIG');
    const shown = (helper.getNode('n-events').status.getCalls?.() ?? []).map((call) =>
      shownStatusText(String((call.args[0] as { text?: string }).text)),
    );
    should(shown).containEql('invalid configuration');
    should(sim.openStreams).equal(0);
  });

  it('warns about an unknown event name and streams the known ones', async () => {
    await load([eventsNodeDef('n-events', 'out', { events: ['soundLocation', 'talker'] }), outNode]);
    const out = counter(helper.getNode('out'));
    await until(() => out.count >= 1, 'a sound location');
    const warnings = (helper.getNode('n-events').warn as unknown as { getCalls(): { args: unknown[] }[] })
      .getCalls()
      .map((call) => String(call.args[0]));
    should(warnings.some((text) => text.includes('"talker"'))).be.true();
  });

  /** What the node reported through node.warn (the helper spies on it). */
  function warningsOf(id: string): string[] {
    return (helper.getNode(id).warn as unknown as { getCalls(): { args: unknown[] }[] })
      .getCalls()
      .map((call) => String(call.args[0]));
  }

  it('makes a device event name with control characters and wildcards a safe topic, warning once per name', async () => {
    await load([eventsNodeDef('n-events', 'out', { events: ['changes'] }), outNode]);
    const out = counter(helper.getNode('out'));
    await until(() => sim.openStreams === 1, 'the change stream');
    sim.emitChange('led\u0001State#+\u0000', { colour: 'green' });
    sim.emitChange('led\u0001State#+\u0000', { colour: 'red' });
    await until(() => out.count >= 2, 'two changes');
    should(out.messages.map((msg) => msg.topic)).eql(['room/ledState__', 'room/ledState__']);
    // The name as the device sent it stays in msg.event.
    should(out.messages[0]?.event).equal('led\u0001State#+\u0000');
    should(warningsOf('n-events').filter((text) => text.includes('ledState'))).have.length(1);
  });

  it('cuts an event name of 80,000 characters in the topic', async () => {
    await load([eventsNodeDef('n-events', 'out', { events: ['changes'] }), outNode]);
    const out = counter(helper.getNode('out'));
    await until(() => sim.openStreams === 1, 'the change stream');
    sim.emitChange('x'.repeat(80_000), {});
    await until(() => out.count >= 1, 'the change');
    should(String(out.messages[0]?.topic).length).be.belowOrEqual('room/'.length + 200);
    should(warningsOf('n-events').some((text) => text.includes('80000'))).be.true();
  });

  it('passes a repeating error event on at most once a second per kind', async () => {
    await load([
      eventsNodeDef('n-events', 'out', { events: ['soundLocation', 'deviceMetrics'], rate: 0 }),
      outNode,
    ]);
    const out = counter(helper.getNode('out'));
    await until(() => out.count >= 1, 'a first event');
    for (let i = 0; i < 50; i++) {
      sim.setMuted(true);
      sim.setMuted(false);
    }
    const sent = out.count;
    // The stream keeps its order: a metrics event after the burst comes after every error of it.
    await until(
      () => out.messages.slice(sent).some((msg) => msg.event === 'deviceMetrics'),
      'metrics after the burst',
    );
    const errors = out.messages.filter((msg) => msg.event === 'error (soundLocation)');
    should(errors).have.length(1);
  });

  it('refuses a rate of 1e308 with a warning and keeps the default', async () => {
    await load([eventsNodeDef('n-events', 'out', { rate: 1e308 }), outNode]);
    should(warningsOf('n-events').some((text) => /Rate: .*at most 10000/.test(text))).be.true();
  });

  it('refuses a rate in hexadecimal: numbers in settings are decimal', async () => {
    await load([eventsNodeDef('n-events', 'out', { rate: '0x10' }), outNode]);
    should(warningsOf('n-events').some((text) => /Rate: .*decimal.*0x10/.test(text))).be.true();
  });

  it('logs an event over the 64 KiB cap once and counts the dropped ones in its status', async () => {
    await load([eventsNodeDef('n-events', 'out', { events: ['changes'] }), outNode]);
    const out = counter(helper.getNode('out'));
    await until(() => sim.openStreams === 1, 'the change stream');
    const huge = { filler: 'x'.repeat(70 * 1024) };
    const counted = statusWhere(helper.getNode('n-events'), (status) =>
      /2 events too large, dropped/.test(String(status.text)),
    );
    sim.emitChange('bigThing', huge);
    sim.emitChange('bigThing', huge);
    sim.emitChange('smallThing', {});
    await until(() => out.count >= 1, 'the small event after the big ones');
    await counted;
    should(out.messages.map((msg) => msg.event)).eql(['smallThing']);
    should(warningsOf('n-events').filter((text) => /larger than/.test(text))).have.length(1);
  });
});
