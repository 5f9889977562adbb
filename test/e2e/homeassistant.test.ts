/**
 * Example 12 in a real Node-RED with the package installed from its tarball, a real broker (aedes) and a
 * client that plays Home Assistant: it finds the room from the retained discovery configs, follows the
 * state topics they name, commands through the command topics they name, and sees the simulator follow.
 */
import { rmSync } from 'node:fs';
import { type AddressInfo, createServer, type Server } from 'node:net';
import { Aedes } from 'aedes';
import should from 'should';
import { type DeviceSimulator, startSimulator } from '../../src/simulator';
import { checkConfig } from '../support/homeassistant-schema';
import type { NodeRedProcess } from '../support/node-red-process';
import { probeUntil } from '../support/wait';
import { type DiscoveredEntity, HomeAssistantClient } from './home-assistant-client';
import { deployFlows, e2eEnvironment, prepareUserDir, startNodeRed } from './node-red';

interface FlowNode {
  id: string;
  type: string;
  [property: string]: unknown;
}
const demo = require('../../scripts/start.js') as {
  loadExamples(): Array<{ file: string; title: string; nodes: FlowNode[] }>;
  buildDemoFlows(
    examples: Array<{ file: string; title: string; nodes: FlowNode[] }>,
    target: { devicePort: number; brokerPort: number; nodeRedPort: number; inlineCredentials: boolean },
  ): FlowNode[];
};

/** A broker on `port` (0: any), and how to stop it; a restart loses every retained message, as aedes keeps them in memory. */
async function startBroker(port: number): Promise<{ port: number; close: () => Promise<void> }> {
  const broker = await Aedes.createBroker();
  const server: Server = createServer(broker.handle);
  await new Promise<void>((listening) => server.listen(port, '127.0.0.1', listening));
  return {
    port: (server.address() as AddressInfo).port,
    close: async () => {
      await new Promise<void>((closed) => {
        server.close(() => closed());
        // Clients connected to the broker keep the server open: the broker closes them.
        broker.close();
      });
    },
  };
}

describe('example 12 with a client playing Home Assistant (end-to-end)', function () {
  this.timeout(240000);

  let simulator: DeviceSimulator;
  let broker: { port: number; close: () => Promise<void> };
  let nodeRed: NodeRedProcess | undefined;
  let assistant: HomeAssistantClient;
  let failed = false;

  before(async () => {
    simulator = await startSimulator({ port: 0, model: '410', talker: 'off', metricsIntervalMs: 200 });
    broker = await startBroker(0);
    const environment = e2eEnvironment();
    nodeRed = await startNodeRed(environment, await prepareUserDir(environment.tarball));
    const example = demo.loadExamples().filter((candidate) => candidate.file.startsWith('12 '));
    await deployFlows(
      nodeRed,
      demo.buildDemoFlows(example, {
        devicePort: simulator.port,
        brokerPort: broker.port,
        nodeRedPort: Number(new URL(nodeRed.url).port),
        inlineCredentials: true,
      }),
    );
    assistant = await HomeAssistantClient.connect(broker.port);
  });

  afterEach(function () {
    if (this.currentTest?.state === 'failed') failed = true;
  });

  after(async () => {
    await assistant?.close();
    if (nodeRed) {
      await nodeRed.stop();
      if (failed) console.log(`      Node-RED log:\n${nodeRed.output()}`);
      else rmSync(nodeRed.userDir, { recursive: true, force: true });
    }
    await broker?.close();
    await simulator?.close();
  });

  const entity = (platform: string, name: string) => assistant.entity(platform, name);
  const stateIs = (target: DiscoveredEntity, value: string) =>
    probeUntil(`${String(target.config.name)} ${value}`, () =>
      assistant.state(target) === value ? true : undefined,
    );

  it('finds the room’s entities in retained configs, each in its platform’s documented schema', async () => {
    // Announced as the device's answers come in: the hardware and status first, the audio and profiles later.
    for (const [platform, name] of [
      ['sensor', 'Background noise'],
      ['switch', 'Microphone mute'],
      ['number', 'Speaker volume'],
      ['select', 'Room profile'],
    ] as const)
      await entity(platform, name);
    const platforms = new Set(assistant.entities.map(({ platform }) => platform));
    should([...platforms].sort()).eql(['binary_sensor', 'button', 'number', 'select', 'sensor', 'switch']);
    for (const { platform, topic, config } of assistant.entities)
      should(checkConfig(platform, config)).eql([], topic);
  });

  it('hears a state on the topic each config names, and both availability topics online', async () => {
    await probeUntil('a state for every entity with a state topic', () =>
      assistant.entities.every(
        ({ config }) =>
          config.state_topic === undefined || assistant.state({ config } as DiscoveredEntity) !== undefined,
      )
        ? true
        : undefined,
    );
    const availability = (await entity('switch', 'Microphone mute')).config.availability as Array<{
      topic: string;
    }>;
    should(availability.length).equal(2);
    await probeUntil('both availability topics online', () =>
      availability.every(({ topic }) => assistant.heard(topic) === 'online') ? true : undefined,
    );
  });

  it('mutes the microphone and the audience from their switches', async () => {
    const mute = await entity('switch', 'Microphone mute');
    await assistant.command(mute, 'ON');
    await probeUntil('the microphone muted', () =>
      simulator.getState().audio.microphoneMute === true ? true : undefined,
    );
    await stateIs(mute, 'ON');
    await assistant.command(mute, 'OFF');
    await stateIs(mute, 'OFF');
    const audience = await entity('switch', 'Audience mute');
    await assistant.command(audience, 'ON');
    await probeUntil('the audience muted', () =>
      simulator.getState().audio.audienceMute === true ? true : undefined,
    );
  });

  it('turns the camera switcher off from its switch', async () => {
    await assistant.command(await entity('switch', 'Camera switcher'), 'OFF');
    await probeUntil('the switcher off', () =>
      simulator.getState().cameraSwitcherEnabled === false ? true : undefined,
    );
  });

  it('sets the volume from the number entity', async () => {
    const volume = await entity('number', 'Speaker volume');
    const target = Number(assistant.state(volume)) > 10 ? 5 : 15;
    await assistant.command(volume, String(target));
    await probeUntil('the volume at the target', () =>
      simulator.getState().audio.speakerVolume === target ? true : undefined,
    );
    await stateIs(volume, String(target));
  });

  it('switches the room profile by its name from the select', async () => {
    const profile = await entity('select', 'Room profile');
    const other =
      (profile.config.options as string[]).find((name) => name !== assistant.state(profile)) ?? '';
    await assistant.command(profile, other);
    await probeUntil('the profile active', () =>
      simulator.getState().profiles.find((known) => known.active)?.name === other ? true : undefined,
    );
    await stateIs(profile, other);
  });

  it('identifies and calibrates from the buttons', async () => {
    await assistant.command(await entity('button', 'Identify'), 'PRESS');
    await probeUntil('the identify request', () =>
      simulator.requests.some((request) => request.path === '/api/v1/audio/identify') ? true : undefined,
    );
    await assistant.command(await entity('button', 'Calibrate'), 'PRESS');
    await stateIs(await entity('binary_sensor', 'Calibrating'), 'ON');
  });

  it('refuses a volume out of range: nothing reaches the device', async () => {
    const writes = () => simulator.requests.filter((request) => request.method !== 'GET').length;
    const before = writes();
    await assistant.command(await entity('number', 'Speaker volume'), '250');
    await probeUntil('the refusal in the log', () =>
      /\[debug:device error\].*Speaker volume/.test(nodeRed?.output() ?? '') ? true : undefined,
    );
    should(writes()).equal(before);
  });

  it('announces the configs again after a broker restart when Home Assistant says online', async () => {
    await assistant.close();
    const port = broker.port;
    await broker.close();
    broker = await startBroker(port);
    assistant = await HomeAssistantClient.connect(broker.port);
    // Node-RED reconnects on its own; Home Assistant, reconnecting too, says online until the configs come.
    await probeUntil(
      'the configs again',
      async () => {
        if (assistant.entities.length > 15) return true;
        await assistant.online();
        return undefined;
      },
      60000,
      2000,
    );
    await stateIs(await entity('switch', 'Microphone mute'), 'OFF');
  });

  it('marks Node-RED offline through the broker node’s will when Node-RED crashes', async () => {
    const availability = (await entity('switch', 'Microphone mute')).config.availability as Array<{
      topic: string;
    }>;
    await (nodeRed as NodeRedProcess).kill();
    await probeUntil('an availability topic offline', () =>
      availability.some(({ topic }) => assistant.heard(topic) === 'offline') ? true : undefined,
    );
  });
});
