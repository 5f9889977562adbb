/**
 * examples/09 (Many rooms) as `npm start` deploys it (scripts/start.js buildDemoFlows), but with each room
 * pointed at a device of its own, where the demo points all three at its one simulator: so that each room
 * can show a status of its own. For the Rooms page's browser test and its picture in docs/.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { projectRoot } from './harness';

interface FlowNode {
  id: string;
  type: string;
  name?: string;
  env?: Array<{ name: string; type: string; value?: string }>;
  [property: string]: unknown;
}

const FILE = '09 Many rooms.json';
const example: FlowNode[] = JSON.parse(readFileSync(path.join(projectRoot, 'examples', FILE), 'utf8'));
const demo = require('../../scripts/start.js') as {
  buildDemoFlows(
    examples: { file: string; title: string; nodes: FlowNode[] }[],
    target: { devicePort: number; brokerPort: number; nodeRedPort: number; inlineCredentials: boolean },
  ): FlowNode[];
};

/** The example's rooms (its subflow instances), by name. */
export const exampleRooms: readonly string[] = example
  .filter((node) => node.type.startsWith('subflow:'))
  .map((node) => node.name ?? '');

/** The example's flows on the broker at `brokerPort`, each room on the device port `devicePortOf` gives. */
export function roomsExampleFlows(brokerPort: number, devicePortOf: (room: string) => number): FlowNode[] {
  const flows = demo.buildDemoFlows([{ file: FILE, title: 'Many rooms', nodes: example }], {
    devicePort: 0,
    brokerPort,
    nodeRedPort: 1880,
    inlineCredentials: true,
  });
  return flows.map((node) =>
    node.type.startsWith('subflow:')
      ? {
          ...node,
          env: node.env?.map((entry) =>
            entry.name === 'PORT' ? { ...entry, value: String(devicePortOf(node.name ?? '')) } : entry,
          ),
        }
      : node,
  );
}
