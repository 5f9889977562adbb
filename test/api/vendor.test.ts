import should from 'should';
import { useHarness } from './helpers';

/**
 * Real devices use their maker's word where the spec writes `Vendor`, and answer a client that sends
 * `Vendor-Client-Id` with 400 `<Word>-Client-Id is missing`. The client takes the word the device names.
 */
describe('api/client: the vendor word a device names', () => {
  const harness = useHarness({ vendor: 'Acme' });

  it('repeats the request with the word the device names, and keeps using it', async () => {
    const client = harness.client();
    const named: Array<[string, string]> = [];
    client.on('vendor', (word, configured) => named.push([word, configured]));
    const response = await client.request('GET', '/api/v1/audio');
    should(response.statusCode).equal(200);
    await client.request('GET', '/api/v1/room/zones');
    should(client.vendor).equal('Acme');
    should(named).eql([['Acme', 'Vendor']]);
    const statuses = harness.simulator.requests.map((request) => `${request.path} ${request.status}`);
    // One 400 for the very first request; everything after it speaks the device's word.
    should(statuses).eql([
      '/api/v1/auth/login 400',
      '/api/v1/auth/login 200',
      '/api/v1/audio 200',
      '/api/v1/room/zones 200',
    ]);
    const last = harness.simulator.requests.at(-1);
    should(last?.headers.authorization).startWith('Acme ');
    should(last?.headers).have.property('acme-client-id');
  });

  it('reports VENDOR_MISMATCH when the device refuses the word it named too', async () => {
    const client = harness.client();
    const body = JSON.stringify({ errors: [{ message: 'Zeta-Client-Id is missing' }] });
    harness.simulator.setFault({ kind: 'status', status: 400, body, contentType: 'application/json' });
    const error = await harness.failure(client.request('GET', '/api/v1/audio'), 'VENDOR_MISMATCH');
    should(error.message).match(/vendor word 'Zeta'/);
    should(harness.simulator.requests.filter((request) => request.path === '/api/v1/auth/login')).have.length(
      2,
    );
  });

  it("uses the configured word without a detour when it is the device's", async () => {
    const client = harness.client({ vendor: 'Acme' });
    await client.request('GET', '/api/v1/audio');
    should(harness.simulator.requests.map((request) => request.status)).eql([200, 200]);
  });
});
