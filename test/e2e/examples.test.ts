/**
 * The example flows in a real Node-RED, started from its command line with
 * this package installed from its npm tarball, checked only from outside:
 * over MQTT, over HTTP, through the simulator's request log and through
 * Node-RED's own log. `scripts/e2e.js` runs this once per Node-RED line.
 */
import { readFileSync, rmSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { join } from 'node:path';
import { Aedes } from 'aedes';
import { connectAsync, type MqttClient } from 'mqtt';
import should from 'should';
import { type DeviceSimulator, startSimulator } from '../../src/simulator';
import { TestCaller } from '../simulator/helpers';
import { checkConfig } from '../support/homeassistant-schema';
import type { NodeRedProcess } from '../support/node-red-process';
import { nodeTypes } from '../support/node-types';
import { probeUntil } from '../support/wait';
import { findElements, parseStrictXml, textContent } from '../zones/xml';
import { HomeAssistantClient } from './home-assistant-client';
import {
  deployFlows,
  type E2eEnvironment,
  e2eEnvironment,
  fireInject,
  loadedNodeSets,
  ourWarningsAndErrors,
  PROJECT_ROOT,
  prepareUserDir,
  startNodeRed,
} from './node-red';

interface FlowNode {
  id: string;
  type: string;
  name?: string;
  z?: string;
  [property: string]: unknown;
}
interface Example {
  file: string;
  title: string;
  nodes: FlowNode[];
}
interface DemoTarget {
  devicePort: number;
  brokerPort: number;
  nodeRedPort: number;
  inlineCredentials: boolean;
}
// The demo's own flow builder, so `npm start` and this test deploy the same thing.
const demo = require('../../scripts/start.js') as {
  loadExamples(): Example[];
  buildDemoFlows(examples: Example[], target: DemoTarget): FlowNode[];
};

const OUR_TYPES = nodeTypes;
const ROOM_TOPIC = 'rooms/demo-room/zones';

interface ZoneGeometry {
  point1: { x: number; y: number };
  point2: { x: number; y: number };
}

interface ZoneLike {
  id: string;
  label: string;
}
interface ReceivedMessage {
  topic: string;
  payload: string;
  retain: boolean;
}

const SENTINEL_TOPIC = `${ROOM_TOPIC}/e2e-sentinel`;

/**
 * Subscribes to the room's zone topics and records every message, retained
 * or live. Returns once the broker has delivered every retained message: it
 * sends them at subscription, so they arrive before a message published after.
 */
async function subscribeToRoom(port: number): Promise<{ client: MqttClient; messages: ReceivedMessage[] }> {
  const client = await connectAsync(`mqtt://127.0.0.1:${port}`, { reconnectPeriod: 0 });
  const messages: ReceivedMessage[] = [];
  let sentinelSeen = false;
  client.on('message', (topic, payload, packet) => {
    if (topic === SENTINEL_TOPIC) sentinelSeen = true;
    else messages.push({ topic, payload: payload.toString('utf8'), retain: packet.retain });
  });
  await client.subscribeAsync(`${ROOM_TOPIC}/#`, { qos: 1 });
  await client.publishAsync(SENTINEL_TOPIC, 'end of retained messages', { qos: 1 });
  await probeUntil('the sentinel message', () => (sentinelSeen ? true : undefined), 5000, 20);
  return { client, messages };
}

/** The last message seen per topic: what a late subscriber would now be told. */
function latestByTopic(messages: ReceivedMessage[]): Map<string, ReceivedMessage> {
  const latest = new Map<string, ReceivedMessage>();
  for (const message of messages) latest.set(message.topic, message);
  return latest;
}

function simulatorZones(simulator: DeviceSimulator): ZoneLike[] {
  return simulator.getState().zones as ZoneLike[];
}

function findNode(examples: Example[], filePrefix: string, name: string): FlowNode {
  const example = examples.find((candidate) => candidate.file.startsWith(filePrefix));
  const node = example?.nodes.find((candidate) => candidate.name === name);
  if (!node) throw new Error(`no node named "${name}" in example ${filePrefix}`);
  return node;
}

function countMatches(text: string, pattern: RegExp): number {
  return text.match(pattern)?.length ?? 0;
}

/** Whether the device's audio is muted, asked as any client would (the simulator hands out one token per account). */
async function deviceMuted(simulator: DeviceSimulator): Promise<boolean> {
  const caller = new TestCaller(simulator);
  try {
    const token = await caller.login('general', '');
    const answer = await caller.call('GET', '/api/v1/audio', { token });
    return (answer.json as { microphoneMute?: unknown }).microphoneMute === true;
  } finally {
    await caller.close();
  }
}

/** The tab an example brings along, so an import lands on a tab of that name. */
function tabOf(example: Example): FlowNode & { label?: unknown } {
  const tabs = example.nodes.filter((node) => node.type === 'tab');
  if (tabs.length !== 1) throw new Error(`${example.file} has ${tabs.length} tab nodes, not one`);
  return tabs[0] as FlowNode;
}

/** Subscribes to `topic` and records the messages published from now on (not the retained ones it gets first). */
async function watchLive(
  port: number,
  topic: string,
): Promise<{ client: MqttClient; messages: ReceivedMessage[] }> {
  const client = await connectAsync(`mqtt://127.0.0.1:${port}`, { reconnectPeriod: 0 });
  const messages: ReceivedMessage[] = [];
  client.on('message', (received, payload, packet) => {
    if (!packet.retain) messages.push({ topic: received, payload: payload.toString('utf8'), retain: false });
  });
  await client.subscribeAsync(topic, { qos: 1 });
  return { client, messages };
}

/** The device's audio resource, asked as any client would. */
async function deviceAudio(
  simulator: DeviceSimulator,
): Promise<{ microphoneMute?: unknown; speakerVolume?: unknown }> {
  const caller = new TestCaller(simulator);
  try {
    const token = await caller.login('general', '');
    return (await caller.call('GET', '/api/v1/audio', { token })).json as {
      microphoneMute?: unknown;
      speakerVolume?: unknown;
    };
  } finally {
    await caller.close();
  }
}

/** What a subscriber connecting now is told under `filter`: the retained message per topic, in a short window. */
async function retainedUnder(port: number, filter: string): Promise<Map<string, ReceivedMessage>> {
  const client = await connectAsync(`mqtt://127.0.0.1:${port}`, { reconnectPeriod: 0 });
  const messages: ReceivedMessage[] = [];
  client.on('message', (topic, payload, packet) => {
    if (packet.retain) messages.push({ topic, payload: payload.toString('utf8'), retain: true });
  });
  await client.subscribeAsync(filter, { qos: 1 });
  await new Promise((resolve) => setTimeout(resolve, 300));
  await client.endAsync();
  return latestByTopic(messages);
}

async function publishCommand(port: number, topic: string, payload: string): Promise<void> {
  const client = await connectAsync(`mqtt://127.0.0.1:${port}`, { reconnectPeriod: 0 });
  try {
    await client.publishAsync(topic, payload, { qos: 1 });
  } finally {
    await client.endAsync();
  }
}

/**
 * The examples whose checks count the device requests they caused: each gets its own copy of the shared
 * device config with a client id of its own, so the polls of the other examples (the state nodes of
 * examples 10 to 12 read the audio every few seconds) are not counted with its requests.
 */
const OWN_CLIENT_IDS: Record<string, string> = { '01': 'e2e-example-01', '05': 'e2e-example-05' };

/** `flows` with each example of OWN_CLIENT_IDS on a device config of its own, sending its own client id. */
function withOwnClientIds(flows: FlowNode[], examples: Example[]): FlowNode[] {
  const copies: FlowNode[] = [];
  const result = flows.map((node) => {
    for (const [prefix, clientId] of Object.entries(OWN_CLIENT_IDS)) {
      const example = examples.find((candidate) => candidate.file.startsWith(prefix));
      if (example === undefined || node.z !== tabOf(example).id || typeof node.device !== 'string') continue;
      const ownId = `${node.device}-${prefix}`;
      if (!copies.some((copy) => copy.id === ownId)) {
        const shared = flows.find((candidate) => candidate.id === node.device);
        if (shared === undefined) throw new Error(`no device config ${node.device} in the flows`);
        copies.push({ ...shared, id: ownId, name: `${shared.name ?? 'device'} (${clientId})`, clientId });
      }
      return { ...node, device: ownId };
    }
    return node;
  });
  return [...result, ...copies];
}

/** The device requests one example made, told apart by the client id header its device config sends. */
function requestsOf(simulator: DeviceSimulator, prefix: string, path: string) {
  const clientId = OWN_CLIENT_IDS[prefix];
  return simulator.requests.filter(
    (request) =>
      request.path === path &&
      request.headers[`${simulator.getState().vendor.toLowerCase()}-client-id`] === clientId,
  );
}

const ROOM_COMMANDS = 'rooms/demo-room/set';
const ROOM_STATE = 'rooms/demo-room/state';

describe('example flows in a real Node-RED (end-to-end)', function () {
  this.timeout(240000);

  let environment: E2eEnvironment;
  let simulator: DeviceSimulator;
  let brokerPort: number;
  let closeBroker: () => Promise<void> = async () => {};
  let nodeRed: NodeRedProcess | undefined;
  let examples: Example[];
  const subscribers: MqttClient[] = [];
  let failed = false;

  before(async () => {
    environment = e2eEnvironment();
    console.log(`      running on: ${environment.line}`);
    // The talker speaks outside the room until a test places it: the examples' live nodes then stay quiet.
    simulator = await startSimulator({ port: 0, talker: 'still', talkerAt: { x: 0, y: 30_000 } });
    const broker = await Aedes.createBroker();
    const server = createServer(broker.handle);
    await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
    brokerPort = (server.address() as AddressInfo).port;
    closeBroker = async () => {
      await new Promise<void>((closed) => server.close(() => closed()));
      await new Promise<void>((closed) => broker.close(() => closed()));
    };
    examples = demo.loadExamples();
    const userDir = await prepareUserDir(environment.tarball);
    nodeRed = await startNodeRed(environment, userDir);
  });

  afterEach(function () {
    if (this.currentTest?.state === 'failed') failed = true;
  });

  after(async () => {
    await Promise.all(subscribers.map((client) => client.endAsync()));
    if (nodeRed) {
      await nodeRed.stop();
      if (failed)
        console.log(
          `      Node-RED log:\n${nodeRed.output()}\n      user directory kept: ${nodeRed.userDir}`,
        );
      else rmSync(nodeRed.userDir, { recursive: true, force: true });
    }
    await closeBroker();
    await simulator?.close();
  });

  function running(): NodeRedProcess {
    if (!nodeRed) throw new Error('Node-RED did not start');
    return nodeRed;
  }

  it('loads the four node types from the installed tarball', async () => {
    const { name, version } = JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as {
      name: string;
      version: string;
    };
    const ours = await probeUntil('our node types in GET /nodes', async () => {
      const sets = (await loadedNodeSets(running())).filter((set) => set.module === name);
      const types = sets.flatMap((set) => set.types);
      return OUR_TYPES.every((type) => types.includes(type)) ? sets : undefined;
    });
    for (const set of ours) {
      should(set).containDeep({ version, enabled: true });
      should(set.err).be.undefined();
    }
  });

  it('offers every example flow under Import > Examples', async () => {
    const moduleName = '@conference-audio/node-red-local-api';
    const modules = (await (await running().request('/library/examples/flows')).json()) as string[];
    should(modules).containEql(moduleName);
    const base = `/library/examples/flows/${moduleName}`;
    const entries = (await (await running().request(base)).json()) as Array<{ fn?: string }>;
    should(entries.map((entry) => entry.fn)).eql(examples.map((example) => example.title));
    for (const example of examples) {
      const answer = await running().request(`${base}/${encodeURIComponent(example.title)}`);
      should(answer.status).equal(200, example.title);
      should(await answer.json()).eql(example.nodes);
    }
  });

  it('brings each example on a named tab of its own', () => {
    for (const example of examples) {
      const tab = tabOf(example);
      should(tab.label).be.a.String().and.not.be.empty();
      // A subflow's nodes sit in the subflow (examples/09's room template), every other node on the tab.
      const subflows = new Set(
        example.nodes.filter((node) => node.type === 'subflow').map((node) => node.id),
      );
      should(
        example.nodes.filter((node) => node.z !== undefined && node.z !== tab.id && !subflows.has(node.z)),
      ).eql([], example.file);
    }
  });

  it('gives every example a Catch path for the errors of its device nodes', () => {
    for (const example of examples) {
      const deviceNodes = example.nodes.filter(
        (node) => OUR_TYPES.includes(node.type) && node.z !== undefined,
      );
      if (deviceNodes.length === 0) continue;
      const catches = example.nodes.filter((node) => node.type === 'catch');
      const covering = catches.filter((node) => {
        const scope = node.scope as string[] | null | undefined;
        return !scope || deviceNodes.every((device) => scope.includes(device.id));
      });
      should(covering.length).be.above(0, `${example.file}: no Catch node covers every device node`);
      for (const node of covering) {
        const wires = (node.wires as string[][] | undefined) ?? [];
        should(wires.flat().length).be.above(0, `${example.file}: its Catch node leads nowhere`);
      }
    }
  });

  it('deploys every example flow pointed at the simulator and the broker', async () => {
    const flows = withOwnClientIds(
      demo.buildDemoFlows(examples, {
        devicePort: simulator.port,
        brokerPort,
        nodeRedPort: Number(new URL(running().url).port),
        inlineCredentials: true,
      }),
      examples,
    );
    await deployFlows(running(), flows);
    const answer = await running().request('/flows', { headers: { accept: 'application/json' } });
    const deployed = (await answer.json()) as FlowNode[];
    const usedTypes = new Set(deployed.map((node) => node.type));
    for (const type of OUR_TYPES) should(usedTypes.has(type)).be.true(`${type} deployed`);
    should(
      deployed.filter((node) => node.type === 'tab').map((tab) => (tab as { label?: string }).label),
    ).eql(examples.map((example) => tabOf(example).label));
  });

  it('publishes each zone and the zone list retained on MQTT', async () => {
    const zones = simulatorZones(simulator);
    const expectedTopics = [ROOM_TOPIC, ...zones.map((zone) => `${ROOM_TOPIC}/${zone.id}`)];
    // Retained: a subscriber that connects after the publish still gets them.
    const latest = await probeUntil('the retained zone topics', async () => {
      const { client, messages } = await subscribeToRoom(brokerPort);
      await client.endAsync();
      const byTopic = latestByTopic(messages);
      return expectedTopics.every((topic) => byTopic.get(topic)?.retain === true) ? byTopic : undefined;
    });
    for (const zone of zones) {
      const published = JSON.parse(latest.get(`${ROOM_TOPIC}/${zone.id}`)?.payload ?? 'null') as ZoneLike & {
        bounds?: unknown;
      };
      should(published).containDeep({ id: zone.id, label: zone.label });
      should(published.bounds).be.an.Object();
    }
    const list = JSON.parse(latest.get(ROOM_TOPIC)?.payload ?? '[]') as ZoneLike[];
    should(list.map((zone) => zone.id)).eql(zones.map((zone) => zone.id));
  });

  it('answers GET /zones with the device zones as JSON', async () => {
    const answer = await running().request('/zones');
    should(answer.status).equal(200);
    should(answer.headers.get('content-type') ?? '').match(/application\/json/);
    const served = (await answer.json()) as ZoneLike[];
    should(served.map((zone) => [zone.id, zone.label])).eql(
      simulatorZones(simulator).map((zone) => [zone.id, zone.label]),
    );
  });

  it('answers GET /zones.svg with a well-formed SVG room map naming every zone', async () => {
    const answer = await running().request('/zones.svg');
    should(answer.status).equal(200);
    should(answer.headers.get('content-type') ?? '').match(/image\/svg\+xml/);
    const svg = await answer.text();
    const root = parseStrictXml(svg);
    should(root.name).equal('svg');
    const texts = findElements(root, (element) => element.name === 'text').map(textContent);
    for (const zone of simulatorZones(simulator)) should(texts).containEql(zone.label);
  });

  it('answers which zone holds a point over HTTP, and 404 outside every zone', async () => {
    const [presenter] = simulatorZones(simulator);
    const inside = await running().request('/zones/at?x=0&y=1800');
    should(inside.status).equal(200);
    should(((await inside.json()) as ZoneLike).id).equal(presenter?.id);
    const outside = await running().request('/zones/at?x=0&y=7000');
    should(outside.status).equal(404);
    should(await outside.json()).eql({ zone: null });
  });

  it('answers 400 with the reason when x or y is missing or not a number', async () => {
    for (const query of ['x=abc&y=1800', 'y=1800', 'x=0&y=', '']) {
      const answer = await running().request(`/zones/at?${query}`);
      should(answer.status).equal(400, query);
      const body = (await answer.json()) as { error?: string };
      should(body.error).match(/must be a number of millimetres/, query);
    }
  });

  it('answers 502 with the reason and code when the device fails, through the Catch path of example 2', async () => {
    simulator.setFault({ kind: 'status', status: 500, path: '/api/v1/room/zones' });
    try {
      const answer = await running().request('/zones');
      should(answer.status).equal(502);
      const body = (await answer.json()) as { error?: string; code?: string };
      should(body.code).be.a.String().and.not.be.empty();
      should(body.error).be.a.String().and.not.be.empty();
    } finally {
      simulator.setFault(null);
    }
  });

  it('switches the camera preset as the talker moves between zones, and back to the overview', async () => {
    const presetTopic = 'rooms/demo-room/camera/preset';
    const live = await watchLive(brokerPort, presetTopic);
    subscribers.push(live.client);
    const presetFor = async (what: string): Promise<number> => {
      const before = live.messages.length;
      return probeUntil(`the camera preset for ${what}`, () =>
        live.messages.length > before ? Number(live.messages.at(-1)?.payload) : undefined,
      );
    };
    const zones = simulatorZones(simulator) as Array<ZoneLike & { geometry: ZoneGeometry }>;
    const expected: Record<string, number> = { Presenter: 1, 'Audience left': 2, 'Audience right': 3 };
    for (const zone of zones) {
      const { point1, point2 } = zone.geometry;
      const waiting = presetFor(zone.label);
      simulator.placeTalker({ x: (point1.x + point2.x) / 2, y: (point1.y + point2.y) / 2 });
      should(await waiting).equal(expected[zone.label], zone.label);
    }
    const overview = presetFor('the room overview');
    simulator.silenceTalker();
    should(await overview).equal(0);
    const retained = await probeUntil('the retained preset on MQTT', async () => {
      const client = await connectAsync(`mqtt://127.0.0.1:${brokerPort}`, { reconnectPeriod: 0 });
      const got = new Promise<string>((resolve) =>
        client.on('message', (_topic, payload) => resolve(payload.toString())),
      );
      await client.subscribeAsync(presetTopic, { qos: 1 });
      const payload = await Promise.race([
        got,
        new Promise<undefined>((resolve) => setTimeout(resolve, 500)),
      ]);
      await client.endAsync();
      return payload;
    });
    should(retained).equal('0');
    // Example 4's debug nodes write to the sidebar only: the talker's walk leaves the terminal alone.
    should(countMatches(running().output(), /\[debug:camera/g)).equal(0);
  });

  it('publishes presence per zone and for the room, retained, as the talker moves', async () => {
    const zones = simulatorZones(simulator) as Array<ZoneLike & { geometry: ZoneGeometry }>;
    const target = zones[1] as ZoneLike & { geometry: ZoneGeometry };
    const { point1, point2 } = target.geometry;
    simulator.placeTalker({ x: (point1.x + point2.x) / 2, y: (point1.y + point2.y) / 2 });
    const base = 'rooms/demo-room/presence';
    const latest = await probeUntil('the presence topics with the zone active', async () => {
      const client = await connectAsync(`mqtt://127.0.0.1:${brokerPort}`, { reconnectPeriod: 0 });
      const messages: ReceivedMessage[] = [];
      client.on('message', (topic, payload, packet) =>
        messages.push({ topic, payload: payload.toString('utf8'), retain: packet.retain }),
      );
      await client.subscribeAsync(`${base}/#`, { qos: 1 });
      await new Promise((resolve) => setTimeout(resolve, 300));
      await client.endAsync();
      const byTopic = latestByTopic(messages);
      const active = JSON.parse(byTopic.get(`${base}/active`)?.payload ?? 'null') as { id?: string } | null;
      // A late subscriber's view: every topic from the broker's retained store, none still arriving live.
      const retained = [...byTopic.values()].every((message) => message.retain);
      return active?.id === target.id && byTopic.size === zones.length + 1 && retained ? byTopic : undefined;
    });
    for (const zone of zones) {
      const published = latest.get(`${base}/zones/${zone.id}`);
      should(published?.retain).be.true();
      should(JSON.parse(published?.payload ?? 'null')).eql({
        label: zone.label,
        active: zone.id === target.id,
      });
    }
    simulator.walkTalker();
  });

  it('reads and patches the audio resource through device requests', async () => {
    // Example 5's own: the state nodes of examples 10 to 12 read the audio too, at any time.
    const audioRequests = () => requestsOf(simulator, '05', '/api/v1/audio');
    const before = audioRequests().length;
    await fireInject(running(), findNode(examples, '05', 'read audio').id);
    await fireInject(running(), findNode(examples, '05', 'mute').id);
    const done = await probeUntil('GET and PATCH /api/v1/audio at the device', () => {
      const recent = audioRequests().slice(before);
      return recent.length >= 2 ? recent : undefined;
    });
    should(done.map((request) => [request.method, request.status]).sort()).eql([
      ['GET', 200],
      ['PATCH', 200],
    ]);
    await probeUntil('the device muted', async () => ((await deviceMuted(simulator)) ? true : undefined));
  });

  it('unmutes the device with the unmute beside the mute', async () => {
    await fireInject(running(), findNode(examples, '05', 'mute').id);
    await probeUntil('the device muted', async () => ((await deviceMuted(simulator)) ? true : undefined));
    await fireInject(running(), findNode(examples, '05', 'unmute').id);
    await probeUntil('the device unmuted', async () => ((await deviceMuted(simulator)) ? undefined : true));
  });

  it('hands a failed device request to the Catch path of example 5, not to the log as an error', async () => {
    const errorsBefore = ourWarningsAndErrors(running().output()).length;
    const failedRead = /\[debug:device error\].*GET \/api\/v1\/audio/g;
    const linesBefore = countMatches(running().output(), failedRead);
    const readsBefore = requestsOf(simulator, '05', '/api/v1/audio').length;
    simulator.setFault({ kind: 'status', status: 500, path: '/api/v1/audio' });
    try {
      await fireInject(running(), findNode(examples, '05', 'read audio').id);
      // Example 5's own read got the fault: the state nodes of examples 10 to 12 read the audio too.
      await probeUntil("example 5's read answered 500", () =>
        requestsOf(simulator, '05', '/api/v1/audio')
          .slice(readsBefore)
          .some((request) => request.status === 500)
          ? true
          : undefined,
      );
      await probeUntil('the failed read from the Catch path in the log', () =>
        countMatches(running().output(), failedRead) > linesBefore ? true : undefined,
      );
    } finally {
      simulator.setFault(null);
    }
    should(ourWarningsAndErrors(running().output())).have.length(errorsBefore);
  });

  it('reports a zone change once and clears the removed zone from the broker (examples 1, 3 and 8)', async () => {
    const [presenter, audienceLeft, audienceRight] = simulatorZones(simulator);
    const breakout = {
      types: ['Switching'],
      geometry: { point1: { x: -8000, y: 600 }, point2: { x: -3000, y: 3000 } },
      label: 'Breakout & Q/A',
      id: '0c1d2e3f-4a5b-4c6d-8e7f-8091a2b3c4d5',
    };
    const live = await subscribeToRoom(brokerPort);
    subscribers.push(live.client);
    const liveStart = live.messages.length;
    const presenceBase = 'rooms/demo-room/presence/zones';
    const presence = await watchLive(brokerPort, `${presenceBase}/#`);
    subscribers.push(presence.client);
    const noticeLines = /Zone configuration changed on the device/g;
    const noticesBefore = countMatches(running().output(), noticeLines);

    simulator.setZones([presenter, audienceLeft, breakout]);
    await fireInject(running(), findNode(examples, '01', 'read after deploy').id);

    const cleared = await probeUntil('an empty message on the removed zone', () =>
      live.messages.slice(liveStart).find((m) => m.topic === `${ROOM_TOPIC}/${audienceRight.id}`),
    );
    should(cleared.payload).equal('');
    // Example 8 follows the device's change at once, or at its next read a minute later at the latest.
    const presenceCleared = await probeUntil(
      "an empty message on the removed zone's presence topic",
      () => presence.messages.find((m) => m.topic === `${presenceBase}/${audienceRight.id}`),
      70000,
    );
    should(presenceCleared.payload).equal('');
    // Example 3 polls every 10 s: its notice follows within one interval.
    await probeUntil(
      'the change notice in the log',
      () => (countMatches(running().output(), noticeLines) > noticesBefore ? true : undefined),
      30000,
    );

    // More reads of the unchanged zones must report nothing more. Example 1's own reads: the other
    // examples read the zones too, and their reads say nothing of what example 1 published.
    const zoneReads = () => requestsOf(simulator, '01', '/api/v1/room/zones');
    const readsSoFar = zoneReads().length;
    await fireInject(running(), findNode(examples, '01', 'read after deploy').id);
    await probeUntil(
      "example 1's injected zone read, answered",
      () =>
        zoneReads()
          .slice(readsSoFar)
          .some((request) => request.status === 200)
          ? true
          : undefined,
      30000,
    );
    // Time for an answer already read to reach the broker, as a poll of the other examples gave before.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await running().request('/zones');

    const listMessages = live.messages.slice(liveStart).filter((m) => m.topic === ROOM_TOPIC);
    should(listMessages).have.length(1);
    should((JSON.parse(listMessages[0].payload) as ZoneLike[]).map((zone) => zone.label)).eql([
      'Presenter',
      'Audience left',
      'Breakout & Q/A',
    ]);
    const notices = running()
      .output()
      .split('\n')
      .filter((line) => /Zone configuration changed on the device/.test(line));
    should(notices).have.length(noticesBefore + 1);
    should(notices[notices.length - 1]).containEql('added "Breakout & Q/A"');
    should(notices[notices.length - 1]).containEql('removed "Audience right"');

    // A subscriber arriving now gets the current zones only.
    const late = await subscribeToRoom(brokerPort);
    subscribers.push(late.client);
    should(late.messages.every((message) => message.retain)).be.true();
    should([...latestByTopic(late.messages).keys()].sort()).eql(
      [ROOM_TOPIC, ...[presenter, audienceLeft, breakout].map((zone) => `${ROOM_TOPIC}/${zone.id}`)].sort(),
    );
    const currentPresence = [presenter, audienceLeft, breakout]
      .map((zone) => `${presenceBase}/${zone.id}`)
      .sort();
    let latePresence: string[] = [];
    await probeUntil('the retained presence topics of the current zones only', async () => {
      const client = await connectAsync(`mqtt://127.0.0.1:${brokerPort}`, { reconnectPeriod: 0 });
      const topics = new Set<string>();
      client.on('message', (topic) => topics.add(topic));
      await client.subscribeAsync(`${presenceBase}/#`, { qos: 1 });
      await new Promise((resolve) => setTimeout(resolve, 300));
      await client.endAsync();
      latePresence = [...topics].sort();
      return latePresence.join() === currentPresence.join() ? true : undefined;
    }).catch(() => undefined);
    should(latePresence).eql(currentPresence);
  });

  it('mutes and unmutes the device from rooms/demo-room/set/microphoneMute (example 11)', async () => {
    await publishCommand(brokerPort, `${ROOM_COMMANDS}/microphoneMute`, 'true');
    await probeUntil('the device muted', async () => ((await deviceMuted(simulator)) ? true : undefined));
    // A toggle flips the state the room reports, so it is sent once the write's read-back reached the state.
    await probeUntil('the muted state on the state topic', async () => {
      const audio = (await retainedUnder(brokerPort, `${ROOM_STATE}/audio`)).get(`${ROOM_STATE}/audio`);
      return (JSON.parse(audio?.payload ?? 'null') as { microphoneMute?: unknown } | null)?.microphoneMute ===
        true
        ? true
        : undefined;
    });
    await publishCommand(brokerPort, `${ROOM_COMMANDS}/microphoneMute`, 'toggle');
    await probeUntil('the device unmuted', async () => ((await deviceMuted(simulator)) ? undefined : true));
  });

  it('steps the volume one up from rooms/demo-room/set/volume (example 11)', async () => {
    const before = Number((await deviceAudio(simulator)).speakerVolume);
    await publishCommand(brokerPort, `${ROOM_COMMANDS}/volume`, 'up');
    const after = await probeUntil('the volume one step up', async () => {
      const volume = Number((await deviceAudio(simulator)).speakerVolume);
      return volume !== before ? volume : undefined;
    });
    should(after).equal(before + 1);
  });

  it('refuses a wrong command value through the Catch path, and writes nothing (example 11)', async () => {
    const refusals = /\[debug:device error\].*microphoneMute/g;
    const linesBefore = countMatches(running().output(), refusals);
    // Every client's writes, on purpose: no example writes unasked, so any write here would be this one.
    const writesBefore = simulator.requests.filter((request) => request.method === 'PATCH').length;
    await publishCommand(brokerPort, `${ROOM_COMMANDS}/microphoneMute`, '"loud"');
    await probeUntil('the refusal from the Catch path in the log', () =>
      countMatches(running().output(), refusals) > linesBefore ? true : undefined,
    );
    should(simulator.requests.filter((request) => request.method === 'PATCH')).have.length(writesBefore);
  });

  it('publishes the device state retained under rooms/demo-room/state/<group>, following a command (example 11)', async () => {
    await publishCommand(brokerPort, `${ROOM_COMMANDS}/microphoneMute`, 'true');
    const state = await probeUntil('the retained audio state with the microphone muted', async () => {
      const byTopic = await retainedUnder(brokerPort, `${ROOM_STATE}/#`);
      const audio = JSON.parse(byTopic.get(`${ROOM_STATE}/audio`)?.payload ?? 'null') as {
        microphoneMute?: unknown;
      } | null;
      return audio?.microphoneMute === true ? byTopic : undefined;
    });
    for (const group of ['audio', 'status', 'profiles', 'switching', 'cameraSwitcher', 'network'])
      should(state.get(`${ROOM_STATE}/${group}`)?.retain).be.true(group);
    const profiles = JSON.parse(state.get(`${ROOM_STATE}/profiles`)?.payload ?? '{}') as {
      profiles?: Array<{ name?: string }>;
    };
    should((profiles.profiles ?? []).map((profile) => profile.name)).containEql('Workshop');
    should(state.get(`${ROOM_STATE}/network`)?.payload).not.match(/enrollmentCode/);
    await publishCommand(brokerPort, `${ROOM_COMMANDS}/microphoneMute`, 'false');
    await probeUntil('the device unmuted', async () => ((await deviceMuted(simulator)) ? undefined : true));
  });

  it('announces the room to Home Assistant as one device, each config in its documented schema (example 12)', async () => {
    const assistant = await HomeAssistantClient.connect(brokerPort);
    try {
      await assistant.entity('sensor', 'Background noise');
      const entities = assistant.entities;
      for (const { platform, topic, config } of entities)
        should(checkConfig(platform, config)).eql([], topic);
      const devices = new Set(
        entities.map(({ config }) =>
          JSON.stringify((config.device as { identifiers?: unknown }).identifiers),
        ),
      );
      should(devices.size).equal(1);
      should(new Set(entities.map(({ config }) => config.unique_id)).size).equal(entities.length);
    } finally {
      await assistant.close();
    }
  });

  it('mutes the device from the Home Assistant switch and reports the switch ON (example 12)', async () => {
    const assistant = await HomeAssistantClient.connect(brokerPort);
    try {
      const mute = await assistant.entity('switch', 'Microphone mute');
      await assistant.command(mute, 'ON');
      await probeUntil('the device muted', async () => ((await deviceMuted(simulator)) ? true : undefined));
      await probeUntil('the switch state ON', () => (assistant.state(mute) === 'ON' ? true : undefined));
      await assistant.command(mute, 'OFF');
      await probeUntil('the device unmuted', async () => ((await deviceMuted(simulator)) ? undefined : true));
    } finally {
      await assistant.close();
    }
  });

  it('serves the room control panel page of example 10 on the dashboard', async () => {
    const answer = await running().request('/dashboard/panel');
    should(answer.status).equal(200);
    should(answer.headers.get('content-type') ?? '').match(/text\/html/);
  });

  it('logs no warning or error from this package or its example flows', () => {
    should(ourWarningsAndErrors(running().output())).eql([]);
  });
});

describe('example 4 in the debug sidebar', () => {
  const example = demo.loadExamples().find((candidate) => candidate.file.startsWith('04'));
  const nodes = example?.nodes ?? [];
  const debugNodes = nodes.filter((node) => node.type === 'debug');
  /** The nodes wired into `target`. */
  const feeding = (target: FlowNode) =>
    nodes.filter((node) =>
      ((node.wires as string[][] | undefined) ?? []).some((output) => output.includes(target.id)),
    );

  it('has debug nodes to check', () => {
    should(debugNodes).not.be.empty();
  });

  it('writes nothing to the terminal: no debug node has its console output on', () => {
    should(
      debugNodes.filter((node) => node.console === true || node.console === 'true').map((node) => node.name),
    ).eql([]);
  });

  it('shows each change of shot once: besides errors, the sidebar gets the preset through a filter that passes changes only', () => {
    const toSidebar = debugNodes.filter((node) => node.tosidebar !== false && node.active !== false);
    should(toSidebar.map((node) => node.name)).eql(['camera preset', 'device error']);
    const [preset] = toSidebar as [FlowNode];
    const filters = feeding(preset);
    should(filters.map((node) => [node.type, node.func, node.property])).eql([['rbe', 'rbe', 'preset']]);
  });
});
