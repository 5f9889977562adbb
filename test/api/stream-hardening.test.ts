import { gzipSync } from 'node:zlib';
import should from 'should';
import { DEVICE_PATHS, STREAM_PATHS } from '../../src/api';
import { delay, until } from '../support/wait';
import { useHarness } from './helpers';
import { HostileDevice } from './hostile-device';
import { dropConnections, QUICK_RECONNECT, untilBudgetWait, watch } from './stream-watch';

describe('api/streams: a hostile device cannot hang or fool a stream', () => {
  let device: HostileDevice | undefined;

  afterEach(async () => {
    await device?.close();
    device = undefined;
  });

  for (const status of [503, 401, 429]) {
    it(`reconnects when an error answer (${status}) to a stream sends its headers and never its body`, async () => {
      device = await HostileDevice.start((request, response) => {
        if (!request.url?.startsWith(DEVICE_PATHS.events)) return false;
        response.writeHead(status, { 'content-type': 'application/json' });
        response.flushHeaders();
        return true;
      });
      const client = device.client({ rateLimitBackoff: { initialMs: 20, maxMs: 50 } });
      const stream = client.eventStream(STREAM_PATHS.changes, QUICK_RECONNECT);
      const seen = watch(stream);
      stream.start();
      await until(() => (device?.count(DEVICE_PATHS.events) ?? 0) >= 3, 'three attempts', 10_000);
      should(seen.failures().length).be.above(0);
      should(seen.states.some(([state]) => state === 'streaming')).be.false();
      await stream.close();
    });
  }

  it('reports a gzip-compressed event stream nobody asked for as BAD_RESPONSE, never as streaming', async () => {
    device = await HostileDevice.start((request, response) => {
      if (!request.url?.startsWith(DEVICE_PATHS.events)) return false;
      response.writeHead(200, { 'content-type': 'text/event-stream', 'content-encoding': 'gzip' });
      response.write(gzipSync('event: usbConnection\ndata: {"connected":true}\n\n'));
      return true;
    });
    const stream = device.client().eventStream(STREAM_PATHS.changes, QUICK_RECONNECT);
    const seen = watch(stream);
    stream.start();
    await until(() => seen.failures().length > 0, 'a failure');
    should(seen.failures()[0]).equal('BAD_RESPONSE');
    should(seen.states.some(([state]) => state === 'streaming')).be.false();
    await stream.close();
  });

  it('takes a data stream with keepalive bytes but no event for the idle timeout as dead', async () => {
    device = await HostileDevice.start((request, response) => {
      if (!request.url?.startsWith(DEVICE_PATHS.data)) return false;
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write(': hello\n\n');
      device?.every(20, () => response.writable && response.write(': keepalive\n\n'));
      return true;
    });
    const stream = device.client().eventStream(STREAM_PATHS.data, { ...QUICK_RECONNECT, idleTimeoutMs: 300 });
    const seen = watch(stream);
    stream.start();
    await until(() => seen.failures().includes('TIMEOUT'), 'the silence taken as death');
    should(device.count(DEVICE_PATHS.data)).be.aboveOrEqual(1);
    await stream.close();
  });
});

describe('api/streams: size cap, backoff and connect budget', () => {
  const harness = useHarness({
    soundLocationIntervalMs: 20,
    metricsIntervalMs: 100,
    heartbeatIntervalMs: 50,
  });

  it('names the event it dropped for its size when it came whole', async () => {
    const stream = harness.client().eventStream(STREAM_PATHS.changes, { maxEventBytes: 1024 });
    const dropped: (string | undefined)[] = [];
    stream.on('warning', (_warning, detail) => dropped.push(detail.droppedEvent));
    stream.start();
    await until(() => harness.simulator.openStreams === 1, 'open');
    harness.simulator.emitChange(DEVICE_PATHS.layout, { text: 'x'.repeat(4096) });
    await until(() => dropped.length === 1, 'the warning');
    should(dropped).eql([DEVICE_PATHS.layout]);
  });

  it('names the event it dropped for its size when it came in many pieces, and reads the next one', async () => {
    const stream = harness.client().eventStream(STREAM_PATHS.changes);
    const seen = watch(stream);
    const dropped: (string | undefined)[] = [];
    stream.on('warning', (_warning, detail) => dropped.push(detail.droppedEvent));
    stream.start();
    await until(() => harness.simulator.openStreams === 1, 'open');
    harness.simulator.emitChange(DEVICE_PATHS.layout, { text: 'x'.repeat(400 * 1024) });
    harness.simulator.emitChange('usbConnection', { connected: true });
    await until(() => seen.events.some((event) => event.event === 'usbConnection'), 'the next event');
    should(dropped).eql([DEVICE_PATHS.layout]);
  });

  it('says how large the event it dropped was, once its end has come', async () => {
    const stream = harness.client().eventStream(STREAM_PATHS.changes);
    const sizes: (number | undefined)[] = [];
    const messages: string[] = [];
    stream.on('warning', (warning, detail) => {
      sizes.push(detail.bytes);
      messages.push(warning.message);
    });
    stream.start();
    await until(() => harness.simulator.openStreams === 1, 'open');
    harness.simulator.emitChange(DEVICE_PATHS.layout, { text: 'x'.repeat(70_000) });
    await until(() => sizes.length === 1, 'the warning');
    // The event's whole text: its data (70,000 and a dozen bytes of JSON) and its field names.
    should(sizes[0]).be.within(70_000, 70_100);
    should(messages[0]).containEql(`(${sizes[0]} bytes) is larger than 65536 bytes`);
  });

  it('earns the short reconnect delay back once a connection has stayed up', async () => {
    const stream = harness
      .client()
      .eventStream(STREAM_PATHS.changes, { reconnect: { initialMs: 20, maxMs: 5000, resetAfterMs: 200 } });
    const seen = watch(stream);
    stream.start();
    for (let drop = 1; drop <= 5; drop += 1) {
      await until(() => harness.simulator.openStreams === 1, `connection ${drop} open`);
      harness.simulator.dropStreams();
      await until(() => harness.simulator.openStreams === 0, `connection ${drop} gone`);
    }
    await until(() => harness.simulator.openStreams === 1, 'open after the drops');
    const longestWait = Math.max(...seen.states.map(([, detail]) => detail.retryInMs ?? 0));
    should(longestWait).be.above(100);
    // Longer than resetAfterMs: the connection has proven healthy.
    await delay(400);
    const before = seen.states.length;
    harness.simulator.dropStreams();
    await until(() => seen.states.length > before, 'the drop seen');
    should(seen.states[before]?.[1].retryInMs).be.belowOrEqual(20);
  });

  it('shares one connect budget among every client of a device, across a redeploy', async () => {
    const first = harness.client({ maxStreamConnectsPerMinute: 3 });
    const stream = first.eventStream(STREAM_PATHS.changes, { reconnect: { initialMs: 1, maxMs: 2 } });
    stream.start();
    await until(() => harness.simulator.openStreams === 1, 'the first client connected');
    await first.close();
    const second = harness.client({ maxStreamConnectsPerMinute: 3 });
    const again = second.eventStream(STREAM_PATHS.changes, { reconnect: { initialMs: 1, maxMs: 2 } });
    const seen = watch(again);
    again.start();
    await dropConnections(harness.simulator, 2, 3);
    await untilBudgetWait(seen);
    should(harness.simulator.counters.streamConnections).equal(3);
  });

  it('reads a 409 "too many requests" to a stream as a wait, never as a login failure', async () => {
    harness.simulator.setFault({
      kind: 'status',
      status: 409,
      body: JSON.stringify({ errors: [{ message: 'Too many requests. Rate limit is exceeded' }] }),
      path: DEVICE_PATHS.events,
      times: 1,
    });
    const stream = harness.client().eventStream(STREAM_PATHS.changes, QUICK_RECONNECT);
    const seen = watch(stream);
    stream.start();
    await until(() => harness.simulator.openStreams === 1, 'open after the wait');
    should(seen.failures()).eql(['RATE_LIMITED']);
    should(seen.states.some(([state]) => state === 'auth_failed')).be.false();
  });
});
