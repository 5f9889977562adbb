/**
 * The rooms split over two real Node-RED processes sharing one broker. Each room's own
 * broker connection carries a close message and a last will on its `<site>/status/<room>`, so a room
 * whose Node-RED stops or dies reads "offline" while the rooms of the other instance stay as they are.
 */
import { connectAsync } from 'mqtt';
import should from 'should';
import type { NodeRedProcess } from '../support/node-red-process';
import { probeUntil } from '../support/wait';
import {
  type Broker,
  type Room,
  roomsFlow,
  SITE,
  type Subscriber,
  startBroker,
  startNodeRedWith,
  startRooms,
  statusTopic,
  subscribeToSite,
  waitForTopics,
  zonesTopic,
} from './support';

const ROOMS_PER_INSTANCE = 5;

describe('rooms split over two Node-RED instances on one broker', function () {
  this.timeout(120000);
  let broker: Broker;
  let first: Room[];
  let second: Room[];
  let subscriber: Subscriber;
  let instances: (NodeRedProcess & { cleanUp(): Promise<void> })[] = [];
  const flowOf = (rooms: Room[]) =>
    roomsFlow(
      rooms.map((room) => ({ name: room.name, password: room.password, port: room.simulator.port })),
      broker.port,
    );
  const statusesOf = (rooms: Room[]) => rooms.map((room) => statusTopic(room.name));
  /** Until each of `topics` has said "offline" since the subscriber's `from`-th message. */
  const offlineSince = (from: number, topics: string[], what: string) =>
    probeUntil(what, () =>
      topics.every((topic) =>
        subscriber.history
          .slice(from)
          .some((message) => message.topic === topic && message.payload === 'offline'),
      )
        ? true
        : undefined,
    );

  before(async () => {
    broker = await startBroker();
    [first, second] = await Promise.all([
      startRooms(ROOMS_PER_INSTANCE, 'east'),
      startRooms(ROOMS_PER_INSTANCE, 'west'),
    ]);
    subscriber = await subscribeToSite(broker.port);
    instances = await Promise.all([startNodeRedWith(flowOf(first)), startNodeRedWith(flowOf(second))]);
    await waitForTopics(
      subscriber,
      statusesOf([...first, ...second]),
      (p) => p === 'online',
      'every room online',
    );
  });

  after(async () => {
    await Promise.all(instances.map((instance) => instance.cleanUp()));
    await subscriber?.end();
    await Promise.all([...(first ?? []), ...(second ?? [])].map((room) => room.simulator.close()));
    await broker?.close();
  });

  it('shows every room of both instances exactly once on the retained status topics', async () => {
    // A subscriber that comes later gets only what the broker retained: one status per room, no other.
    const late = await connectAsync(`mqtt://127.0.0.1:${broker.port}`);
    const received: string[] = [];
    late.on('message', (topic, payload) => {
      if (payload.length > 0) received.push(topic);
    });
    await late.subscribeAsync(`${SITE}/status/+`);
    const expected = statusesOf([...first, ...second]).sort();
    await probeUntil('the retained statuses', () => (received.length >= expected.length ? true : undefined));
    await late.endAsync();
    should([...received].sort()).eql(expected);
  });

  it("publishes every room's zones from the instance that holds it", async () => {
    await waitForTopics(
      subscriber,
      [...first, ...second].map((room) => zonesTopic(room.name)),
      (p) => p?.startsWith('[') === true,
      "every room's zones",
    );
  });

  it('marks every room offline while its broker connection is broken, and online again once it is back', async () => {
    const from = subscriber.history.length;
    broker.dropClientsExcept(subscriber.clientId);
    const topics = statusesOf([...first, ...second]);
    await offlineSince(from, topics, 'the last wills');
    // Node-RED reconnects by itself; each room sends its status again when its connection is back.
    await waitForTopics(subscriber, topics, (p) => p === 'online', 'every room online again');
  });

  it("marks a stopped instance's rooms offline and leaves the other instance's rooms online", async () => {
    await instances[0]?.stop();
    await waitForTopics(
      subscriber,
      statusesOf(first),
      (p) => p === 'offline',
      "the stopped instance's rooms offline",
    );
    for (const topic of statusesOf(second)) should(subscriber.latest.get(topic)).equal('online', topic);
  });

  it("marks a killed instance's rooms offline through their last wills alone", async () => {
    const from = subscriber.history.length;
    // A killed process sends no close message: only the broker, seeing its connections gone, can speak.
    await instances[1]?.kill();
    await offlineSince(from, statusesOf(second), 'the last wills of the killed instance');
  });
});
