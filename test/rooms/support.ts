/**
 * The rooms of examples/09 in real Node-RED processes: the example's "conference room" subflow (the
 * template under test is the one users import), instantiated once per room, one aedes broker, a
 * subscriber that keeps the latest retained message of every topic.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Aedes, type Client } from 'aedes';
import { connectAsync, type MqttClient } from 'mqtt';
import { DeviceClient } from '../../src/api';
import { type DeviceSimulator, startSimulator } from '../../src/simulator';
import { deployFlows } from '../e2e/node-red';
import { launchNodeRed, type NodeRedProcess } from '../support/node-red-process';
import { probeUntil } from '../support/wait';

const projectRoot = path.resolve(__dirname, '..', '..');
const EXAMPLE = path.join(projectRoot, 'examples', '09 Many rooms.json');
export const SITE = 'test-site';
/** Where the simulated talker stands: inside the sample zone "Presenter". */
export const PRESENTER = { x: 0, y: 1800 };

type FlowNode = Record<string, unknown> & { id: string; type: string; z?: string };

export interface Room {
  name: string;
  password: string;
  simulator: DeviceSimulator;
}

/** One simulator per room, each with a password of its own (so a room that got another's fails). */
export async function startRooms(count: number, prefix = 'room'): Promise<Room[]> {
  return Promise.all(
    Array.from({ length: count }, async (_, index) => {
      const password = `pw-${prefix}-${index}`;
      const simulator = await startSimulator({
        port: 0,
        passwords: { general: password },
        talker: 'still',
        talkerAt: PRESENTER,
      });
      return { name: `${prefix}-${index}`, password, simulator };
    }),
  );
}

/** The example's subflow definition and every node inside it (its config nodes too). */
function roomTemplate(): FlowNode[] {
  const example = JSON.parse(readFileSync(EXAMPLE, 'utf8')) as FlowNode[];
  const template = example.find((node) => node.type === 'subflow');
  if (!template) throw new Error('examples/09 has no subflow');
  return example.filter((node) => node.id === template.id || node.z === template.id);
}

/** A tab with one template instance per room; the password goes in as the instance's credential. */
export function roomsFlow(
  rooms: readonly { name: string; password: string; port: number }[],
  brokerPort: number,
) {
  const template = roomTemplate();
  const subflowId = template[0]?.type === 'subflow' ? template[0].id : '';
  const tab: FlowNode = {
    id: 'rooms-tab',
    type: 'tab',
    label: 'rooms',
    env: [
      { name: 'SITE', type: 'str', value: SITE },
      { name: 'MQTT_HOST', type: 'str', value: '127.0.0.1' },
      { name: 'MQTT_PORT', type: 'num', value: String(brokerPort) },
    ],
  };
  // x and y make them flow nodes: without them Node-RED takes a node for a config node.
  const instances = rooms.map((room, index) => ({
    id: `room-${room.name}`,
    type: `subflow:${subflowId}`,
    z: tab.id,
    name: room.name,
    env: [
      { name: 'HOST', type: 'str', value: '127.0.0.1' },
      { name: 'PORT', type: 'num', value: String(room.port) },
      { name: 'ROOM', type: 'str', value: room.name },
      { name: 'PASSWORD', type: 'cred' },
    ],
    credentials: { PASSWORD: room.password },
    x: 150,
    y: 60 + 40 * index,
    wires: [],
  }));
  return [tab, ...template, ...instances];
}

export interface Broker {
  port: number;
  /** Cuts every client's connection but `keep`'s without a DISCONNECT, as a crash or a network loss does. */
  dropClientsExcept(keep: string): void;
  close(): Promise<void>;
}

export async function startBroker(): Promise<Broker> {
  const broker = await Aedes.createBroker();
  const server: Server = createServer(broker.handle);
  const clients = new Set<Client>();
  broker.on('clientReady', (client) => clients.add(client));
  broker.on('clientDisconnect', (client) => clients.delete(client));
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port for the broker');
  return {
    port: address.port,
    dropClientsExcept(keep) {
      for (const client of clients) if (client.id !== keep && !client.closed) client.conn.destroy();
    },
    async close() {
      await new Promise<void>((closed) => broker.close(() => closed()));
      await new Promise<void>((closed) => server.close(() => closed()));
    },
  };
}

/** A subscriber to the whole site: the latest payload of every topic, and every message in order. */
export interface Subscriber {
  clientId: string;
  latest: Map<string, string>;
  history: { topic: string; payload: string }[];
  end(): Promise<void>;
}

export async function subscribeToSite(brokerPort: number, site = SITE): Promise<Subscriber> {
  const client: MqttClient = await connectAsync(`mqtt://127.0.0.1:${brokerPort}`);
  const latest = new Map<string, string>();
  const history: Subscriber['history'] = [];
  client.on('message', (topic, payload) => {
    latest.set(topic, payload.toString());
    history.push({ topic, payload: payload.toString() });
  });
  await client.subscribeAsync(`${site}/#`, { qos: 1 });
  return { clientId: client.options.clientId ?? '', latest, history, end: () => client.endAsync() };
}

/**
 * This project's Node-RED (package loaded from dist/ by nodesDir) with `flows` deployed. E2E_NODE_BINARY and
 * E2E_RED_JS, as `npm run test:e2e` sets them, run the same on another line (Node-RED 5 under Node 22).
 */
export async function startNodeRedWith(
  flows: unknown[],
): Promise<NodeRedProcess & { cleanUp(): Promise<void> }> {
  const userDir = mkdtempSync(path.join(tmpdir(), 'ca-rooms-node-red-'));
  writeFileSync(path.join(userDir, 'flows.json'), '[]\n');
  const nodeRed = await launchNodeRed({
    nodeBinary: process.env.E2E_NODE_BINARY,
    redJs: process.env.E2E_RED_JS ?? path.join(projectRoot, 'node_modules', 'node-red', 'red.js'),
    userDir,
    settings: {
      nodesDir: [projectRoot],
      logging: { console: { level: 'warn', metrics: false, audit: false } },
    },
    isReady: async (started) => {
      const answer = await started.request('/nodes', { headers: { accept: 'application/json' } });
      return answer.ok && (await answer.text()).includes('"conference-audio-device"');
    },
  });
  await deployFlows(nodeRed, flows);
  return {
    ...nodeRed,
    async cleanUp() {
      await nodeRed.stop();
      rmSync(userDir, { recursive: true, force: true });
    },
  };
}

/** Waits until the latest payload of each of `topics` is one `isWanted` accepts. */
export async function waitForTopics(
  subscriber: Subscriber,
  topics: readonly string[],
  isWanted: (payload: string | undefined) => boolean,
  what: string,
): Promise<void> {
  await probeUntil(
    what,
    () => (topics.every((topic) => isWanted(subscriber.latest.get(topic))) ? true : undefined),
    60000,
    100,
  );
}

export const statusTopic = (room: string) => `${SITE}/status/${room}`;
export const zonesTopic = (room: string) => `${SITE}/${room}/zones`;
export const activeZoneTopic = (room: string) => `${SITE}/${room}/active-zone`;
export const stateTopic = (room: string, group: string) => `${SITE}/${room}/state/${group}`;

/**
 * One request to a room's device from a client other than the room's, as the device's own app or another
 * controller would send it; answers the body.
 */
export async function askRoomDevice(
  room: Room,
  method: 'GET' | 'PATCH',
  apiPath: string,
  body?: unknown,
): Promise<unknown> {
  const client = new DeviceClient({
    host: '127.0.0.1',
    port: room.simulator.port,
    account: 'general',
    password: room.password,
    clientId: 'another-controller',
    vendor: room.simulator.vendor,
    tls: { mode: 'insecure' },
    timeoutMs: 5000,
  });
  try {
    return (await client.request(method, apiPath, body)).body;
  } finally {
    await client.close();
  }
}
