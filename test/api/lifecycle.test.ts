import should from 'should';
import { type ConnectionState, DeviceClient } from '../../src/api';
import { delay, until } from '../support/wait';
import { isSettled, PASSWORD, useHarness } from './helpers';

/** Sockets, servers and timers this process holds, by type. */
function activeResources(): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const type of process.getActiveResourcesInfo()) counts[type] = (counts[type] ?? 0) + 1;
  return counts;
}

/**
 * Long enough that the login and the requests meant to succeed finish in time even on a stalled, busy
 * machine; the device's delay is longer still, so the client's timer always fires first.
 */
const TIMEOUT_MS = 2000;

describe('api/client: network failures', () => {
  const harness = useHarness();

  it('reports TIMEOUT when the device answers later than timeoutMs, and state unreachable', async () => {
    const client = harness.client({ timeoutMs: TIMEOUT_MS });
    await client.request('GET', '/api/v1/room/zones');
    harness.simulator.setFault({ kind: 'latency', ms: 3 * TIMEOUT_MS, path: '/api/v1/audio' });
    const states: [ConnectionState, string | undefined][] = [];
    client.on('state', (state, error) => states.push([state, error?.code]));
    const error = await harness.failure(client.request('GET', '/api/v1/audio'), 'TIMEOUT');
    should(error.message).match(/did not answer within 2 s/);
    should(states).eql([['unreachable', 'TIMEOUT']]);
  });

  it('recovers to connected after a timeout once the device answers', async () => {
    const client = harness.client({ timeoutMs: TIMEOUT_MS });
    harness.simulator.setFault({ kind: 'latency', ms: 3 * TIMEOUT_MS, path: '/api/v1/audio' });
    await harness.failure(client.request('GET', '/api/v1/audio'), 'TIMEOUT');
    harness.simulator.setFault(null);
    await client.request('GET', '/api/v1/audio');
    should(client.state).equal('connected');
  });

  it('reports UNREACHABLE when the device resets the connection', async () => {
    const client = harness.client();
    await client.request('GET', '/api/v1/room/zones');
    harness.simulator.setFault({ kind: 'reset', path: '/api/v1/audio' });
    const error = await harness.failure(client.request('GET', '/api/v1/audio'), 'UNREACHABLE');
    should(error.message).match(/device at https:\/\/127\.0\.0\.1:\d+/);
    should(client.state).equal('unreachable');
  });

  it('reports UNREACHABLE when nothing listens at the address', async () => {
    const { port } = harness.simulator;
    await harness.simulator.close();
    const client = harness.client({ port });
    const error = await harness.failure(client.request('GET', '/api/v1/audio'), 'UNREACHABLE');
    should(error.message).match(/ECONNREFUSED/);
    should(error.cause).be.instanceOf(Error);
    should(client.state).equal('unreachable');
  });

  it('aborts a request when the caller signal fires', async () => {
    const client = harness.client();
    harness.simulator.setFault({ kind: 'latency', ms: 2000, path: '/api/v1/audio' });
    const controller = new AbortController();
    const call = client.request('GET', '/api/v1/audio', undefined, { signal: controller.signal });
    await until(() => harness.simulator.requests.length === 2, 'the request to arrive');
    controller.abort();
    const error = await harness.failure(call, 'CLOSED');
    should(error.message).match(/aborted/);
  });
});

describe('api/client: close()', () => {
  const harness = useHarness();

  it('rejects requests in flight with CLOSED', async () => {
    const client = harness.client();
    await client.request('GET', '/api/v1/room/zones');
    harness.simulator.setFault({ kind: 'latency', ms: 2000, path: '/api/v1/audio' });
    const failure = harness.failure(client.request('GET', '/api/v1/audio'), 'CLOSED');
    await until(() => harness.simulator.requests.length === 3, 'the request to arrive');
    await client.close();
    await failure;
  });

  it('rejects queued callers with CLOSED and later calls too', async () => {
    // A ceiling of 20: the login and this read spend the burst of 2; the next token is 60 s / 18 away.
    const client = harness.client({ maxRequestsPerMinute: 20 });
    await client.request('GET', '/api/v1/audio');
    const queued = client.request('GET', '/api/v1/room/zones');
    should(await isSettled(queued)).be.false();
    const failure = harness.failure(queued, 'CLOSED');
    await client.close();
    await failure;
    await harness.failure(client.request('GET', '/api/v1/audio'), 'CLOSED');
  });

  it('may be called twice', async () => {
    const client = harness.client();
    await client.request('GET', '/api/v1/audio');
    await Promise.all([client.close(), client.close()]);
    await client.close();
  });

  it('leaves no socket, server connection or timer behind', async () => {
    // Mocha arms its own test timer just after the test starts: count from after that.
    await delay(0);
    const before = activeResources();
    const client = new DeviceClient({
      host: '127.0.0.1',
      port: harness.simulator.port,
      account: 'general',
      password: PASSWORD,
      // A burst of 3 (login, audio, the layout that times out), then a token every 60 s / 18 = 3.3 s: longer
      // than the timeout, so the two calls after it are still queued.
      maxRequestsPerMinute: 21,
      timeoutMs: TIMEOUT_MS,
      rateLimitBackoff: { initialMs: 60_000 },
    });
    await client.request('GET', '/api/v1/audio');
    // Short enough that the simulator's own delay timer is gone when the counts are compared.
    harness.simulator.setFault({ kind: 'latency', ms: TIMEOUT_MS + 300, path: '/api/v1/room/layout' });
    await harness.failure(client.request('GET', '/api/v1/room/layout'), 'TIMEOUT');
    const queued = client.request('GET', '/api/v1').catch(() => undefined);
    const queuedToo = client.request('GET', '/api/v1/heartbeat').catch(() => undefined);
    should(await isSettled(queued)).be.false();
    const during = activeResources();
    should(during.Timeout ?? 0).be.above(before.Timeout ?? 0);
    should(during.TCPSocketWrap ?? 0).be.above(before.TCPSocketWrap ?? 0);
    await client.close();
    await Promise.all([queued, queuedToo]);
    // The device side (the simulator in this process) closes its end once it sees the client's close.
    await until(
      () => JSON.stringify(activeResources()) === JSON.stringify(before),
      () => `resources back to ${JSON.stringify(before)}, now ${JSON.stringify(activeResources())}`,
    );
  });

  it('lets the simulator see its sockets closed', async () => {
    const client = harness.client();
    await Promise.all([client.request('GET', '/api/v1/audio'), client.request('GET', '/api/v1/room/zones')]);
    const socketsWhileOpen = activeResources().TCPSocketWrap ?? 0;
    should(socketsWhileOpen).be.aboveOrEqual(2);
    await client.close();
    await until(() => (activeResources().TCPSocketWrap ?? 0) === 0, 'no socket left on either side');
  });
});
