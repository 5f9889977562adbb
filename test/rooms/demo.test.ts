/**
 * examples/09 as `npm start` deploys it (scripts/start.js buildDemoFlows): the room instances are pointed
 * at the demo's simulator and the tab at the demo's broker, the template itself is left as it is.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import should from 'should';
import { type DeviceSimulator, startSimulator } from '../../src/simulator';
import { ourWarningsAndErrors } from '../e2e/node-red';
import type { NodeRedProcess } from '../support/node-red-process';
import {
  type Broker,
  PRESENTER,
  type Subscriber,
  startBroker,
  startNodeRedWith,
  subscribeToSite,
  waitForTopics,
} from './support';

interface FlowNode {
  id: string;
  type: string;
  z?: string;
  name?: string;
  [property: string]: unknown;
}
const demo = require('../../scripts/start.js') as {
  buildDemoFlows(
    examples: { file: string; title: string; nodes: FlowNode[] }[],
    target: { devicePort: number; brokerPort: number; nodeRedPort: number; inlineCredentials: boolean },
  ): FlowNode[];
};
const FILE = '09 Many rooms.json';
const example: FlowNode[] = JSON.parse(
  readFileSync(path.join(__dirname, '..', '..', 'examples', FILE), 'utf8'),
);
const SITE = 'building-1';
const roomNames = example.filter((node) => node.type.startsWith('subflow:')).map((node) => node.name ?? '');

describe('examples/09 in the demo', function () {
  this.timeout(60000);
  let broker: Broker;
  let simulator: DeviceSimulator;
  let subscriber: Subscriber;
  let nodeRed: NodeRedProcess & { cleanUp(): Promise<void> };
  let deployed: FlowNode[];

  before(async () => {
    broker = await startBroker();
    simulator = await startSimulator({ port: 0, talker: 'still', talkerAt: PRESENTER });
    subscriber = await subscribeToSite(broker.port, SITE);
    deployed = demo.buildDemoFlows([{ file: FILE, title: 'Many rooms', nodes: example }], {
      devicePort: simulator.port,
      brokerPort: broker.port,
      nodeRedPort: 1880,
      inlineCredentials: true,
    });
    nodeRed = await startNodeRedWith(deployed);
  });

  after(async () => {
    await nodeRed?.cleanUp();
    await subscriber?.end();
    await simulator?.close();
    await broker?.close();
  });

  it('leaves the room template as the example has it', () => {
    const template = (flows: FlowNode[]) => {
      const subflow = flows.find((node) => node.type === 'subflow');
      return flows.filter((node) => node === subflow || node.z === subflow?.id);
    };
    should(template(deployed)).eql(template(example));
  });

  it('brings its three rooms online, each on its retained status topic', async () => {
    should(roomNames).have.length(3);
    await waitForTopics(
      subscriber,
      roomNames.map((room) => `${SITE}/status/${room}`),
      (p) => p === 'online',
      'the three rooms online',
    );
  });

  it('logs no warning or error of its nodes while its rooms come online', async () => {
    await waitForTopics(
      subscriber,
      roomNames.map((room) => `${SITE}/status/${room}`),
      (p) => p === 'online',
      'the three rooms online',
    );
    should(ourWarningsAndErrors(nodeRed.output())).eql([]);
  });
});
