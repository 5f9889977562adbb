import should from 'should';
import type { DeviceEvent, StreamState, StreamStateDetail } from '../../src/api';
import { until } from '../support/wait';
import { assertNoSecret, PASSWORD, useHarness } from './helpers';
import { dropConnections, QUICK_RECONNECT, untilBudgetWait, watch } from './stream-watch';

const DATA_PATH = '/api/v1/data?events=soundLocation,deviceMetrics';
const FAST = { soundLocationIntervalMs: 20, metricsIntervalMs: 100, heartbeatIntervalMs: 50 };

describe('api/streams: device event streams', () => {
  const harness = useHarness(FAST);

  it('delivers each event with its name and its data parsed from JSON', async () => {
    const stream = harness.client().eventStream(DATA_PATH);
    const seen = watch(stream);
    stream.start();
    await until(() => seen.named('soundLocation').length >= 2, 'two readings');
    const reading = seen.named('soundLocation')[0] as DeviceEvent;
    should(reading.data).have.properties(['azimuth', 'powerLevel', 'coordinates', 'triggeredZones']);
    should(reading.receivedAt).be.a.Number();
    should(seen.named('deviceMetrics').length).be.above(0);
    should(seen.states[0]?.[0]).equal('connecting');
    should(seen.states.some(([state]) => state === 'streaming')).be.true();
  });

  it('sends the vendor headers, the token and Accept: text/event-stream', async () => {
    const stream = harness.client({ clientId: 'stream-client' }).eventStream('/api/v1/events');
    const seen = watch(stream);
    stream.start();
    await until(() => seen.states.some(([state]) => state === 'streaming'), 'streaming');
    const request = harness.simulator.requests.find((r) => r.path === '/api/v1/events');
    should(request?.headers.accept).equal('text/event-stream');
    should(request?.headers['vendor-client-id']).equal('stream-client');
    should(request?.headers.authorization).startWith('Vendor ');
  });

  it('keeps non-JSON data as text', async () => {
    const stream = harness.client().eventStream('/api/v1/heartbeat');
    const seen = watch(stream);
    stream.start();
    await until(() => seen.named('heartbeat').length > 0, 'a heartbeat');
    should(seen.named('heartbeat')[0]?.data).equal('.');
  });

  it('passes error events on as events and keeps the stream open', async () => {
    harness.simulator.setMuted(true);
    const stream = harness.client().eventStream(DATA_PATH);
    const seen = watch(stream);
    stream.start();
    await until(() => seen.named('error (soundLocation)').length >= 2, 'two muted errors');
    should(seen.named('error (soundLocation)')[0]?.data).eql({
      statusCode: 503,
      error: [{ message: 'Microphone muted' }],
    });
    should(seen.states.filter(([state]) => state === 'reconnecting')).be.empty();
  });

  it('reconnects after the network drops the stream', async () => {
    const stream = harness.client().eventStream(DATA_PATH, QUICK_RECONNECT);
    const seen = watch(stream);
    stream.start();
    await until(() => seen.named('soundLocation').length > 0, 'first readings');
    harness.simulator.dropStreams();
    await until(() => seen.states.some(([state]) => state === 'reconnecting'), 'reconnecting');
    const before = seen.events.length;
    await until(() => seen.events.length > before + 2, 'readings after the drop');
    should(harness.simulator.counters.streamConnections).equal(2);
  });

  it('reconnects after the device ends the response', async () => {
    const stream = harness.client().eventStream('/api/v1/events', QUICK_RECONNECT);
    const seen = watch(stream);
    stream.start();
    await until(() => harness.simulator.openStreams === 1, 'open');
    harness.simulator.endStreams();
    await until(() => harness.simulator.counters.streamConnections === 2, 'a second connection');
    await until(() => harness.simulator.openStreams === 1, 'open again');
    harness.simulator.emitChange('ledStateUpdated', { on: true });
    await until(() => seen.named('ledStateUpdated').length === 1, 'an event on the new connection');
  });

  it('takes a stream that sends no byte for the idle timeout as dead and reopens it', async () => {
    const stream = harness.client().eventStream(DATA_PATH, { ...QUICK_RECONNECT, idleTimeoutMs: 300 });
    const seen = watch(stream);
    harness.simulator.stallStreams(true);
    stream.start();
    await until(
      () =>
        seen.states.some(([state, detail]) => state === 'reconnecting' && detail.error?.code === 'TIMEOUT'),
      'a reconnect after the idle timeout',
    );
    harness.simulator.stallStreams(false);
    await until(() => seen.named('soundLocation').length > 0, 'readings once the device talks again');
  });

  it('waits longer after each failed attempt, up to the cap, with jitter', async () => {
    const stream = harness.client().eventStream(DATA_PATH, { reconnect: { initialMs: 40, maxMs: 160 } });
    const seen = watch(stream);
    harness.simulator.setFault({ kind: 'status', status: 503, path: '/api/v1/data' });
    stream.start();
    await until(() => seen.states.filter(([state]) => state === 'reconnecting').length >= 5, 'five retries');
    const delays = seen.states
      .filter(([state]) => state === 'reconnecting')
      .map(([, detail]) => detail.retryInMs as number);
    // Jitter takes each delay to between half and all of its step: 40, 80, 160, 160, ...
    should(delays[0]).be.within(20, 40);
    should(delays[1]).be.within(40, 80);
    should(delays[2]).be.within(80, 160);
    should(delays[4]).be.within(80, 160);
  });

  it('never opens more stream connections a minute than the budget allows', async () => {
    const client = harness.client({ maxStreamConnectsPerMinute: 3 });
    const stream = client.eventStream('/api/v1/events', { reconnect: { initialMs: 1, maxMs: 2 } });
    const seen = watch(stream);
    stream.start();
    await dropConnections(harness.simulator, 1, 3);
    await untilBudgetWait(seen);
    should(harness.simulator.counters.streamConnections).equal(3);
    should(harness.simulator.counters.rateLimited).equal(0);
  });

  it('reads 429 as a wait, never as a login failure', async () => {
    await harness.start({ ...FAST, streamConnectionsPerMinute: 1 });
    const first = harness.client({ clientId: 'same' }).eventStream('/api/v1/events', QUICK_RECONNECT);
    first.start();
    await until(() => harness.simulator.openStreams === 1, 'the first stream open');
    const second = harness.client({ clientId: 'same' }).eventStream('/api/v1/events', QUICK_RECONNECT);
    const seen = watch(second);
    second.start();
    await until(() => seen.states.some(([state]) => state === 'reconnecting'), 'a refused attempt');
    const [state, detail] = seen.states.find(([s]) => s === 'reconnecting') as [
      StreamState,
      StreamStateDetail,
    ];
    should(state).equal('reconnecting');
    should(detail.error?.code).equal('RATE_LIMITED');
    should(detail.retryInMs).be.aboveOrEqual(detail.error?.retryAfterMs ?? 0);
    should(seen.states.some(([s]) => s === 'auth_failed')).be.false();
  });

  it('logs in once more when the device forgot the token, and streams on', async () => {
    const stream = harness.client().eventStream('/api/v1/events', QUICK_RECONNECT);
    const seen = watch(stream);
    stream.start();
    await until(() => harness.simulator.openStreams === 1, 'open');
    should(harness.simulator.counters.logins).equal(1);
    harness.simulator.reboot();
    await until(() => harness.simulator.openStreams === 1 && harness.simulator.counters.logins === 2, 'back');
    harness.simulator.emitChange('usbConnection', { connected: true });
    await until(() => seen.named('usbConnection').length === 1, 'an event after the re-login');
    should(seen.states.some(([s]) => s === 'auth_failed')).be.false();
  });

  it('reports auth_failed after a password change, retrying only at the login backoff pace', async () => {
    const client = harness.client({ loginBackoff: { initialMs: 60_000, maxMs: 60_000 } });
    const stream = client.eventStream('/api/v1/events', QUICK_RECONNECT);
    const seen = watch(stream);
    stream.start();
    await until(() => harness.simulator.openStreams === 1, 'open');
    harness.simulator.setPassword('general', 'a-new-password');
    harness.simulator.dropStreams();
    await until(() => seen.states.some(([s]) => s === 'auth_failed'), 'auth_failed');
    const [, detail] = seen.states.find(([s]) => s === 'auth_failed') as [StreamState, StreamStateDetail];
    should(detail.error?.code).equal('AUTH_FAILED');
    should(detail.retryInMs).be.above(30_000);
    should(harness.simulator.counters.failedLogins).equal(1);
    assertNoSecret(detail.error, [...harness.secrets(), PASSWORD]);
  });

  it('refuses an answer that is not an event stream with BAD_RESPONSE', async () => {
    const client = harness.client();
    const error = await harness.failure(
      client.openStream('/api/v1/audio', { signal: new AbortController().signal }),
      'BAD_RESPONSE',
    );
    should(error.message).match(/not an event stream/);
  });

  it('drops an event larger than the cap with a warning and goes on', async () => {
    const stream = harness.client().eventStream('/api/v1/events', { maxEventBytes: 1024 });
    const seen = watch(stream);
    const warnings: string[] = [];
    stream.on('warning', (warning) => warnings.push(warning.code));
    stream.start();
    await until(() => harness.simulator.openStreams === 1, 'open');
    harness.simulator.emitChange('big', { text: 'x'.repeat(4096) });
    harness.simulator.emitChange('small', { ok: true });
    await until(() => seen.named('small').length === 1, 'the next event');
    should(seen.named('big')).be.empty();
    should(warnings).eql(['BAD_RESPONSE']);
  });

  it('closes the connection and every timer on close, also while waiting to reconnect', async () => {
    const client = harness.client();
    const open = client.eventStream(DATA_PATH);
    open.start();
    await until(() => harness.simulator.openStreams === 1, 'open');
    await open.close();
    await until(() => harness.simulator.openStreams === 0, 'closed on the device side');
    harness.simulator.setFault({ kind: 'status', status: 503, path: '/api/v1/data' });
    const waiting = client.eventStream(DATA_PATH, { reconnect: { initialMs: 60_000, maxMs: 60_000 } });
    const seen = watch(waiting);
    waiting.start();
    await until(() => seen.states.some(([s]) => s === 'reconnecting'), 'waiting to reconnect');
    await waiting.close();
    should(waiting.state).equal('closed');
  });

  it('closes its streams when the client closes', async () => {
    const client = harness.client();
    const stream = client.eventStream(DATA_PATH);
    stream.start();
    await until(() => harness.simulator.openStreams === 1, 'open');
    await client.close();
    should(stream.state).equal('closed');
    await until(() => harness.simulator.openStreams === 0, 'closed on the device side');
  });
});
