/**
 * A flow saved by the 0.1.0 editor (test/fixtures/flows-0.1.0.json) loads and works unchanged: every
 * node type with the properties 0.1.0 had, numbers as that editor saved them (a typed value as text, an
 * untouched default as a number), wired to inject and debug nodes. Only the device's address is set to
 * the simulator's, as a user pointing the flow at another device would; the password is a credential,
 * which a flow file never holds.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import should from 'should';
import type { DeviceSimulator } from '../../src/simulator';
import { nodeTypes } from '../support/node-types';
import { helper, nodeModules, requireFromRuntime, type TestNode, until, useSimulator } from './support';

type NodeModule = Parameters<typeof nodeModules>[0];
type FlowNode = Record<string, unknown> & { id: string; type: string; name?: string };

const PASSWORD = 'Old-Fl0w-Password!';
const savedFlow: FlowNode[] = JSON.parse(
  readFileSync(path.join(__dirname, '..', 'fixtures', 'flows-0.1.0.json'), 'utf8'),
);
const injectModule = requireFromRuntime<NodeModule>('@node-red/nodes/core/common/20-inject.js');
const debugModule = requireFromRuntime<NodeModule>('@node-red/nodes/core/common/21-debug.js');

function byName(type: string, name: string): FlowNode {
  const node = savedFlow.find((candidate) => candidate.type === type && candidate.name === name);
  if (node === undefined) throw new Error(`the 0.1.0 flow has no ${type} named "${name}"`);
  return node;
}

/** The messages reaching a debug node of the flow, as its sidebar would list them. */
function debugMessages(name: string): Array<Record<string, unknown>> {
  const messages: Array<Record<string, unknown>> = [];
  helper.getNode(byName('debug', name).id).on('input', ((msg: Record<string, unknown>) => {
    messages.push(msg);
  }) as never);
  return messages;
}

function press(injectName: string): void {
  (helper.getNode(byName('inject', injectName).id) as TestNode).receive({});
}

describe('a flow saved with 0.1.0', () => {
  let sim: DeviceSimulator;
  useSimulator({ passwords: { general: PASSWORD } }, (started) => {
    sim = started;
  });

  async function deploySavedFlow(): Promise<void> {
    const device = savedFlow.find((node) => node.type === 'conference-audio-device');
    if (device === undefined) throw new Error('the 0.1.0 flow has no device config node');
    const flow = savedFlow.map((node) =>
      node === device ? { ...node, host: '127.0.0.1', port: String(sim.port) } : node,
    );
    await helper.load(nodeModules(injectModule, debugModule), flow, {
      [device.id]: { password: PASSWORD },
    });
  }

  it('uses only node types this version still registers', () => {
    const ours = savedFlow.map((node) => node.type).filter((type) => type.startsWith('conference-audio-'));
    should(ours.length).be.above(0);
    for (const type of ours) should(nodeTypes).containEql(type);
  });

  it('reads every zone when its inject is pressed', async () => {
    await deploySavedFlow();
    const zones = debugMessages('zones');
    press('read zones');
    await until(() => zones.length === 1, 'the zones at the debug node');
    should(zones[0]?.topic).equal('zones');
    should(zones[0]).have.property('payload').with.length(3);
  });

  it('reads once after deploy and reports every zone as added, on its own topic', async () => {
    await deploySavedFlow();
    const changes = debugMessages('changes');
    await until(() => changes.length === 1, 'the read after deploy');
    should(changes[0]?.topic).equal('room-2.14/zones');
    should(changes[0]).have.propertyByPath('payload', 'added').with.length(3);
  });

  it('finds the presenter zone for the talker position its inject sends', async () => {
    await deploySavedFlow();
    const inside = debugMessages('inside');
    const outside = debugMessages('outside');
    press('talker at the presenter desk');
    await until(() => inside.length + outside.length === 1, 'the lookup answer');
    should(outside).have.length(0);
    const zonesFound = (inside[0]?.payload ?? []) as Array<{ label: string }>;
    const labels = zonesFound.map((zone) => zone.label);
    should(labels).eql(['Presenter']);
  });

  it('answers the device request with the device answer', async () => {
    await deploySavedFlow();
    const audio = debugMessages('audio');
    press('audio settings');
    await until(() => audio.length === 1, 'the audio answer');
    should(audio[0]?.statusCode).equal(200);
  });
});
