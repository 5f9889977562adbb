import type { EventSourceMessage } from 'eventsource-parser';
import should from 'should';
import { type DeviceSimulator, startSimulator } from '../../src/simulator';
import { until } from '../support/wait';
import { messagesOf, type OpenStream, openStream, TestCaller } from './helpers';

function dataOf(event: EventSourceMessage): Record<string, unknown> {
  return JSON.parse(event.data) as Record<string, unknown>;
}

const DATA_PATH = '/api/v1/data?events=soundLocation,deviceMetrics';
const FAST = { soundLocationIntervalMs: 20, metricsIntervalMs: 100, heartbeatIntervalMs: 50 };

describe('simulator: event streams', () => {
  let simulator: DeviceSimulator;
  let caller: TestCaller;
  let token: string;
  const streams: OpenStream[] = [];

  async function open(path: string, options: Parameters<typeof openStream>[2] = { token }) {
    const stream = await openStream(simulator, path, options);
    streams.push(stream);
    return stream;
  }

  beforeEach(async () => {
    simulator = await startSimulator({ port: 0, ...FAST });
    caller = new TestCaller(simulator);
    token = await caller.login('general', '');
  });

  afterEach(async () => {
    for (const stream of streams.splice(0)) stream.close();
    await caller.close();
    await simulator.close();
  });

  it('sends soundLocation readings in the device shape on the data stream', async () => {
    const stream = await open(DATA_PATH);
    should(stream.status).equal(200);
    should(stream.contentType).startWith('text/event-stream');
    await until(() => stream.events.filter((e) => e.event === 'soundLocation').length >= 3, 'three readings');
    const reading = dataOf(stream.events.find((e) => e.event === 'soundLocation') as EventSourceMessage);
    should(reading).have.properties([
      'azimuth',
      'powerLevel',
      'time',
      'coordinates',
      'triggeredZones',
      'flags',
    ]);
    should(reading.coordinates).have.properties(['x', 'y']);
    should(reading.version).equal(1);
    should(Number.isNaN(Date.parse(String(reading.time)))).be.false();
  });

  it('sends deviceMetrics once the stream opens and then every metrics interval', async () => {
    const stream = await open(DATA_PATH);
    await until(() => stream.events.filter((e) => e.event === 'deviceMetrics').length >= 2, 'two metrics');
    should(stream.events[0]?.event).equal('deviceMetrics');
    should(dataOf(stream.events[0] as EventSourceMessage).backgroundNoise).be.a.Number();
  });

  it('names the zone the talker stands in, by id, with the type as an array', async () => {
    const zone = (simulator.getState().zones as { id: string; label: string }[])[0] as {
      id: string;
      label: string;
    };
    const geometry = (simulator.getState().zones as { geometry: { point1: { x: number; y: number } } }[])[0]
      ?.geometry as { point1: { x: number; y: number }; point2: { x: number; y: number } };
    simulator.placeTalker({
      x: (geometry.point1.x + geometry.point2.x) / 2,
      y: (geometry.point1.y + geometry.point2.y) / 2,
    });
    const stream = await open('/api/v1/data?events=soundLocation');
    await until(() => stream.events.some((e) => e.event === 'soundLocation'), 'a reading');
    const reading = dataOf(stream.events.find((e) => e.event === 'soundLocation') as EventSourceMessage);
    should(reading.triggeredZones).eql([{ type: ['Switching'], label: zone.label, id: zone.id }]);
    should((reading.flags as Record<string, unknown>).voiceDetected).be.true();
  });

  it('reports silence with powerLevel 0 and voiceDetected false', async () => {
    simulator.placeTalker({ x: 0, y: 2000 });
    simulator.silenceTalker();
    const stream = await open('/api/v1/data?events=soundLocation');
    await until(() => stream.events.some((e) => e.event === 'soundLocation'), 'a reading');
    const reading = dataOf(stream.events.find((e) => e.event === 'soundLocation') as EventSourceMessage);
    should(reading.powerLevel).equal(0);
    should((reading.flags as Record<string, unknown>).voiceDetected).be.false();
    should(reading.triggeredZones).eql([]);
  });

  it('walks the talker through every zone, pauses in silence and speaks outside every zone', async () => {
    await simulator.close();
    simulator = await startSimulator({ port: 0, soundLocationIntervalMs: 5, metricsIntervalMs: 1000 });
    caller = new TestCaller(simulator);
    token = await caller.login('general', '');
    const zoneIds = (simulator.getState().zones as { id: string }[]).map((zone) => zone.id);
    const stream = await open('/api/v1/data?events=soundLocation');
    const readings = () => stream.events.map(dataOf);
    const seenZones = () =>
      new Set(readings().flatMap((r) => (r.triggeredZones as { id: string }[]).map((z) => z.id)));
    await until(() => seenZones().size === zoneIds.length, 'every zone triggered', 20_000);
    await until(() => readings().some((r) => r.powerLevel === 0), 'a silent reading');
    await until(
      () =>
        readings().some((r) => (r.powerLevel as number) > 0 && (r.triggeredZones as unknown[]).length === 0),
      'speech outside every zone',
      20_000,
    );
  });

  it('stops soundLocation and repeats a 503 error event while the microphone is muted', async () => {
    simulator.setMuted(true);
    const stream = await open(DATA_PATH);
    await until(
      () => stream.events.filter((e) => e.event === 'error (soundLocation)').length >= 2,
      'two errors',
    );
    should(stream.events.some((e) => e.event === 'soundLocation')).be.false();
    const error = dataOf(
      stream.events.find((e) => e.event === 'error (soundLocation)') as EventSourceMessage,
    );
    should(error).eql({ statusCode: 503, error: [{ message: 'Microphone muted' }] });
    simulator.setMuted(false);
    await until(() => stream.events.some((e) => e.event === 'soundLocation'), 'readings again after unmute');
  });

  it('mutes the microphone when microphoneMute is patched on, as a device does, and hears again when off', async () => {
    const stream = await open(DATA_PATH);
    const patch = (microphoneMute: boolean) =>
      caller.call('PATCH', '/api/v1/audio', { token, body: { microphoneMute } });
    should((await patch(true)).status).equal(200);
    await until(() => stream.events.some((e) => e.event === 'error (soundLocation)'), 'the muted error');
    should(simulator.getState().muted).be.true();
    const mutedAt = stream.events.length;
    should((await patch(false)).status).equal(200);
    await until(
      () => stream.events.slice(mutedAt).some((e) => e.event === 'soundLocation'),
      'readings again after the unmute',
    );
  });

  it('reads microphoneMute true in the audio settings while muted by the control', async () => {
    simulator.setMuted(true);
    const audio = await caller.call('GET', '/api/v1/audio', { token });
    should(audio.json).have.property('microphoneMute', true);
    simulator.setMuted(false);
    should((await caller.call('GET', '/api/v1/audio', { token })).json).have.property(
      'microphoneMute',
      false,
    );
  });

  it('answers an unknown event name with an error event named after it', async () => {
    const stream = await open('/api/v1/data?events=soundLocation,noSuchThing');
    await until(() => stream.events.some((e) => e.event === 'error (noSuchThing)'), 'the error event');
    const error = dataOf(stream.events.find((e) => e.event === 'error (noSuchThing)') as EventSourceMessage);
    should(error.statusCode).equal(404);
  });

  it('announces new zones on the change stream with the layout body', async () => {
    const stream = await open('/api/v1/events');
    simulator.setZones([]);
    await until(() => stream.events.some((e) => e.event === '/api/v1/room/layout'), 'the layout event');
    const layout = dataOf(stream.events.find((e) => e.event === '/api/v1/room/layout') as EventSourceMessage);
    should(layout.zones).eql([]);
  });

  it('sends a word event that a control names on the change stream', async () => {
    const stream = await open('/api/v1/events');
    const answer = await caller.control('POST', 'change', { event: 'ledStateUpdated', data: { on: true } });
    should(answer.status).equal(200);
    await until(() => stream.events.some((e) => e.event === 'ledStateUpdated'), 'the word event');
  });

  it('serves the heartbeat stream without authorization, with a retry hint', async () => {
    const stream = await open('/api/v1/heartbeat', {});
    should(stream.status).equal(200);
    await until(() => stream.events.some((e) => e.event === 'heartbeat'), 'a heartbeat');
    should(stream.events.find((e) => e.event === 'heartbeat')?.data).equal('.');
    should(stream.retries).eql([FAST.heartbeatIntervalMs]);
  });

  it('answers 404 on a stream path to a client that does not ask for an event stream', async () => {
    const answer = await caller.call('GET', DATA_PATH, { token });
    should(answer.status).equal(404);
  });

  it('answers 401 on the data stream without a valid token', async () => {
    const answer = await caller.call('GET', '/api/v1/events', {
      token: 'not-a-token',
      headers: { accept: 'text/event-stream' },
    });
    should(answer.status).equal(401);
    should(messagesOf(answer.json)).eql(['Unauthorized']);
  });

  it('refuses stream connections past the limit a minute with 429, and counts the accepted ones', async () => {
    await simulator.close();
    simulator = await startSimulator({ port: 0, ...FAST, streamConnectionsPerMinute: 3 });
    caller = new TestCaller(simulator);
    token = await caller.login('general', '');
    for (let i = 0; i < 3; i += 1) should((await open('/api/v1/events')).status).equal(200);
    const refused = await open('/api/v1/events');
    should(refused.status).equal(429);
    await refused.ended;
    should(simulator.counters.streamConnections).equal(3);
  });

  it('drops every open stream on request and counts them closed', async () => {
    const data = await open(DATA_PATH);
    await open('/api/v1/events');
    should(simulator.openStreams).equal(2);
    simulator.dropStreams();
    await data.ended;
    await until(() => simulator.openStreams === 0, 'no open stream');
  });

  it('ends every open stream cleanly on request', async () => {
    const data = await open(DATA_PATH);
    simulator.endStreams();
    await data.ended;
    await until(() => simulator.openStreams === 0, 'no open stream');
  });

  it('sends nothing on a stalled stream, and goes on when the stall ends', async () => {
    simulator.stallStreams(true);
    const stream = await open(DATA_PATH);
    should(stream.status).equal(200);
    await until(() => simulator.openStreams === 1, 'the stream open');
    // Several intervals pass; a stalled stream must stay silent through all of them.
    await new Promise((resolve) => setTimeout(resolve, FAST.metricsIntervalMs * 3));
    should(stream.events).eql([]);
    simulator.stallStreams(false);
    await until(() => stream.events.length > 0, 'events after the stall');
  });

  it('counts every soundLocation event it writes, once per stream', async () => {
    const first = await open('/api/v1/data?events=soundLocation');
    const second = await open(DATA_PATH);
    const readings = () =>
      [first, second].reduce(
        (sum, stream) => sum + stream.events.filter((e) => e.event === 'soundLocation').length,
        0,
      );
    await until(() => readings() >= 6, 'readings on both streams');
    // Stalled, it writes no more: what both streams received catches up with the count.
    simulator.stallStreams(true);
    const written = simulator.soundLocationsWritten;
    await until(() => readings() === written, 'every written reading received');
    should(written).be.above(0);
  });

  it('places, silences and walks the talker and mutes through the HTTP controls', async () => {
    should((await caller.control('PUT', 'talker', { x: 100, y: 2500 })).status).equal(200);
    should(simulator.getState().talker).equal('still');
    should((await caller.control('PUT', 'talker', { mode: 'walk' })).status).equal(200);
    should(simulator.getState().talker).equal('walk');
    should((await caller.control('PUT', 'talker', { x: 'a' })).status).equal(400);
    should((await caller.control('PUT', 'mute', { muted: true })).status).equal(200);
    should(simulator.getState().muted).be.true();
    should((await caller.control('PUT', 'streams/stall', { stalled: true })).status).equal(200);
    should(simulator.getState().streamsStalled).be.true();
    await open(DATA_PATH);
    should((await caller.control('POST', 'streams/drop')).status).equal(200);
    await until(() => simulator.openStreams === 0, 'streams dropped by the control');
  });

  it('closes every stream and stops its timers when the simulator closes', async () => {
    const stream = await open(DATA_PATH);
    await simulator.close();
    await stream.ended;
    should(simulator.openStreams).equal(0);
  });
});
