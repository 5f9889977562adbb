import { request as httpsRequest } from 'node:https';
import should from 'should';
import { type DeviceSimulator, startSimulator } from '../../src/simulator';
import { until } from '../support/wait';
import { messagesOf, TestCaller } from './helpers';

describe('simulator: rate limit, error shapes and faults', () => {
  let simulator: DeviceSimulator;
  let caller: TestCaller;
  let token: string;

  beforeEach(async () => {
    simulator = await startSimulator({ rateLimitPerMinute: 5 });
    caller = new TestCaller(simulator);
    token = await caller.login('general', '');
  });

  afterEach(async () => {
    await caller.close();
    await simulator.close();
  });

  describe('rate limit', () => {
    it('answers 429 Too many requests past the limit per minute and counts it', async () => {
      const statuses: number[] = [];
      for (let index = 0; index < 6; index += 1) {
        const answer = await caller.call('GET', '/api/v1/heartbeat');
        statuses.push(answer.status);
        if (answer.status === 429) messagesOf(answer.json).should.eql(['Too many requests']);
      }
      // The login in beforeEach was the first of five.
      statuses.should.eql([200, 200, 200, 200, 429, 429]);
      simulator.counters.rateLimited.should.equal(2);
    });

    it('answers 409 instead when configured as one documentation page says', async () => {
      simulator.setRateLimit(1, 409);
      (await caller.call('GET', '/api/v1/heartbeat')).status.should.equal(200);
      const limited = await caller.call('GET', '/api/v1/heartbeat');
      limited.status.should.equal(409);
      messagesOf(limited.json).should.eql(['Too many requests']);
    });

    it('limits each client id on its own', async () => {
      simulator.setRateLimit(1);
      (await caller.call('GET', '/api/v1/heartbeat')).status.should.equal(200);
      (await caller.call('GET', '/api/v1/heartbeat')).status.should.equal(429);
      const other = await caller.call('GET', '/api/v1/heartbeat', {
        headers: { 'Vendor-Client-Id': 'another-app' },
      });
      other.status.should.equal(200);
    });

    it('does not rate-limit the control endpoints', async () => {
      simulator.setRateLimit(1);
      for (let index = 0; index < 3; index += 1)
        (await caller.control('GET', 'state')).status.should.equal(200);
      (await caller.call('GET', '/api/v1/heartbeat')).status.should.equal(200);
    });
  });

  describe('problem-details error format', () => {
    it('answers errors as problem details when asked', async () => {
      simulator.setErrorFormat('problem-details');
      const answer = await caller.call('GET', '/api/v1/room/zones', {
        headers: { Authorization: 'Vendor wrong' },
      });
      answer.status.should.equal(401);
      answer.headers['content-type'].should.startWith('application/problem+json');
      const body = answer.json as Record<string, unknown>;
      body.should.have.properties({
        title: 'Unauthorized',
        instance: '/api/v1/room/zones',
        errorLevel: 'Error',
      });
      body.should.have.property('type').which.is.a.String();
      (body.problems as Record<string, unknown>[]).should.have.length(1);
      (body.problems as Record<string, unknown>[])[0].should.have.properties({
        title: 'Unauthorized',
        details: 'Unauthorized',
      });
    });

    it('gives one problem per message', async () => {
      simulator.setErrorFormat('problem-details');
      const answer = await caller.call('GET', '/api/v1/heartbeat', { bare: true });
      const problems = (answer.json as { problems: { details: string }[] }).problems;
      problems
        .map((problem) => problem.details)
        .should.eql(['Vendor-Client-Id is missing', 'Vendor-Client-Version is missing']);
    });
  });

  describe('faults', () => {
    it('answers a status fault with an error body in the current format', async () => {
      simulator.setFault({ kind: 'status', status: 503 });
      const answer = await caller.call('GET', '/api/v1/room/zones', { token });
      answer.status.should.equal(503);
      messagesOf(answer.json).should.eql(['Simulated 503 answer']);
    });

    it('answers a status fault with the given body and content type', async () => {
      simulator.setFault({
        kind: 'status',
        status: 502,
        body: '<html>Bad gateway</html>',
        contentType: 'text/html',
      });
      const answer = await caller.call('GET', '/api/v1/room/zones', { token });
      answer.status.should.equal(502);
      answer.headers['content-type'].should.equal('text/html');
      answer.text.should.equal('<html>Bad gateway</html>');
    });

    it('clears a fault by itself after the given number of times', async () => {
      simulator.setFault({ kind: 'status', status: 500, times: 2 });
      const statuses = [];
      for (let index = 0; index < 3; index += 1) {
        statuses.push((await caller.call('GET', '/api/v1/room/zones', { token })).status);
      }
      statuses.should.eql([500, 500, 200]);
      should(simulator.getState().fault).be.null();
    });

    it('keeps a fault to its path', async () => {
      simulator.setFault({ kind: 'status', status: 500, path: '/api/v1/room/zones' });
      (await caller.call('GET', '/api/v1/audio', { token })).status.should.equal(200);
      (await caller.call('GET', '/api/v1/room/zones', { token })).status.should.equal(500);
    });

    it('applies a fault to the login too when no path is given', async () => {
      simulator.setFault({ kind: 'status', status: 500, times: 1 });
      (
        await caller.call('POST', '/api/v1/auth/login', { body: { account: 'general', password: '' } })
      ).status.should.equal(500);
      simulator.counters.logins.should.equal(1);
    });

    it('closes the connection without an answer on a reset fault', async () => {
      simulator.setFault({ kind: 'reset', path: '/api/v1/room/zones', times: 1 });
      await should(caller.call('GET', '/api/v1/room/zones', { token })).be.rejected();
      simulator.requests.at(-1)?.should.have.properties({ path: '/api/v1/room/zones', status: 0 });
      (await caller.call('GET', '/api/v1/room/zones', { token })).status.should.equal(200);
    });

    it('answers 200 with a truncated JSON body on a malformed-json fault', async () => {
      simulator.setFault({ kind: 'malformed-json' });
      const answer = await caller.call('GET', '/api/v1/room/zones', { token });
      answer.status.should.equal(200);
      answer.headers['content-type'].should.startWith('application/json');
      should(() => JSON.parse(answer.text)).throw(SyntaxError);
    });

    it('answers 200 with the given JSON on a wrong-shape fault', async () => {
      simulator.setFault({ kind: 'wrong-shape', body: { zones: 'none' } });
      const answer = await caller.call('GET', '/api/v1/room/zones', { token });
      answer.status.should.equal(200);
      should(answer.json).eql({ zones: 'none' });
    });

    it('announces the whole answer on a cut-off fault, then closes the connection halfway', async () => {
      simulator.setFault({ kind: 'cut-off', path: '/api/v1/room/zones', times: 1 });
      const answer = await rawGet(simulator, '/api/v1/room/zones', {
        ...caller.clientHeaders(),
        Authorization: `Vendor ${token}`,
      });
      answer.status.should.equal(200);
      const announced = Number(answer.headers['content-length']);
      answer.received.should.be.above(0).and.below(announced);
      answer.complete.should.be.false();
      simulator.requests.at(-1)?.status.should.equal(200);
      (await caller.call('GET', '/api/v1/room/zones', { token })).status.should.equal(200);
    });

    it('streams the given number of bytes of JSON without a Content-Length on a huge-body fault', async () => {
      simulator.setFault({ kind: 'huge-body', bytes: 300_000, times: 1 });
      const answer = await caller.call('GET', '/api/v1/room/zones', { token });
      answer.status.should.equal(200);
      should(answer.headers['content-length']).be.undefined();
      answer.headers['transfer-encoding'].should.equal('chunked');
      Buffer.byteLength(answer.text).should.equal(300_000);
      (answer.json as { padding: string }).padding.should.match(/^x+$/);
    });

    it('refuses a huge-body fault with a size that is not a whole number of bytes', () => {
      should(() => simulator.setFault({ kind: 'huge-body', bytes: 1.5 })).throw(/fault.bytes/);
      should(() => simulator.setFault({ kind: 'huge-body', bytes: -1 })).throw(/fault.bytes/);
    });

    it('holds the answer back while a latency fault applies', async () => {
      simulator.setFault({ kind: 'latency', ms: 10 * 60_000 });
      const pending = caller.call('GET', '/api/v1/heartbeat').catch((error: unknown) => error);
      await until(
        () => simulator.requests.some((request) => request.path === '/api/v1/heartbeat'),
        'the heartbeat request',
      );
      simulator.requests.at(-1)?.status.should.equal(0);
      // Closing drops the held answer, so the caller sees the connection end instead.
      await simulator.close();
      should(await pending).be.an.Error();
    });

    it('answers normally once a short latency has passed', async () => {
      simulator.setFault({ kind: 'latency', ms: 20 });
      (await caller.call('GET', '/api/v1/room/zones', { token })).status.should.equal(200);
    });

    it('stops a fault when cleared', async () => {
      simulator.setFault({ kind: 'status', status: 500 });
      simulator.setFault(null);
      (await caller.call('GET', '/api/v1/room/zones', { token })).status.should.equal(200);
    });

    it('refuses a fault of an unknown kind', () => {
      should(() => simulator.setFault({ kind: 'explode' } as never)).throw(TypeError);
    });
  });
});

/** A GET that keeps what arrived when the connection ends early (undici would only reject). */
function rawGet(
  simulator: DeviceSimulator,
  path: string,
  headers: Record<string, string>,
): Promise<{ status: number; headers: Record<string, unknown>; received: number; complete: boolean }> {
  return new Promise((resolve, reject) => {
    const request = httpsRequest(`${simulator.url}${path}`, {
      headers,
      rejectUnauthorized: false,
      agent: false,
    });
    request.on('error', reject);
    request.on('response', (response) => {
      let received = 0;
      response.on('data', (chunk: Buffer) => {
        received += chunk.length;
      });
      // An early end shows as 'aborted' plus an error on the response, or as a close without completion.
      response.on('error', () => undefined);
      response.on('close', () =>
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          received,
          complete: response.complete,
        }),
      );
    });
    request.end();
  });
}
