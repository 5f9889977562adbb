import should from 'should';
import { MAX_JSON_DEPTH, MAX_RESPONSE_BYTES, nestsDeeperThan } from '../../src/api/bodies';
import { useHarness } from './helpers';

const AUDIO = '/api/v1/audio';

describe('api/client: answers too large or cut off', () => {
  const harness = useHarness();

  it('stops reading a streamed answer past 1 MiB and reports BAD_RESPONSE saying so', async () => {
    const client = harness.client();
    harness.simulator.setFault({ kind: 'huge-body', bytes: 20 * 1024 * 1024, path: AUDIO, times: 1 });
    const error = await harness.failure(client.request('GET', AUDIO), 'BAD_RESPONSE');
    should(error.message).match(/GET \/api\/v1\/audio is larger than 1 MiB/);
    should(error.statusCode).equal(200);
  });

  it('refuses an answer whose Content-Length is above the cap without reading it', async () => {
    const client = harness.client();
    const body = JSON.stringify({ padding: 'x'.repeat(MAX_RESPONSE_BYTES) });
    harness.simulator.setFault({ kind: 'status', status: 200, body, path: AUDIO, times: 1 });
    const error = await harness.failure(client.request('GET', AUDIO), 'BAD_RESPONSE');
    should(error.message).containEql(`${Buffer.byteLength(body)} bytes announced`);
  });

  it('reads an answer of exactly the cap', async () => {
    const client = harness.client();
    harness.simulator.setFault({ kind: 'huge-body', bytes: MAX_RESPONSE_BYTES, path: AUDIO, times: 1 });
    const response = await client.request<{ padding: string }>('GET', AUDIO);
    should(response.body.padding.length).equal(MAX_RESPONSE_BYTES - '{"zones":[],"padding":""}'.length);
  });

  it('reports BAD_RESPONSE naming the bytes when the answer breaks off mid-body, state still connected', async () => {
    const client = harness.client();
    harness.simulator.setFault({ kind: 'cut-off', path: AUDIO, times: 1 });
    const error = await harness.failure(client.request('GET', AUDIO), 'BAD_RESPONSE');
    should(error.message).match(/GET \/api\/v1\/audio broke off after \d+ of \d+ bytes/);
    should(client.state).equal('connected');
  });

  it('serves the next request normally after a cut-off or oversized answer', async () => {
    const client = harness.client();
    harness.simulator.setFault({ kind: 'huge-body', path: AUDIO, times: 1 });
    await harness.failure(client.request('GET', AUDIO), 'BAD_RESPONSE');
    harness.simulator.setFault({ kind: 'cut-off', path: AUDIO, times: 1 });
    await harness.failure(client.request('GET', AUDIO), 'BAD_RESPONSE');
    should((await client.request('GET', AUDIO)).statusCode).equal(200);
    should(harness.simulator.counters.logins).equal(1);
  });
});

describe('api/client: answers framed or compressed by the device', () => {
  const harness = useHarness();

  for (const encoding of ['chunked', 'gzip'] as const) {
    it(`reads a ${encoding} answer as the same JSON as a plain one`, async () => {
      const client = harness.client();
      const plain = (await client.request('GET', '/api/v1/room/zones')).body;
      harness.simulator.setAnswerEncoding(encoding);
      should((await client.request('GET', '/api/v1/room/zones')).body).eql(plain);
    });
  }

  it('stops unpacking a gzip answer past 1 MiB and reports BAD_RESPONSE', async () => {
    const client = harness.client();
    harness.simulator.setAnswerEncoding('gzip');
    // Compresses to a few KiB, unpacks past the cap.
    harness.simulator.setZones([{ padding: 'x'.repeat(MAX_RESPONSE_BYTES + 1) }]);
    const error = await harness.failure(client.request('GET', '/api/v1/room/zones'), 'BAD_RESPONSE');
    should(error.message).match(/unpacks to more than 1 MiB/);
  });
});

describe('api/bodies: nesting depth', () => {
  const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

  it('takes 64 levels and refuses 65', () => {
    should(nestsDeeperThan(nested(MAX_JSON_DEPTH), MAX_JSON_DEPTH)).be.false();
    should(nestsDeeperThan(nested(MAX_JSON_DEPTH + 1), MAX_JSON_DEPTH)).be.true();
  });

  it('counts braces and brackets together: objects and arrays nested in turn are as deep as either', () => {
    const alternating = (depth: number) => {
      const opens = Array.from({ length: depth }, (_, level) => (level % 2 === 0 ? '{"a":' : '[')).join('');
      const closes = Array.from({ length: depth }, (_, level) => (level % 2 === 0 ? '}' : ']')).reverse();
      return `${opens}1${closes.join('')}`;
    };
    should(nestsDeeperThan(alternating(MAX_JSON_DEPTH), MAX_JSON_DEPTH)).be.false();
    should(nestsDeeperThan(alternating(MAX_JSON_DEPTH + 1), MAX_JSON_DEPTH)).be.true();
  });

  it('counts depth, not brackets: many side by side or inside strings are shallow', () => {
    should(nestsDeeperThan(`[${'{},'.repeat(500)}{}]`, MAX_JSON_DEPTH)).be.false();
    should(nestsDeeperThan(`{"text":"${'{['.repeat(500)}"}`, MAX_JSON_DEPTH)).be.false();
  });
});
