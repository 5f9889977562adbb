import FakeTimers from '@sinonjs/fake-timers';
import should from 'should';
import {
  type ConnectionState,
  DEVICE_PATHS,
  DeviceError,
  STREAM_PATHS,
  type StreamState,
} from '../../src/api';
import { LOGIN_PACE_DEFAULTS, loginTurn, setLoginPace, waitingLogins } from '../../src/api/login-pacer';
import { MAX_WINDOW_LIMIT } from '../../src/timing/sliding-window';
import { until } from '../support/wait';
import { isSettled, useHarness } from './helpers';

/** 10 a second: a burst of one, then one every 1000 / 9 ms, rounded up to whole milliseconds. */
const PACE = 10;
const SPACING_MS = 112;

describe('api/login-pacer: logins of the process take turns (simulated time)', () => {
  let clock: FakeTimers.Clock;

  beforeEach(() => {
    clock = FakeTimers.install({ toFake: ['Date', 'performance', 'setTimeout', 'clearTimeout'] });
    // Made after the clock, so the pacer reads simulated time.
    setLoginPace({ perSecond: PACE });
  });

  afterEach(() => {
    clock.uninstall();
    setLoginPace();
  });

  /** `count` logins asking for a turn now, each with a client of its own; the times they got it. */
  function queue(count: number): { startedAt: number[]; clients: AbortController[] } {
    const startedAt: number[] = [];
    const clients = Array.from({ length: count }, () => new AbortController());
    for (const client of clients) {
      loginTurn(client.signal).then(
        () => startedAt.push(performance.now()),
        () => undefined,
      );
    }
    return { startedAt, clients };
  }

  it('starts the first login at once and the next one a spacing later', async () => {
    const { startedAt } = queue(2);
    await clock.tickAsync(0);
    should(startedAt).have.length(1);
    await clock.tickAsync(SPACING_MS - 1);
    should(startedAt).have.length(1);
    await clock.tickAsync(1);
    should(startedAt).have.length(2);
  });

  it('starts waiting logins in the order they asked', async () => {
    const started: number[] = [];
    const client = new AbortController();
    for (const login of [1, 2, 3, 4]) void loginTurn(client.signal).then(() => started.push(login));
    await clock.tickAsync(4 * SPACING_MS);
    should(started).eql([1, 2, 3, 4]);
  });

  it('never starts more logins than the pace in any second when 200 ask at once, and starts them all', async () => {
    const { startedAt } = queue(200);
    await clock.tickAsync(200 * SPACING_MS);
    should(startedAt).have.length(200);
    let busiest = 0;
    let first = 0;
    for (let last = 0; last < startedAt.length; last += 1) {
      while ((startedAt[first] ?? 0) <= (startedAt[last] ?? 0) - 1000) first += 1;
      busiest = Math.max(busiest, last - first + 1);
    }
    should(busiest).be.within(PACE - 1, PACE);
  });

  it("takes a closed client's waiting login out of the queue at once, with CLOSED", async () => {
    queue(1);
    const leaving = new AbortController();
    const left = loginTurn(leaving.signal);
    const staying = loginTurn(new AbortController().signal);
    await clock.tickAsync(0);
    should(waitingLogins()).equal(2);
    leaving.abort();
    await should(left).be.rejectedWith({ code: 'CLOSED' });
    should(waitingLogins()).equal(1);
    // The login behind it takes its turn: the first spacing, not the second.
    await clock.tickAsync(SPACING_MS);
    should(await isSettled(staying)).be.true();
  });

  it('does not queue the login of a client already closed', async () => {
    queue(1);
    const closed = new AbortController();
    closed.abort();
    await should(loginTurn(closed.signal)).be.rejectedWith({ code: 'CLOSED' });
    should(waitingLogins()).equal(0);
  });
});

describe('api/login-pacer: the pace setting', () => {
  afterEach(() => {
    setLoginPace();
  });

  for (const perSecond of [0, -5, 2.5, Number.NaN, Number.POSITIVE_INFINITY, MAX_WINDOW_LIMIT + 1]) {
    it(`refuses ${perSecond} logins a second with INVALID_CONFIG naming the option`, () => {
      should(() => setLoginPace({ perSecond })).throw(DeviceError, {
        code: 'INVALID_CONFIG',
        message: /perSecond must be a positive whole number of at most 10000/,
      });
    });
  }

  it('refuses a pace given as text', () => {
    should(() => setLoginPace({ perSecond: '20' as unknown as number })).throw({ code: 'INVALID_CONFIG' });
  });

  it(`paces ${LOGIN_PACE_DEFAULTS.perSecond} a second when the pace is not given`, async () => {
    const clock = FakeTimers.install({ toFake: ['Date', 'performance', 'setTimeout', 'clearTimeout'] });
    try {
      setLoginPace({});
      const client = new AbortController();
      // A tenth of the pace starts at once; the next one waits.
      const turns = Array.from({ length: LOGIN_PACE_DEFAULTS.perSecond / 10 + 1 }, () =>
        loginTurn(client.signal),
      );
      should(waitingLogins()).equal(1);
      client.abort();
      await Promise.allSettled(turns);
    } finally {
      clock.uninstall();
    }
  });
});

describe('api/login-pacer: clients waiting for their turn (real simulator)', () => {
  const harness = useHarness();

  beforeEach(() => {
    // One login a second: the second client's login waits about a second after the first one's.
    setLoginPace({ perSecond: 1 });
  });

  afterEach(() => {
    setLoginPace();
  });

  it('never logs in a client closed while its login waits, and fails its request with CLOSED', async () => {
    await harness.client().request('GET', DEVICE_PATHS.audio);
    const closing = harness.client();
    const request = closing.request('GET', DEVICE_PATHS.audio);
    await until(() => waitingLogins() === 1, 'the login waiting for its turn');
    const closed = closing.close();
    // At once, not when its turn would have come.
    should(waitingLogins()).equal(0);
    await closed;
    await harness.failure(request, 'CLOSED');
    should(harness.simulator.counters.logins).equal(1);
  });

  it('answers a request whose login waited longer than the timeout, connecting meanwhile', async () => {
    await harness.client().request('GET', DEVICE_PATHS.audio);
    const waiting = harness.client({ timeoutMs: 100 });
    const states: ConnectionState[] = [];
    waiting.on('state', (state) => states.push(state));
    const request = waiting.request('GET', DEVICE_PATHS.audio);
    await until(() => waitingLogins() === 1, 'the login waiting for its turn');
    const response = await request;
    should(response.statusCode).equal(200);
    should(states).eql(['connecting', 'connected']);
    should(harness.simulator.counters.logins).equal(2);
  });

  it('opens an event stream whose login waited longer than the timeout without a reconnect', async () => {
    await harness.client().request('GET', DEVICE_PATHS.audio);
    const stream = harness.client({ timeoutMs: 100 }).eventStream(STREAM_PATHS.changes);
    const states: StreamState[] = [];
    stream.on('state', (state) => states.push(state));
    stream.start();
    await until(() => waitingLogins() === 1, 'the login waiting for its turn');
    await until(() => stream.state === 'streaming', 'the stream', 5000);
    should(states).eql(['connecting', 'streaming']);
  });
});
