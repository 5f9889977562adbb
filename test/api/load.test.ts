import FakeTimers from '@sinonjs/fake-timers';
import should from 'should';
import type { ConnectionState } from '../../src/api';
import { RequestAbort } from '../../src/api/abort';
import { RequestLimiter } from '../../src/api/request-limiter';
import { delay, until } from '../support/wait';
import { isSettled, useHarness } from './helpers';

describe('api/client: shared GETs', () => {
  const harness = useHarness();

  it('sends identical GETs in flight at the same time as one device request', async () => {
    const client = harness.client();
    await client.request('GET', '/api/v1/room/zones');
    harness.simulator.resetRecords();
    const responses = await Promise.all(
      Array.from({ length: 5 }, () => client.request('GET', '/api/v1/audio')),
    );
    should(harness.simulator.counters.requestsByPath['/api/v1/audio']).equal(1);
    for (const response of responses) should(response.body).eql(responses[0]?.body);
  });

  it('gives each caller of a shared GET its own copy of the answer', async () => {
    const client = harness.client();
    const [first, second] = await Promise.all([
      client.request<Record<string, unknown>>('GET', '/api/v1/audio'),
      client.request<Record<string, unknown>>('GET', '/api/v1/audio'),
    ]);
    should(first?.body).not.equal(second?.body);
    if (first !== undefined) first.body.microphoneMute = 'changed by the first caller';
    should(second?.body.microphoneMute).not.equal('changed by the first caller');
  });

  it('shares the failure of a shared GET with every caller', async () => {
    const client = harness.client();
    await client.request('GET', '/api/v1/room/zones');
    harness.simulator.setFault({ kind: 'status', status: 500, path: '/api/v1/audio' });
    await Promise.all(
      Array.from({ length: 3 }, () => harness.failure(client.request('GET', '/api/v1/audio'), 'HTTP_ERROR')),
    );
    should(harness.simulator.counters.requestsByPath['/api/v1/audio']).equal(1);
  });

  it('does not share GETs of different paths, nor GETs one after another, nor writes', async () => {
    const client = harness.client();
    await Promise.all([client.request('GET', '/api/v1/audio'), client.request('GET', '/api/v1/room/zones')]);
    await client.request('GET', '/api/v1/audio');
    await Promise.all([
      client.request('PATCH', '/api/v1/audio', { microphoneMute: true }),
      client.request('PATCH', '/api/v1/audio', { microphoneMute: true }),
    ]);
    should(harness.simulator.counters.requestsByPath['/api/v1/audio']).equal(4);
  });
});

describe('api/client: client-side request ceiling', () => {
  const harness = useHarness();

  it('sends a burst of a tenth of maxRequestsPerMinute at once; later callers wait, then reject on close', async () => {
    // A ceiling of 30: the burst is 3, and the next token comes 60 s / 27 later, far beyond this test.
    const client = harness.client({ maxRequestsPerMinute: 30 });
    const calls = [
      '/api/v1/audio',
      '/api/v1/room/zones',
      '/api/v1/room/layout',
      '/api/v1',
      '/api/v1/heartbeat',
    ].map((path) => client.request('GET', path));
    // The login and the first two calls spend the burst.
    await Promise.all(calls.slice(0, 2));
    await delay(50);
    should(harness.simulator.requests).have.length(3);
    for (const waiting of calls.slice(2)) should(await isSettled(waiting)).be.false();
    await client.close();
    for (const waiting of calls.slice(2)) await harness.failure(waiting, 'CLOSED');
    should(harness.simulator.requests).have.length(3);
  });

  it('lets waiting callers go in the order they came', async () => {
    const limiter = new RequestLimiter(2, 40);
    const order: number[] = [];
    await Promise.all(
      [1, 2, 3, 4, 5].map((caller) =>
        limiter.acquire().then(() => {
          order.push(caller);
        }),
      ),
    );
    limiter.close();
    should(order).eql([1, 2, 3, 4, 5]);
  });

  it('lets tryAcquire take a free slot at once and refuse once the burst is spent', () => {
    // A ceiling of 20 a minute allows a burst of 2.
    const limiter = new RequestLimiter(20, 60_000);
    should([limiter.tryAcquire(), limiter.tryAcquire(), limiter.tryAcquire()]).eql([true, true, false]);
    limiter.close();
  });

  it('rejects a caller held back beyond the burst with CLOSED on close', async () => {
    const limiter = new RequestLimiter(2, 60_000);
    await limiter.acquire();
    const second = limiter.acquire();
    should(await isSettled(second)).be.false();
    should(limiter.waiting).equal(1);
    limiter.close();
    await should(second).be.rejectedWith({ code: 'CLOSED' });
  });

  for (const [kind, makeAbort] of [
    ['an AbortSignal', () => new AbortController()],
    ["the package's RequestAbort", () => new RequestAbort()],
  ] as const) {
    it(`takes a held-back caller out of the queue when ${kind} aborts, and keeps the others waiting`, async () => {
      const limiter = new RequestLimiter(2, 60_000);
      await limiter.acquire();
      const abort = makeAbort();
      const second = limiter.acquire(abort instanceof AbortController ? abort.signal : abort);
      const third = limiter.acquire();
      abort.abort();
      await should(second).be.rejectedWith({ code: 'CLOSED' });
      should(limiter.waiting).equal(1);
      limiter.close();
      await should(third).be.rejectedWith({ code: 'CLOSED' });
    });
  }
});

describe('api/limiter: pacing (simulated time)', () => {
  const MINUTE = 60_000;
  const CEILING = 300;
  const BURST = 30;
  const REFILL_MS = MINUTE / (CEILING - BURST);
  let clock: FakeTimers.Clock;

  beforeEach(() => {
    // A real epoch: a clock set back must not go below zero for the tests of that.
    clock = FakeTimers.install({
      now: Date.UTC(2026, 10, 21, 9, 0),
      toFake: ['Date', 'performance', 'setTimeout', 'clearTimeout'],
    });
  });

  afterEach(() => {
    clock.uninstall();
  });

  /** Starts one caller every `everyMs` for `forMs`; returns the simulated times their slots came. */
  async function demand(limiter: RequestLimiter, everyMs: number, forMs: number): Promise<number[]> {
    const sentAt: number[] = [];
    for (let elapsed = 0; elapsed < forMs; elapsed += everyMs) {
      limiter.acquire().then(
        () => sentAt.push(Date.now()),
        () => undefined,
      );
      await clock.tickAsync(everyMs);
    }
    limiter.close();
    return sentAt;
  }

  it('lets a burst of a tenth of the ceiling go at once, and no more', () => {
    const limiter = new RequestLimiter(CEILING, MINUTE);
    const granted = Array.from({ length: BURST + 1 }, () => limiter.tryAcquire());
    limiter.close();
    should(granted.filter(Boolean)).have.length(BURST);
    should(granted[BURST]).be.false();
  });

  it('holds the request after the burst for one refill interval, window / (ceiling - burst)', async () => {
    const limiter = new RequestLimiter(CEILING, MINUTE);
    for (let slot = 0; slot < BURST; slot += 1) limiter.tryAcquire();
    const next = limiter.acquire();
    await clock.tickAsync(Math.floor(REFILL_MS) - 1);
    should(await isSettled(next)).be.false();
    await clock.tickAsync(2);
    should(await isSettled(next)).be.true();
    limiter.close();
  });

  it('spaces the callers beyond the burst one refill interval apart, in the order they came', async () => {
    // 6 per 600 ms: a burst of 1, then one every 120 ms.
    const limiter = new RequestLimiter(6, 600);
    const sent: number[] = [];
    for (const caller of [1, 2, 3, 4]) limiter.acquire().then(() => sent.push(caller));
    const start = Date.now();
    const sentBy = async (ms: number): Promise<number[]> => {
      await clock.tickAsync(ms - (Date.now() - start));
      return [...sent];
    };
    should(await sentBy(0)).eql([1]);
    should(await sentBy(119)).eql([1]);
    should(await sentBy(121)).eql([1, 2]);
    should(await sentBy(239)).eql([1, 2]);
    should(await sentBy(241)).eql([1, 2, 3]);
    should(await sentBy(361)).eql([1, 2, 3, 4]);
    limiter.close();
  });

  it('never sends more than the ceiling in any window, under sustained demand at twice the ceiling', async () => {
    const limiter = new RequestLimiter(CEILING, MINUTE);
    const sentAt = await demand(limiter, MINUTE / (2 * CEILING), 4 * MINUTE);
    let busiest = 0;
    let first = 0;
    for (let last = 0; last < sentAt.length; last += 1) {
      // Every window of the same length that ends at a send: (end - window, end].
      while ((sentAt[first] ?? 0) <= (sentAt[last] ?? 0) - MINUTE) first += 1;
      busiest = Math.max(busiest, last - first + 1);
    }
    should(busiest).be.within(CEILING - 1, CEILING);
  });

  it('keeps pacing after the system clock is set back, instead of holding requests until it catches up', async () => {
    const limiter = new RequestLimiter(CEILING, MINUTE);
    for (let slot = 0; slot < BURST; slot += 1) limiter.tryAcquire();
    // An NTP correction or a hand-set clock: an hour back, right after a whole burst.
    clock.setSystemTime(Date.now() - 60 * MINUTE);
    const next = limiter.acquire();
    await clock.tickAsync(2 * REFILL_MS);
    should(await isSettled(next)).be.true();
    limiter.close();
  });

  it('ends a pause the device asked for after its length, even when the clock is set back meanwhile', async () => {
    const limiter = new RequestLimiter(CEILING, MINUTE);
    limiter.pauseFor(1_000);
    clock.setSystemTime(Date.now() - 60 * MINUTE);
    const next = limiter.acquire();
    await clock.tickAsync(999);
    should(await isSettled(next)).be.false();
    await clock.tickAsync(2);
    should(await isSettled(next)).be.true();
    limiter.close();
  });

  it('never leaves a gap longer than two refill intervals under sustained demand at twice the ceiling', async () => {
    const limiter = new RequestLimiter(CEILING, MINUTE);
    const sentAt = await demand(limiter, MINUTE / (2 * CEILING), 4 * MINUTE);
    const gaps = sentAt.slice(1).map((time, index) => time - (sentAt[index] ?? 0));
    should(Math.max(...gaps)).be.belowOrEqual(2 * REFILL_MS);
  });
});

describe('api/client: device rate limit (429)', () => {
  const harness = useHarness({ rateLimitPerMinute: 3 });

  it('reports RATE_LIMITED, never AUTH_FAILED, and does not log in again', async () => {
    const client = harness.client({ rateLimitBackoff: { initialMs: 20, maxMs: 20 } });
    const states: ConnectionState[] = [];
    client.on('state', (state) => states.push(state));
    await client.request('GET', '/api/v1/audio');
    await client.request('GET', '/api/v1/room/zones');
    const error = await harness.failure(client.request('GET', '/api/v1/room/layout'), 'RATE_LIMITED');
    should(error.statusCode).equal(429);
    should(error.deviceMessage).equal('Too many requests');
    should(error.retryAfterMs).equal(20);
    should(client.state).equal('rate_limited');
    should(states).containEql('rate_limited');
    should(harness.simulator.counters.logins).equal(1);
    should(harness.simulator.counters.failedLogins).equal(0);
    should(harness.simulator.counters.rateLimited).equal(1);
  });

  it('pauses before the next request after a rate-limit answer', async () => {
    const client = harness.client({ rateLimitBackoff: { initialMs: 60_000, maxMs: 60_000 } });
    await client.request('GET', '/api/v1/audio');
    await client.request('GET', '/api/v1/room/zones');
    await harness.failure(client.request('GET', '/api/v1/room/layout'), 'RATE_LIMITED');
    const sentBefore = harness.simulator.requests.length;
    const next = client.request('GET', '/api/v1/audio');
    await delay(50);
    should(await isSettled(next)).be.false();
    should(harness.simulator.requests).have.length(sentBefore);
    await client.close();
    await harness.failure(next, 'CLOSED');
  });
});

describe('api/client: rate-limit answers from a status fault', () => {
  const harness = useHarness();

  it('goes on after the pause, and reports connected again', async () => {
    const client = harness.client({ rateLimitBackoff: { initialMs: 20, maxMs: 20 } });
    await client.request('GET', '/api/v1/audio');
    harness.simulator.setFault({ kind: 'status', status: 429, path: '/api/v1/room/zones', times: 1 });
    await harness.failure(client.request('GET', '/api/v1/room/zones'), 'RATE_LIMITED');
    const response = await client.request('GET', '/api/v1/room/zones');
    should(response.statusCode).equal(200);
    should(client.state).equal('connected');
  });

  it('treats a 429 on login as RATE_LIMITED, without login backoff', async () => {
    const client = harness.client({ rateLimitBackoff: { initialMs: 20, maxMs: 20 } });
    harness.simulator.setFault({ kind: 'status', status: 429, path: '/api/v1/auth/login', times: 1 });
    await harness.failure(client.request('GET', '/api/v1/audio'), 'RATE_LIMITED');
    should(client.state).equal('rate_limited');
    should((await client.request('GET', '/api/v1/audio')).statusCode).equal(200);
    should(harness.simulator.counters.logins).equal(1);
  });

  it('treats a 409 "too many requests" on login as RATE_LIMITED, without login backoff', async () => {
    const client = harness.client({ rateLimitBackoff: { initialMs: 20, maxMs: 20 } });
    harness.simulator.setFault({
      kind: 'status',
      status: 409,
      body: JSON.stringify({ errors: [{ message: 'Too many requests. Rate limit is exceeded' }] }),
      path: '/api/v1/auth/login',
      times: 1,
    });
    const error = await harness.failure(client.request('GET', '/api/v1/audio'), 'RATE_LIMITED');
    should(error.statusCode).equal(409);
    should(error.retryAfterMs).equal(20);
    should((await client.request('GET', '/api/v1/audio')).statusCode).equal(200);
    should(harness.simulator.counters.failedLogins).equal(0);
  });

  it('doubles the pause after each rate-limit answer in a row', async () => {
    const client = harness.client({ rateLimitBackoff: { initialMs: 20, maxMs: 10_000 } });
    await client.request('GET', '/api/v1/room/zones');
    harness.simulator.setFault({ kind: 'status', status: 429, path: '/api/v1/audio' });
    const pauses: (number | undefined)[] = [];
    for (let attempt = 0; attempt < 3; attempt += 1) {
      // Each request waits out the pause before it leaves: no sleep needed.
      pauses.push(
        (await harness.failure(client.request('GET', '/api/v1/audio'), 'RATE_LIMITED')).retryAfterMs,
      );
    }
    should(pauses).eql([20, 40, 80]);
    should(harness.simulator.counters.requestsByPath['/api/v1/audio']).equal(3);
  });

  it('holds the next request back for the whole doubled pause, longer than the first', async () => {
    const client = harness.client({ rateLimitBackoff: { initialMs: 2000, maxMs: 10_000 } });
    await client.request('GET', '/api/v1/room/zones');
    harness.simulator.setFault({ kind: 'status', status: 429, path: '/api/v1/audio' });
    // Two writes leave together (writes are never shared), so two answers in a row cost no pause.
    const answers = await Promise.all([
      harness.failure(client.request('PATCH', '/api/v1/audio', { microphoneMute: true }), 'RATE_LIMITED'),
      harness.failure(client.request('PATCH', '/api/v1/audio', { microphoneMute: false }), 'RATE_LIMITED'),
    ]);
    should(answers.map((answer) => answer.retryAfterMs).sort((a = 0, b = 0) => a - b)).eql([2000, 4000]);
    const next = harness.failure(client.request('GET', '/api/v1/audio'), 'CLOSED');
    // Past the first pause and still 1.9 s short of the second: only a longer stall could break this.
    await delay(2100);
    should(harness.simulator.counters.requestsByPath['/api/v1/audio']).equal(2);
    await client.close();
    await next;
  });

  it('keeps the pause at its cap', async () => {
    const client = harness.client({ rateLimitBackoff: { initialMs: 20, maxMs: 50 } });
    harness.simulator.setFault({ kind: 'status', status: 429, path: '/api/v1/audio' });
    const pauses: (number | undefined)[] = [];
    for (let attempt = 0; attempt < 4; attempt += 1) {
      pauses.push(
        (await harness.failure(client.request('GET', '/api/v1/audio'), 'RATE_LIMITED')).retryAfterMs,
      );
    }
    should(pauses).eql([20, 40, 50, 50]);
    should(harness.simulator.counters.requestsByPath['/api/v1/audio']).equal(4);
  });
});

describe('api/client: device rate limit answered as 409', () => {
  const harness = useHarness({ rateLimitPerMinute: 2, rateLimitStatus: 409 });

  it('reads 409 "Too many requests" as RATE_LIMITED, not as an unsupported model', async () => {
    const client = harness.client({ rateLimitBackoff: { initialMs: 20, maxMs: 20 } });
    await client.request('GET', '/api/v1/audio');
    const error = await harness.failure(client.request('GET', '/api/v1/room/zones'), 'RATE_LIMITED');
    should(error.statusCode).equal(409);
    should(client.state).equal('rate_limited');
    should(harness.simulator.counters.failedLogins).equal(0);
  });
});

describe('api/client: requests wait in the queue without a device request', () => {
  const harness = useHarness();

  it('counts the retry after a 401 against the ceiling as well', async () => {
    // A ceiling of 30: a burst of 3, and the next token comes 60 s / 27 later.
    const client = harness.client({ maxRequestsPerMinute: 30 });
    await client.request('GET', '/api/v1/audio');
    harness.simulator.reboot();
    // Login + audio used 2; the stale-token request uses the third; the re-login must wait.
    const call = client.request('GET', '/api/v1/room/zones');
    await until(() => harness.simulator.requests.length === 3, 'the stale-token request');
    await delay(50);
    should(harness.simulator.requests).have.length(3);
    should(await isSettled(call)).be.false();
    await client.close();
    await harness.failure(call, 'CLOSED');
  });
});
