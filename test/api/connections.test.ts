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

  it('queues a second request behind one waiting for its answer instead of opening a connection', async () => {
    const client = harness.client();
    await client.request('GET', AUDIO);
    const before = harness.simulator.stats().connections;
    harness.simulator.setFault({ kind: 'latency', ms: 150 });
    const answers = await Promise.all(THREE_PATHS.slice(0, 2).map((path) => client.request('GET', path)));
    should(answers.map((answer) => answer.statusCode)).eql([200, 200]);
    should(harness.simulator.stats().connections).equal(before);
  });

  it('opens another connection for a third request while two wait on the first', async () => {
    const client = harness.client();
    await client.request('GET', AUDIO);
    const before = harness.simulator.stats().connections;
    harness.simulator.setFault({ kind: 'latency', ms: 150 });
    const answers = await Promise.all(THREE_PATHS.map((path) => client.request('GET', path)));
    should(answers.map((answer) => answer.statusCode)).eql([200, 200, 200]);
    should(harness.simulator.stats().connections - before).equal(1);
  });

  it('carries a burst of requests over at most four connections, every request answered', async () => {
    const client = harness.client();
    await client.request('GET', AUDIO);
    const before = harness.simulator.stats().connections;
    const answers = await Promise.all(Array.from({ length: 12 }, () => client.request('GET', AUDIO)));
    should(answers.map((answer) => answer.statusCode)).eql(Array(12).fill(200));
    should(harness.simulator.stats().connections - before).be.belowOrEqual(3);
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
