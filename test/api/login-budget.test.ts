import FakeTimers from '@sinonjs/fake-timers';
import should from 'should';
import { DEVICE_PATHS, type DeviceClient, DeviceError, STREAM_PATHS } from '../../src/api';
import { forgetLoginBudgets, LOGIN_BUDGET } from '../../src/api/login-budget';
import { delay } from '../support/wait';
import { HostileDevice } from './hostile-device';

/** Fast enough that, without a budget, logins would come many times a second. */
const QUICK = { loginBackoff: { initialMs: 10, maxMs: 50 } };
const QUICK_RECONNECT = { reconnect: { initialMs: 10, maxMs: 50 } };

describe('api/session: one login budget per device and account, requests and streams together', () => {
  let device: HostileDevice | undefined;

  beforeEach(forgetLoginBudgets);
  afterEach(async () => {
    await device?.close();
    device = undefined;
    forgetLoginBudgets();
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

  it(`logs in at most ${LOGIN_BUDGET.logins} times in ${LOGIN_BUDGET.windowMs / 1000} s for all the clients of one device and account`, async () => {
    device = await tokenRefusingDevice();
    const clients = Array.from({ length: 4 }, () => device?.client(QUICK) as DeviceClient);
    for (let round = 0; round < 100 && device.logins <= LOGIN_BUDGET.logins; round += 1) {
      await Promise.all(
        clients.map((client) => client.request('GET', DEVICE_PATHS.audio).catch(() => undefined)),
      );
      await delay(5);
    }
    should(device.logins).equal(LOGIN_BUDGET.logins);
  });

  it('keeps a budget of its own for each account of the device', async () => {
    device = await tokenRefusingDevice();
    const general = device.client(QUICK);
    for (let attempt = 0; attempt < 400 && device.logins < LOGIN_BUDGET.logins; attempt += 1) {
      await general.request('GET', DEVICE_PATHS.audio).catch(() => undefined);
      await delay(2);
    }
    should(device.logins).equal(LOGIN_BUDGET.logins);
    await device
      .client({ ...QUICK, account: 'admin' })
      .request('GET', DEVICE_PATHS.audio)
      .catch(() => undefined);
    should(device.logins).be.above(LOGIN_BUDGET.logins);
  });

  it('says the device refused the login when refused logins spent the budget', async () => {
    let logins = 0;
    device = await HostileDevice.start((request, response) => {
      if (request.url !== DEVICE_PATHS.login) return false;
      logins += 1;
      response.writeHead(400, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ errors: [{ message: 'Unsupported Attributes: account' }] }));
      return true;
    });
    const client = device.client({ loginBackoff: { initialMs: 1, maxMs: 1 } });
    let spent: DeviceError | undefined;
    for (let attempt = 0; attempt < 400 && spent === undefined; attempt += 1) {
      await client.request('GET', DEVICE_PATHS.audio).catch((error: DeviceError) => {
        if (/within/.test(error.message)) spent = error;
      });
      await delay(3);
    }
    should(logins).equal(LOGIN_BUDGET.logins);
    should(spent?.code).equal('AUTH_FAILED');
    should(spent?.message).match(/^The device refused the login: 10 logins of account 'general' within 30 s/);
    should(spent?.message).containEql('device said: Unsupported Attributes: account');
    should(spent?.message).not.match(/token/);
  });

  it("does not count a client's first login once its token works: many clients in turn are never held back", async () => {
    device = await HostileDevice.start((request, response) => {
      if (request.url === DEVICE_PATHS.login) return false;
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('{}');
      return true;
    });
    // More clients than the budget, one after the other, as a quick run of redeploys makes them.
    for (let client = 0; client < LOGIN_BUDGET.logins + 5; client += 1) {
      const response = await device.client(QUICK).request('GET', DEVICE_PATHS.audio);
      should(response.statusCode).equal(200);
    }
    should(device.logins).equal(LOGIN_BUDGET.logins + 5);
  });

  it('does not count logins that never reached the device', async () => {
    device = await tokenRefusingDevice();
    const refuse = () => {
      throw new DeviceError('TLS', 'not trusted in this test');
    };
    const refused = device.client({ tls: { mode: 'pin' }, trustFirstUse: refuse });
    for (let attempt = 0; attempt < LOGIN_BUDGET.logins + 5; attempt += 1) {
      await should(refused.request('GET', DEVICE_PATHS.audio)).be.rejectedWith({ code: 'TLS' });
    }
    should(device.logins).equal(0);
    await device
      .client(QUICK)
      .request('GET', DEVICE_PATHS.audio)
      .catch(() => undefined);
    should(device.logins).be.above(0);
  });

  it(`logs in at most ${LOGIN_BUDGET.logins} times more when the device takes each token once`, async () => {
    const used = new Set<string>();
    device = await HostileDevice.start((request, response) => {
      if (request.url === DEVICE_PATHS.login) return false;
      const token = String(request.headers.authorization);
      const known = !used.has(token);
      used.add(token);
      response.writeHead(known ? 200 : 401, { 'content-type': 'application/json' });
      response.end(known ? '{}' : JSON.stringify({ errors: [{ message: 'Unauthorized' }] }));
      return true;
    });
    const client = device.client(QUICK);
    for (let request = 0; request < 3 * LOGIN_BUDGET.logins; request += 1) {
      await client.request('GET', DEVICE_PATHS.audio).catch(() => undefined);
    }
    // The client's first login, whose token worked, and then the budget.
    should(device.logins).equal(LOGIN_BUDGET.logins + 1);
    const spent = await client.request('GET', DEVICE_PATHS.audio).catch((error: DeviceError) => error);
    should(spent)
      .have.property('message')
      .match(/asked for 10 logins .* more than a device that keeps its tokens needs/);
  });
});
