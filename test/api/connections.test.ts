import should from 'should';
import { until } from '../support/wait';
import { useHarness } from './helpers';

const AUDIO = '/api/v1/audio';
/** Different paths: identical GETs under way share one request. */
const THREE_PATHS = [AUDIO, '/api/v1/status', '/api/v1/room/layout'];

describe('api/connections: the connections to one device', () => {
  const harness = useHarness();

  it('sends requests made one after another over one kept-alive connection', async () => {
    const client = harness.client();
    await client.request('GET', AUDIO);
    const after = harness.simulator.stats().connections;
    for (let index = 0; index < 5; index++) await client.request('GET', AUDIO);
    should(harness.simulator.stats().connections).equal(after);
  });

  it('sends a burst of requests one after another over the open connection while the device answers promptly', async () => {
    const client = harness.client();
    await client.request('GET', AUDIO);
    const before = harness.simulator.stats().connections;
    harness.simulator.setFault({ kind: 'latency', ms: 20 });
    const answers = await Promise.all(THREE_PATHS.map((path) => client.request('GET', path)));
    should(answers.map((answer) => answer.statusCode)).eql([200, 200, 200]);
    should(harness.simulator.stats().connections).equal(before);
  });

  it('does not keep a request waiting behind one the device is slow to answer', async () => {
    const client = harness.client();
    await client.request('GET', AUDIO);
    const before = harness.simulator.stats().connections;
    harness.simulator.setFault({ kind: 'latency', ms: 1500, path: AUDIO });
    const answered: string[] = [];
    const answer = (path: string) => client.request('GET', path).then(() => answered.push(path));
    await Promise.all([answer(AUDIO), answer('/api/v1/status')]);
    should(answered).eql(['/api/v1/status', AUDIO]);
    should(harness.simulator.stats().connections - before).equal(1);
  });

  it('fails a request still waiting for a free connection as CLOSED when its client closes', async () => {
    const client = harness.client();
    await client.request('GET', AUDIO);
    harness.simulator.setFault({ kind: 'latency', ms: 500 });
    const arrived = harness.simulator.stats().httpRequests;
    const first = client.request('GET', AUDIO).catch((error: unknown) => error);
    const second = client.request('GET', '/api/v1/status').catch((error: unknown) => error);
    await until(() => harness.simulator.stats().httpRequests > arrived, 'the first request to arrive');
    await client.close();
    should(await second).have.property('code', 'CLOSED');
    should(await first).have.property('code', 'CLOSED');
    should(harness.simulator.stats().httpRequests).equal(arrived + 1);
  });

  it('lets a request whose caller gives up while it waits go at once: no connection opened, nothing sent', async () => {
    const client = harness.client();
    await client.request('GET', AUDIO);
    harness.simulator.setFault({ kind: 'latency', ms: 600 });
    const { connections, httpRequests } = harness.simulator.stats();
    const first = client.request('GET', AUDIO);
    const caller = new AbortController();
    const given = client
      .request('GET', '/api/v1/status', undefined, { signal: caller.signal })
      .catch((error: unknown) => error);
    await until(() => harness.simulator.stats().httpRequests > httpRequests, 'the first request to arrive');
    caller.abort();
    const settled: string[] = [];
    await Promise.all([first.then(() => settled.push('first')), given.then(() => settled.push('given up'))]);
    should(settled).eql(['given up', 'first']);
    should(await given).have.property('code', 'CLOSED');
    should(harness.simulator.stats()).match({ connections, httpRequests: httpRequests + 1 });
  });

  it('carries a burst the device is slow to answer over at most four connections, every request answered', async () => {
    const client = harness.client();
    await client.request('GET', AUDIO);
    const before = harness.simulator.stats().connections;
    harness.simulator.setFault({ kind: 'latency', ms: 600 });
    const paths = [...THREE_PATHS, '/api/v1/room/profiles', '/api/v1/audio/hardware', '/api/v1/room/zones'];
    const answers = await Promise.all(paths.map((path) => client.request('GET', path)));
    should(answers.map((answer) => answer.statusCode)).eql(Array(6).fill(200));
    should(harness.simulator.stats().connections - before).equal(3);
  });

  it('gives an event stream a connection of its own and closes it with the stream', async () => {
    const client = harness.client();
    await client.request('GET', AUDIO);
    const stream = client.eventStream('/api/v1/events');
    stream.start();
    await until(() => harness.simulator.openStreams === 1, 'the stream to open');
    const before = harness.simulator.stats().connections;
    await client.request('GET', AUDIO);
    should(harness.simulator.stats().connections).equal(before);
    await stream.close();
    await until(() => harness.simulator.openStreams === 0, 'the stream connection to close');
  });
});
