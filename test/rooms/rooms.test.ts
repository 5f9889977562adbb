/**
 * Twenty rooms from the one "conference room" template of examples/09, each against
 * its own simulator, in one real Node-RED, publishing to one broker.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import should from 'should';
import { DEVICE_PATHS } from '../../src/api';
import { sampleZones } from '../../src/simulator';
import type { NodeRedProcess } from '../support/node-red-process';
import {
  activeZoneTopic,
  askRoomDevice,
  type Broker,
  type Room,
  roomsFlow,
  type Subscriber,
  startBroker,
  startNodeRedWith,
  startRooms,
  stateTopic,
  statusTopic,
  subscribeToSite,
  waitForTopics,
  zonesTopic,
} from './support';

const ROOMS = 20;

describe('many rooms from one subflow template (examples/09)', function () {
  this.timeout(120000);
  let broker: Broker;
  let rooms: Room[];
  let wrongPassword: Room;
  let subscriber: Subscriber;
  let nodeRed: NodeRedProcess & { cleanUp(): Promise<void> };

  before(async () => {
    broker = await startBroker();
    rooms = await startRooms(ROOMS);
    [wrongPassword] = await startRooms(1, 'locked');
    subscriber = await subscribeToSite(broker.port);
    const given = [
      ...rooms.map((room) => ({ name: room.name, password: room.password, port: room.simulator.port })),
      // Its simulator expects another password: the room must say so, the others must not care.
      { name: 'locked-0', password: 'not-the-password', port: (wrongPassword as Room).simulator.port },
    ];
    nodeRed = await startNodeRedWith(roomsFlow(given, broker.port));
  });

  after(async () => {
    await nodeRed?.cleanUp();
    await subscriber?.end();
    await Promise.all(
      [...(rooms ?? []), wrongPassword].filter(Boolean).map((room) => room.simulator.close()),
    );
    await broker?.close();
  });

  it('brings every room online on its retained status topic, each with its own host, port and password', async () => {
    await waitForTopics(
      subscriber,
      rooms.map((room) => statusTopic(room.name)),
      (p) => p === 'online',
      'every room online',
    );
  });

  it("publishes every room's zones from that room's device", async () => {
    const ids = (sampleZones() as { id: string }[]).map((zone) => zone.id);
    await waitForTopics(
      subscriber,
      rooms.map((room) => zonesTopic(room.name)),
      (p) => p !== undefined,
      "every room's zones",
    );
    for (const room of rooms) {
      const zones = JSON.parse(subscriber.latest.get(zonesTopic(room.name)) ?? '[]') as { id: string }[];
      should(zones.map((zone) => zone.id)).eql(ids, room.name);
    }
  });

  it("publishes every room's active zone", async () => {
    await waitForTopics(
      subscriber,
      rooms.map((room) => activeZoneTopic(room.name)),
      (p) => p?.includes('"label":"Presenter"') === true,
      "every room's active zone",
    );
  });

  it("publishes every room's audio and status state, retained, as its device reports them", async () => {
    const groups = { audio: DEVICE_PATHS.audio, status: DEVICE_PATHS.status };
    // The status group is GET /api/v1/status plus `calibrating` (false: no calibration runs here).
    const added: Record<string, object> = { status: { calibrating: false } };
    const topics = rooms.flatMap((room) => Object.keys(groups).map((group) => stateTopic(room.name, group)));
    await waitForTopics(subscriber, topics, (p) => p !== undefined, "every room's state");
    // A subscriber that comes later gets them from the broker alone: nothing changes meanwhile.
    const late = await subscribeToSite(broker.port);
    try {
      await waitForTopics(late, topics, (p) => p !== undefined, "every room's retained state");
      for (const room of rooms)
        for (const [group, apiPath] of Object.entries(groups))
          should(JSON.parse(late.latest.get(stateTopic(room.name, group)) ?? 'null')).eql(
            { ...((await askRoomDevice(room, 'GET', apiPath)) as object), ...added[group] },
            `${room.name} ${group}`,
          );
    } finally {
      await late.end();
    }
  });

  it("says muted while a room's microphone is muted by another controller, and online once it is live again", async () => {
    const room = rooms[1] as Room;
    await waitForTopics(subscriber, [statusTopic(room.name)], (p) => p === 'online', `${room.name} online`);
    await askRoomDevice(room, 'PATCH', DEVICE_PATHS.audio, { microphoneMute: true });
    await waitForTopics(subscriber, [statusTopic(room.name)], (p) => p === 'muted', `${room.name} muted`);
    should(JSON.parse(subscriber.latest.get(stateTopic(room.name, 'audio')) ?? '{}')).have.property(
      'microphoneMute',
      true,
    );
    for (const other of rooms.filter((other) => other !== room))
      should(subscriber.latest.get(statusTopic(other.name))).equal('online', other.name);
    await askRoomDevice(room, 'PATCH', DEVICE_PATHS.audio, { microphoneMute: false });
    await waitForTopics(
      subscriber,
      [statusTopic(room.name)],
      (p) => p === 'online',
      `${room.name} online again`,
    );
  });

  it("says muted when the device's own app mutes it (never announced: the data stream shows it)", async () => {
    const room = rooms[2] as Room;
    await waitForTopics(subscriber, [statusTopic(room.name)], (p) => p === 'online', `${room.name} online`);
    room.simulator.setAudio({ microphoneMute: true });
    await waitForTopics(subscriber, [statusTopic(room.name)], (p) => p === 'muted', `${room.name} muted`);
    room.simulator.setAudio({ microphoneMute: false });
    await waitForTopics(
      subscriber,
      [statusTopic(room.name)],
      (p) => p === 'online',
      `${room.name} online again`,
    );
  });

  it('comes back online after one failed read, though its active zone shows nothing new', async () => {
    // The talker stands still: the active zone's status does not move, so only the state node's next
    // read can bring the room back.
    const room = rooms[3] as Room;
    await waitForTopics(subscriber, [statusTopic(room.name)], (p) => p === 'online', `${room.name} online`);
    room.simulator.setFault({ kind: 'status', status: 500, path: DEVICE_PATHS.audio, times: 1 });
    await waitForTopics(subscriber, [statusTopic(room.name)], (p) => p === 'error', `${room.name} error`);
    await waitForTopics(
      subscriber,
      [statusTopic(room.name)],
      (p) => p === 'online',
      `${room.name} online again`,
    );
  });

  it('marks a room whose password the device refuses as unauthorized', async () => {
    await waitForTopics(
      subscriber,
      [statusTopic('locked-0')],
      (p) => p === 'unauthorized',
      'locked-0 unauthorized',
    );
  });

  it('marks a room whose device stops answering as unreachable', async () => {
    const gone = rooms[ROOMS - 1] as Room;
    await waitForTopics(subscriber, [statusTopic(gone.name)], (p) => p === 'online', `${gone.name} online`);
    await gone.simulator.close();
    await waitForTopics(
      subscriber,
      [statusTopic(gone.name)],
      (p) => p === 'unreachable',
      `${gone.name} unreachable`,
    );
    for (const room of rooms.slice(0, -1))
      should(subscriber.latest.get(statusTopic(room.name))).equal('online');
  });

  it("says unreachable, not muted, when a muted room's device stops answering", async () => {
    const room = rooms[ROOMS - 2] as Room;
    room.simulator.setAudio({ microphoneMute: true });
    await waitForTopics(subscriber, [statusTopic(room.name)], (p) => p === 'muted', `${room.name} muted`);
    await room.simulator.close();
    await waitForTopics(
      subscriber,
      [statusTopic(room.name)],
      (p) => p === 'unreachable',
      `${room.name} unreachable`,
    );
  });

  it('keeps every password out of the flows file and out of the exported flows', async () => {
    await waitForTopics(
      subscriber,
      [statusTopic(rooms[0]?.name ?? '')],
      (p) => p === 'online',
      'a room online',
    );
    const flowsFile = readFileSync(path.join(nodeRed.userDir, 'flows.json'), 'utf8');
    const credentialsFile = readFileSync(path.join(nodeRed.userDir, 'flows_cred.json'), 'utf8');
    const exported = await (
      await nodeRed.request('/flows', { headers: { accept: 'application/json' } })
    ).text();
    for (const room of rooms) {
      should(flowsFile.includes(room.password)).be.false(`${room.name}'s password in flows.json`);
      should(credentialsFile.includes(room.password)).be.false(`${room.name}'s password in flows_cred.json`);
      should(exported.includes(room.password)).be.false(`${room.name}'s password in GET /flows`);
    }
  });

  it('keeps every password out of every topic and every payload the rooms published', async () => {
    await waitForTopics(
      subscriber,
      [stateTopic(rooms[0]?.name ?? '', 'hardware')],
      (p) => p !== undefined,
      "a room's hardware",
    );
    should(subscriber.history.length).be.above(0);
    for (const { topic, payload } of subscriber.history)
      for (const room of rooms)
        should(topic.includes(room.password) || payload.includes(room.password)).be.false(
          `${room.name}'s password on ${topic}`,
        );
  });
});
