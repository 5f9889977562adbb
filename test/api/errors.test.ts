import should from 'should';
import { deviceMessageFrom } from '../../src/api';
import { useHarness } from './helpers';

describe('api/errors: deviceMessageFrom', () => {
  it('reads {errors:[{message}]}, joining several messages', () => {
    should(deviceMessageFrom({ errors: [{ message: 'Invalid account or password' }] })).equal(
      'Invalid account or password',
    );
    should(
      deviceMessageFrom({
        errors: [{ message: 'Vendor-Client-Id is missing' }, { message: 'Vendor-Client-Version is missing' }],
      }),
    ).equal('Vendor-Client-Id is missing; Vendor-Client-Version is missing');
  });

  it('reads problem details: the title and each problem with its details', () => {
    const body = {
      type: 'about:blank',
      title: 'Bad Request',
      instance: '/api/v1/audio',
      errorLevel: 'Error',
      problems: [{ type: 'x', errorCode: 'E1', title: 'Invalid value', details: 'outputLevel must be <= 0' }],
    };
    should(deviceMessageFrom(body)).equal('Bad Request: Invalid value: outputLevel must be <= 0');
    should(deviceMessageFrom({ title: 'Conflict' })).equal('Conflict');
  });

  it('reads JSON that arrives as text', () => {
    should(deviceMessageFrom('{"errors":[{"message":"Not found"}]}', 'application/json')).equal('Not found');
  });

  it('reads plain text, trimmed and shortened', () => {
    should(deviceMessageFrom('  Service   Unavailable \n', 'text/plain')).equal('Service Unavailable');
    const long = deviceMessageFrom('x'.repeat(1000), 'text/plain');
    should(long?.length).be.belowOrEqual(200);
  });

  it('reads the <title> of an HTML page, entities decoded', () => {
    const page =
      '<!DOCTYPE html><html><head><title>502 Bad Gateway &amp; more</title></head><body><h1>x</h1></body></html>';
    should(deviceMessageFrom(page, 'text/html')).equal('502 Bad Gateway & more');
    should(deviceMessageFrom('<html><body>no title</body></html>', 'text/html')).be.undefined();
  });

  it('gives undefined for an empty body or a shape it does not know', () => {
    should(deviceMessageFrom(undefined)).be.undefined();
    should(deviceMessageFrom('')).be.undefined();
    should(deviceMessageFrom('   ')).be.undefined();
    should(deviceMessageFrom({ zones: [] })).be.undefined();
    should(deviceMessageFrom(42)).be.undefined();
  });
});

describe('api/client: error answers', () => {
  const harness = useHarness();

  it('reports FORBIDDEN when the account lacks the role', async () => {
    const error = await harness.failure(
      harness.client().request('GET', '/api/v1/security/policy'),
      'FORBIDDEN',
    );
    should(error.statusCode).equal(403);
    should(error.message).match(/Account 'general' is not allowed to use GET \/api\/v1\/security\/policy/);
  });

  it('reports NOT_FOUND for an unknown path', async () => {
    const error = await harness.failure(harness.client().request('GET', '/api/v1/nothing'), 'NOT_FOUND');
    should(error.statusCode).equal(404);
    should(error.deviceMessage).equal('Not found');
  });

  it('reports UNSUPPORTED_MODEL for 409 "Unsupported device type"', async () => {
    harness.simulator.setModel('310');
    const error = await harness.failure(
      harness.client().request('GET', '/api/v1/room/zones'),
      'UNSUPPORTED_MODEL',
    );
    should(error.statusCode).equal(409);
    should(error.deviceMessage).equal('Unsupported device type');
  });

  it('reports HTTP_ERROR with status and device message for any other status', async () => {
    harness.simulator.setFault({ kind: 'status', status: 503, path: '/api/v1/audio' });
    const error = await harness.failure(harness.client().request('GET', '/api/v1/audio'), 'HTTP_ERROR');
    should(error.statusCode).equal(503);
    should(error.deviceMessage).equal('Simulated 503 answer');
    should(error.message).equal(
      'The device answered GET /api/v1/audio with an error (HTTP 503; device said: Simulated 503 answer)',
    );
  });

  it('reads a problem-details error body', async () => {
    harness.simulator.setErrorFormat('problem-details');
    const error = await harness.failure(harness.client().request('GET', '/api/v1/nothing'), 'NOT_FOUND');
    should(error.deviceMessage).match(/Not found/);
  });

  it('reads a plain-text error body', async () => {
    harness.simulator.setFault({
      kind: 'status',
      status: 500,
      body: ' Internal failure \n',
      contentType: 'text/plain',
      path: '/api/v1/audio',
    });
    const error = await harness.failure(harness.client().request('GET', '/api/v1/audio'), 'HTTP_ERROR');
    should(error.deviceMessage).equal('Internal failure');
  });

  it('reads the title of an HTML error page', async () => {
    harness.simulator.setFault({
      kind: 'status',
      status: 502,
      body: '<html><head><title>Bad Gateway</title></head><body><p>nginx</p></body></html>',
      contentType: 'text/html',
      path: '/api/v1/audio',
    });
    const error = await harness.failure(harness.client().request('GET', '/api/v1/audio'), 'HTTP_ERROR');
    should(error.deviceMessage).equal('Bad Gateway');
  });

  it('falls back to the status line for an empty error body', async () => {
    harness.simulator.setFault({ kind: 'status', status: 500, body: '', path: '/api/v1/audio' });
    const error = await harness.failure(harness.client().request('GET', '/api/v1/audio'), 'HTTP_ERROR');
    should(error.deviceMessage).be.undefined();
    should(error.message).match(/\(HTTP 500\)$/);
  });

  it('reports BAD_RESPONSE for a 2xx answer with JSON that cannot be parsed', async () => {
    harness.simulator.setFault({ kind: 'malformed-json', path: '/api/v1/audio' });
    const error = await harness.failure(harness.client().request('GET', '/api/v1/audio'), 'BAD_RESPONSE');
    should(error.statusCode).equal(200);
    should(error.message).match(/GET \/api\/v1\/audio/);
  });

  it('reports BAD_RESPONSE for a login answer without authParameters', async () => {
    harness.simulator.setFault({ kind: 'wrong-shape', body: { token: 'x' }, path: '/api/v1/auth/login' });
    const error = await harness.failure(harness.client().request('GET', '/api/v1/audio'), 'BAD_RESPONSE');
    should(error.message).match(/authParameters/);
  });

  it('refuses a method it does not know and a path outside the API with INVALID_INPUT, sending nothing', async () => {
    const client = harness.client();
    await harness.failure(client.request('TRACE' as 'GET', '/api/v1/audio'), 'INVALID_INPUT');
    await harness.failure(client.request('GET', '/admin'), 'INVALID_INPUT');
    await harness.failure(
      client.request('POST', '/api/v1/auth/login', { account: 'admin' }),
      'INVALID_INPUT',
    );
    await harness.failure(client.request('PATCH', '/api/v1/audio', { big: BigInt(1) }), 'INVALID_INPUT');
    should(harness.simulator.requests).have.length(0);
  });

  it('keeps the state connected when the device answers an error', async () => {
    const client = harness.client();
    await harness.failure(client.request('GET', '/api/v1/nothing'), 'NOT_FOUND');
    should(client.state).equal('connected');
  });
});
