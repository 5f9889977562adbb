import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { inspect } from 'node:util';
import should from 'should';
import { type ConnectionState, DeviceClient, DeviceError } from '../../src/api';
import { readRoomZones } from '../../src/zones';
import { delay } from '../support/wait';
import { assertNoSecret, PASSWORD, useHarness, WRONG_PASSWORD } from './helpers';

const packageVersion: string = JSON.parse(
  readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8'),
).version;

describe('api/client: headers and login', () => {
  const harness = useHarness();

  it('sends nothing until the first request, then logs in', async () => {
    const client = harness.client();
    should(harness.simulator.requests).have.length(0);
    await client.request('GET', '/api/v1/audio');
    should(harness.simulator.requests.map((request) => request.path)).eql([
      '/api/v1/auth/login',
      '/api/v1/audio',
    ]);
  });

  it('sends both client headers on every request, the login included', async () => {
    const client = harness.client({ clientId: 'room-automation' });
    await client.request('GET', '/api/v1/audio');
    await client.request('PATCH', '/api/v1/audio', { microphoneMute: true });
    const requests = harness.simulator.requests;
    should(requests).have.length(3);
    for (const request of requests) {
      should(request.headers['vendor-client-id']).equal('room-automation');
      should(request.headers['vendor-client-version']).equal(packageVersion);
    }
  });

  it("defaults the client id to 'node-red' and the version to this package's version", async () => {
    await harness.client().request('GET', '/api/v1/audio');
    const [login] = harness.simulator.requests;
    should(login?.headers['vendor-client-id']).equal('node-red');
    should(login?.headers['vendor-client-version']).equal(packageVersion);
  });

  it('sends Content-Type: application/json on requests with a body only', async () => {
    const client = harness.client();
    await client.request('GET', '/api/v1/audio');
    await client.request('PATCH', '/api/v1/audio', { microphoneMute: true });
    const [login, get, patch] = harness.simulator.requests;
    should(login?.headers['content-type']).equal('application/json');
    should(get?.headers['content-type']).be.undefined();
    should(patch?.headers['content-type']).equal('application/json');
  });

  it('authorizes with "<vendor> <authParameters>", a single space, and no Authorization on login', async () => {
    await harness.client().request('GET', '/api/v1/audio');
    const [login, get] = harness.simulator.requests;
    should(login?.headers.authorization).be.undefined();
    should(get?.headers.authorization).match(/^Vendor [^ ]+$/);
  });

  it('logs in with a blank password where the device has one (older deployments)', async () => {
    harness.simulator.setPassword('general', '');
    const response = await harness.client({ password: '' }).request('GET', '/api/v1/audio');
    should(response.statusCode).equal(200);
  });

  it('logs in as admin and may then use admin endpoints', async () => {
    const client = harness.client({ account: 'admin', password: 'AD1-M1N-PWD' });
    const response = await client.request('GET', '/api/v1/security/policy');
    should(response.statusCode).equal(200);
  });

  it('reuses the token: two requests, one login', async () => {
    const client = harness.client();
    await client.request('GET', '/api/v1/audio');
    await client.request('GET', '/api/v1/room/zones');
    should(harness.simulator.counters.logins).equal(1);
  });

  it('logs in once for concurrent callers', async () => {
    const client = harness.client();
    await Promise.all([
      client.request('GET', '/api/v1/audio'),
      client.request('GET', '/api/v1/room/zones'),
      client.request('GET', '/api/v1/room/layout'),
      client.request('PATCH', '/api/v1/audio', { microphoneMute: true }),
      client.request('PATCH', '/api/v1/audio', { microphoneMute: false }),
    ]);
    should(harness.simulator.counters.logins).equal(1);
    should(harness.simulator.counters.requestsByPath['/api/v1/auth/login']).equal(1);
  });
});

describe('api/client: a custom vendor word', () => {
  const harness = useHarness({ vendor: 'Acme' });

  it('names the client headers and the Authorization scheme after the vendor word', async () => {
    const response = await harness.client({ vendor: 'Acme' }).request('GET', '/api/v1/audio');
    should(response.statusCode).equal(200);
    const [login, get] = harness.simulator.requests;
    should(login?.headers).have.properties(['acme-client-id', 'acme-client-version']);
    should(login?.headers).not.have.property('vendor-client-id');
    should(get?.headers.authorization).match(/^Acme [^ ]+$/);
  });

  it('explains a login refused for a header the device misses that names no other vendor word', async () => {
    const body = JSON.stringify({ errors: [{ message: 'Acme-Client-Version is missing' }] });
    harness.simulator.setFault({
      kind: 'status',
      status: 400,
      body,
      contentType: 'application/json',
      times: 1,
    });
    const error = await harness.failure(
      harness.client({ vendor: 'Acme' }).request('GET', '/api/v1/audio'),
      'AUTH_FAILED',
    );
    // The status answered the login, not the request: it must not read as the request refused.
    should(error.statusCode).be.undefined();
    should(error.deviceMessage).equal('Acme-Client-Version is missing');
    should(error.message).match(/with HTTP 400 \(device said: Acme-Client-Version is missing\)/);
    should(error.message).match(/vendor word/);
  });
});

describe('api/client: configuration is checked before any request', () => {
  const harness = useHarness();

  for (const [what, options, pattern] of [
    ['an account in capitals', { account: 'Admin' }, /'general' or 'admin'/],
    ['an unknown account', { account: 'root' }, /'general' or 'admin'/],
    ['a vendor word with a space', { vendor: 'Big Vendor' }, /HTTP token/],
    ['a vendor word with a colon', { vendor: 'Vendor:' }, /HTTP token/],
    ['a client id with a line break', { clientId: 'a\r\nb' }, /Client id/],
    ['a negative timeout', { timeoutMs: -1 }, /timeoutMs/],
    ['a fractional request ceiling', { maxRequestsPerMinute: 2.5 }, /maxRequestsPerMinute/],
    ['a backoff cap below its start', { loginBackoff: { initialMs: 100, maxMs: 10 } }, /maxMs/],
    ['a short fingerprint', { tls: { mode: 'pin', fingerprint: 'AB:CD' } }, /32 bytes/],
    ['a CA that is not PEM', { tls: { mode: 'ca', ca: 'not a certificate' } }, /PEM/],
    ['an unknown TLS mode', { tls: { mode: 'none' } }, /TLS mode/],
    ['a host with a path', { host: '10.0.0.5/x' }, /path/],
  ] as const) {
    it(`refuses ${what} with INVALID_CONFIG`, () => {
      let caught: unknown;
      try {
        harness.client(options as unknown as Record<string, never>);
      } catch (error) {
        caught = error;
      }
      should(caught).be.instanceOf(DeviceError);
      should((caught as DeviceError).code).equal('INVALID_CONFIG');
      should((caught as DeviceError).message).match(pattern);
      should(harness.simulator.requests).have.length(0);
    });
  }
});

describe('api/client: token refresh', () => {
  const harness = useHarness();

  it('logs in again once after a reboot and the call succeeds', async () => {
    const client = harness.client();
    await client.request('GET', '/api/v1/audio');
    harness.simulator.reboot();
    const response = await client.request('GET', '/api/v1/audio');
    should(response.statusCode).equal(200);
    should(harness.simulator.counters.logins).equal(2);
    should(harness.simulator.counters.requestsByPath['/api/v1/audio']).equal(3);
  });

  it('logs in again once after the password was set anew (tokens invalidated) and the call succeeds', async () => {
    const client = harness.client();
    await client.request('GET', '/api/v1/audio');
    harness.simulator.setPassword('general', PASSWORD);
    should((await client.request('GET', '/api/v1/room/zones')).statusCode).equal(200);
    should(harness.simulator.counters.logins).equal(2);
  });

  it('shares one re-login between concurrent callers that all met the stale token', async () => {
    const client = harness.client();
    await client.request('GET', '/api/v1/audio');
    harness.simulator.reboot();
    await Promise.all([
      client.request('GET', '/api/v1/audio'),
      client.request('GET', '/api/v1/room/zones'),
      client.request('PATCH', '/api/v1/audio', { microphoneMute: true }),
    ]);
    should(harness.simulator.counters.logins).equal(2);
  });

  it('fails with AUTH_FAILED after a 401 that a fresh login does not cure, retrying only once', async () => {
    const client = harness.client();
    harness.simulator.setFault({ kind: 'status', status: 401, path: '/api/v1/audio' });
    const error = await harness.failure(client.request('GET', '/api/v1/audio'), 'AUTH_FAILED');
    should(error.statusCode).equal(401);
    should(error.message).match(/even right after a fresh login/);
    should(harness.simulator.counters.requestsByPath['/api/v1/audio']).equal(2);
    should(harness.simulator.counters.logins).equal(2);
    should(client.state).equal('auth_failed');
  });

  it('reports AUTH_FAILED when the password changed on the device', async () => {
    const client = harness.client();
    await client.request('GET', '/api/v1/audio');
    harness.simulator.setPassword('general', 'pw-N3w-0ne!');
    const error = await harness.failure(client.request('GET', '/api/v1/audio'), 'AUTH_FAILED');
    should(error.message).match(/^Login refused/);
    should(harness.simulator.counters.failedLogins).equal(1);
  });
});

describe('api/client: refused login', () => {
  const harness = useHarness();

  it('says clearly that the password is wrong, with the device message', async () => {
    const client = harness.client({ password: WRONG_PASSWORD });
    const error = await harness.failure(client.request('GET', '/api/v1/audio'), 'AUTH_FAILED');
    should(error.message).equal(
      "Login refused: wrong password for account 'general' (device said: Invalid account or password)",
    );
    should(error.statusCode).equal(401);
    should(error.deviceMessage).equal('Invalid account or password');
    should(client.state).equal('auth_failed');
  });

  it('never floods the device: many calls after a refused login make one login attempt', async () => {
    // A backoff far longer than any stall of a busy machine: every call below falls inside it.
    const client = harness.client({ password: WRONG_PASSWORD, loginBackoff: { initialMs: 60_000 } });
    for (let call = 0; call < 10; call += 1) {
      await harness.failure(client.request('GET', '/api/v1/audio'), 'AUTH_FAILED');
    }
    await Promise.all(
      Array.from({ length: 10 }, () =>
        harness.failure(client.request('GET', '/api/v1/room/zones'), 'AUTH_FAILED'),
      ),
    );
    should(harness.simulator.counters.failedLogins).equal(1);
    should(harness.simulator.requests).have.length(1);
  });

  it('fails fast during the backoff with a message that says why', async () => {
    const client = harness.client({ password: WRONG_PASSWORD, loginBackoff: { initialMs: 60_000 } });
    await harness.failure(client.request('GET', '/api/v1/audio'), 'AUTH_FAILED');
    const error = await harness.failure(client.request('GET', '/api/v1/audio'), 'AUTH_FAILED');
    should(error.message).match(/not asking the device again/);
    should(error.deviceMessage).equal('Invalid account or password');
    should(harness.simulator.counters.failedLogins).equal(1);
  });

  it('tells how long it still holds back, in the error and in its JSON', async () => {
    const client = harness.client({ password: WRONG_PASSWORD, loginBackoff: { initialMs: 60_000 } });
    const refusal = await harness.failure(client.request('GET', '/api/v1/audio'), 'AUTH_FAILED');
    should(refusal.retryAfterMs).equal(60_000);
    const error = await harness.failure(client.request('GET', '/api/v1/audio'), 'AUTH_FAILED');
    // What is left of the 60 s; the margin absorbs any stall of a busy machine.
    should(error.retryAfterMs).be.within(50_000, 60_000);
    should(error.toJSON().retryAfterMs).equal(error.retryAfterMs);
    should(JSON.parse(JSON.stringify(error)).retryAfterMs).equal(error.retryAfterMs);
  });

  it('shares one login between concurrent callers when it is refused', async () => {
    const client = harness.client({ password: WRONG_PASSWORD });
    const paths = ['/api/v1/audio', '/api/v1/room/zones', '/api/v1/room/layout', '/api/v1/security/policy'];
    await Promise.all(paths.map((path) => harness.failure(client.request('GET', path), 'AUTH_FAILED')));
    should(harness.simulator.counters.failedLogins).equal(1);
  });

  it('tries again once the backoff is over', async () => {
    const client = harness.client({ password: WRONG_PASSWORD, loginBackoff: { initialMs: 50, maxMs: 50 } });
    await harness.failure(client.request('GET', '/api/v1/audio'), 'AUTH_FAILED');
    await delay(80);
    await harness.failure(client.request('GET', '/api/v1/audio'), 'AUTH_FAILED');
    should(harness.simulator.counters.failedLogins).equal(2);
  });

  it('keeps the backoff at its cap', async () => {
    const client = harness.client({ password: WRONG_PASSWORD, loginBackoff: { initialMs: 50, maxMs: 50 } });
    const delays: (number | undefined)[] = [];
    for (let attempt = 0; attempt < 3; attempt += 1) {
      delays.push(
        (await harness.failure(client.request('GET', '/api/v1/audio'), 'AUTH_FAILED')).retryAfterMs,
      );
      // Past the cap: a doubled delay (100, 200 ms) would refuse to ask the device again.
      await delay(80);
    }
    should(delays).eql([50, 50, 50]);
    should(harness.simulator.counters.failedLogins).equal(3);
  });

  it('doubles the backoff after each refusal', async () => {
    const client = harness.client({
      password: WRONG_PASSWORD,
      loginBackoff: { initialMs: 20, maxMs: 10_000 },
    });
    const delays: (number | undefined)[] = [];
    for (const pauseMs of [40, 60, 0]) {
      delays.push(
        (await harness.failure(client.request('GET', '/api/v1/audio'), 'AUTH_FAILED')).retryAfterMs,
      );
      // Longer than the delay just reported, so the next call reaches the device again.
      await delay(pauseMs);
    }
    should(delays).eql([20, 40, 80]);
    should(harness.simulator.counters.failedLogins).equal(3);
  });

  it('leaves the device alone for the whole doubled backoff, longer than the first', async () => {
    const client = harness.client({
      password: WRONG_PASSWORD,
      loginBackoff: { initialMs: 2000, maxMs: 10_000 },
    });
    await harness.failure(client.request('GET', '/api/v1/audio'), 'AUTH_FAILED');
    await delay(2100);
    const refusal = await harness.failure(client.request('GET', '/api/v1/audio'), 'AUTH_FAILED');
    should(refusal.retryAfterMs).equal(4000);
    const held = await harness.failure(client.request('GET', '/api/v1/audio'), 'AUTH_FAILED');
    should(held.message).match(/not asking the device again/);
    // Still more than the first delay ahead: holds unless the machine stalls for 2 s right here.
    should(held.retryAfterMs).be.above(2000);
    should(held.retryAfterMs).be.belowOrEqual(4000);
    should(harness.simulator.counters.failedLogins).equal(2);
  });

  it('starts a new client (new credentials) without backoff', async () => {
    await harness.failure(
      harness.client({ password: WRONG_PASSWORD }).request('GET', '/api/v1/audio'),
      'AUTH_FAILED',
    );
    const response = await harness.client({ password: PASSWORD }).request('GET', '/api/v1/audio');
    should(response.statusCode).equal(200);
    should(harness.simulator.counters.failedLogins).equal(1);
    should(harness.simulator.counters.logins).equal(1);
  });

  it('takes any other answer but a 2xx to the login as a refused login, and backs off as after a wrong password', async () => {
    const client = harness.client({ loginBackoff: { initialMs: 300, maxMs: 300 } });
    harness.simulator.setFault({ kind: 'status', status: 500, path: '/api/v1/auth/login', times: 1 });
    const error = await harness.failure(client.request('GET', '/api/v1/audio'), 'AUTH_FAILED');
    should(error.message).match(
      /^Login refused: the device answered the login of account 'general' with HTTP 500/,
    );
    should(error.retryAfterMs).equal(300);
    should(client.state).equal('auth_failed');
    const held = await harness.failure(client.request('GET', '/api/v1/audio'), 'AUTH_FAILED');
    should(held.message).match(/not asking the device again/);
    should(harness.simulator.requests.filter((request) => request.path === '/api/v1/auth/login')).have.length(
      1,
    );
    await delay(350);
    should((await client.request('GET', '/api/v1/audio')).statusCode).equal(200);
  });
});

describe('api/client: secrets stay in memory', () => {
  const harness = useHarness();

  it('keeps the password and the token out of the client object, its JSON and its inspection', async () => {
    const client = harness.client();
    await client.request('GET', '/api/v1/audio');
    const secrets = harness.secrets();
    should(harness.tokens()).have.length(1);
    should(Object.keys(client).join(',')).not.match(/password|auth/i);
    assertNoSecret(client, secrets);
    should(inspect(client, { showHidden: true, depth: Number.POSITIVE_INFINITY })).not.match(/pw-/);
  });

  it('keeps them out of every error a refused login provokes', async () => {
    const client = harness.client({ password: WRONG_PASSWORD });
    const errors: DeviceError[] = [];
    client.on('state', (_state, error) => {
      if (error !== undefined) errors.push(error);
    });
    errors.push(await harness.failure(client.request('GET', '/api/v1/audio'), 'AUTH_FAILED'));
    errors.push(await harness.failure(client.request('GET', '/api/v1/audio'), 'AUTH_FAILED'));
    should(errors.length).be.above(2);
    for (const error of errors) assertNoSecret(error, harness.secrets());
  });

  it('keeps the token out of errors after a stale token, even when the device echoes it', async () => {
    const client = harness.client();
    await client.request('GET', '/api/v1/audio');
    const [token] = harness.tokens();
    should(token).be.a.String();
    harness.simulator.setFault({
      kind: 'status',
      status: 500,
      body: `internal error for Vendor ${token} and password ${PASSWORD}`,
      contentType: 'text/plain',
      path: '/api/v1/audio',
    });
    const error = await harness.failure(client.request('GET', '/api/v1/audio'), 'HTTP_ERROR');
    should(error.deviceMessage).match(/\[redacted\]/);
  });
});

describe('api/client: state', () => {
  const harness = useHarness();

  it("emits 'state' on changes only: connecting, then connected", async () => {
    const client = harness.client();
    const states: ConnectionState[] = [];
    client.on('state', (state) => states.push(state));
    should(client.state).equal('idle');
    await client.request('GET', '/api/v1/audio');
    await client.request('GET', '/api/v1/audio');
    await client.request('GET', '/api/v1/room/zones');
    should(states).eql(['connecting', 'connected']);
  });

  it("emits 'auth_failed' with the error after a refused login", async () => {
    const client = harness.client({ password: WRONG_PASSWORD });
    const seen: [ConnectionState, string | undefined][] = [];
    client.on('state', (state, error) => seen.push([state, error?.code]));
    await harness.failure(client.request('GET', '/api/v1/audio'), 'AUTH_FAILED');
    should(seen).eql([
      ['connecting', undefined],
      ['auth_failed', 'AUTH_FAILED'],
    ]);
  });

  it('is a DeviceClient whose requests reject with CLOSED once closed', async () => {
    const client = harness.client();
    should(client).be.instanceOf(DeviceClient);
    await client.close();
    await harness.failure(client.request('GET', '/api/v1/audio'), 'CLOSED');
    await harness.failure(readRoomZones(client), 'CLOSED');
    should(harness.simulator.requests).have.length(0);
  });
});
