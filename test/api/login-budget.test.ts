import FakeTimers from '@sinonjs/fake-timers';
import should from 'should';
import { DEVICE_PATHS, type DeviceError, STREAM_PATHS } from '../../src/api';
import { LOGIN_BUDGET } from '../../src/api/session';
import { delay } from '../support/wait';
import { HostileDevice } from './hostile-device';

/** Fast enough that, without a budget, logins would come many times a second. */
const QUICK = { loginBackoff: { initialMs: 10, maxMs: 50 } };
const QUICK_RECONNECT = { reconnect: { initialMs: 10, maxMs: 50 } };

describe('api/session: one login budget per client, requests and streams together', () => {
  let device: HostileDevice | undefined;

  afterEach(async () => {
    await device?.close();
    device = undefined;
  });

  /** Accepts every login, then answers 401 to everything else, streams included. */
  async function tokenRefusingDevice(): Promise<HostileDevice> {
    return HostileDevice.start((request, response) => {
      if (request.url === DEVICE_PATHS.login) return false;
      response.writeHead(401, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ errors: [{ message: 'Unauthorized' }] }));
      return true;
    });
  }

  it(`logs in at most ${LOGIN_BUDGET.logins} times in ${LOGIN_BUDGET.windowMs / 1000} s when the device refuses every token, with streams open`, async () => {
    device = await tokenRefusingDevice();
    const client = device.client(QUICK);
    const streams = [STREAM_PATHS.data, STREAM_PATHS.changes].map((path) =>
      client.eventStream(path, QUICK_RECONNECT),
    );
    for (const stream of streams) stream.start();
    const failures: DeviceError[] = [];
    // Far more attempts than the budget, from requests and streams at once, spread over a few seconds
    // (without a budget, the login backoff of this client would let a login through every 50 ms).
    for (let attempt = 0; attempt < 400 && device.logins <= LOGIN_BUDGET.logins; attempt += 1) {
      await client.request('GET', DEVICE_PATHS.audio).catch((error: DeviceError) => failures.push(error));
      await delay(5);
    }
    should(device.logins).be.belowOrEqual(LOGIN_BUDGET.logins);
    should(device.logins).be.above(1);
    const last = failures[failures.length - 1];
    should(last?.code).equal('AUTH_FAILED');
    should(last?.retryAfterMs).be.above(0);
  });

  it('answers AUTH_FAILED with the wait until a login is free again once the budget is spent', async () => {
    device = await tokenRefusingDevice();
    const client = device.client(QUICK);
    let spent: DeviceError | undefined;
    for (
      let attempt = 0;
      attempt < 2000 && spent === undefined && device.logins <= LOGIN_BUDGET.logins;
      attempt += 1
    ) {
      try {
        await client.request('GET', DEVICE_PATHS.audio);
      } catch (error) {
        if (/within/.test((error as DeviceError).message)) spent = error as DeviceError;
      }
      await delay(2);
    }
    should(spent?.code).equal('AUTH_FAILED');
    should(device.logins).equal(LOGIN_BUDGET.logins);
    // The logins went within a few seconds of a 30 s window: the next one is far beyond the login backoff.
    should(spent?.retryAfterMs).be.above(QUICK.loginBackoff.maxMs);
    should(client.state).equal('auth_failed');
  });

  it('waits longer each time the budget is spent again, while no token works', async () => {
    // Only the clock the session reads moves by hand: sockets and timers stay real.
    const clock = FakeTimers.install({ toFake: ['Date'] });
    try {
      device = await tokenRefusingDevice();
      const client = device.client(QUICK);
      const waits: number[] = [];
      for (let round = 1; round <= 2; round += 1) {
        let spent: DeviceError | undefined;
        for (let attempt = 0; attempt < 2000 && spent === undefined; attempt += 1) {
          await client.request('GET', DEVICE_PATHS.audio).catch((error: DeviceError) => {
            if (/within/.test(error.message)) spent = error;
          });
          // Past the login backoff of a refused token, so that only the budget holds logins back.
          clock.tick(QUICK.loginBackoff.maxMs + 1);
        }
        should(spent?.code).equal('AUTH_FAILED');
        waits.push(spent?.retryAfterMs ?? 0);
        clock.tick((spent?.retryAfterMs ?? 0) + 1);
      }
      should(waits[0]).be.aboveOrEqual(LOGIN_BUDGET.windowMs - 2000);
      should(waits[1]).be.above(waits[0] ?? 0);
    } finally {
      clock.uninstall();
    }
  });
});
