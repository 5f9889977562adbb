/**
 * The device control node's dialog in a real Node-RED and Chromium: the action list from src/control, the
 * typed value field that fits each action (the action's words as types of their own, then msg, flow,
 * global and env), and the confirmation before calibrate is chosen.
 */
import fs from 'node:fs';
import type { Page } from 'playwright-core';
import should from 'should';
import {
  ACTION_CHOICES,
  type ActionChoice,
  isWordType,
  VALUE_FIELDS,
} from '../../src/nodes/conference-audio-control/definition';
import { type DeviceSimulator, startSimulator } from '../../src/simulator';
import { catalogueFile } from '../support/node-types';
import {
  type Browser,
  describeProblem,
  launchBrowser,
  type NodeRed,
  openNodeDialog,
  pageOf,
  startNodeRed,
  stopAll,
} from './harness';

const TYPE = 'conference-audio-control';
const TAB = 'control-tab';
const CONTROL = 'control-node';

function texts(): {
  actions: Record<ActionChoice, string>;
  types: Record<string, string>;
  confirm: { calibrate: string };
} {
  return JSON.parse(fs.readFileSync(catalogueFile(TYPE, 'en-US'), 'utf8'))[TYPE];
}

function flows(port: number): unknown[] {
  return [
    { id: TAB, type: 'tab', label: 'Device control' },
    {
      id: 'control-device',
      type: 'conference-audio-device',
      name: 'room',
      host: '127.0.0.1',
      port,
      account: 'general',
      tls: 'insecure',
      timeout: 10,
      audioInterval: 0,
    },
    {
      id: CONTROL,
      type: TYPE,
      z: TAB,
      device: 'control-device',
      action: 'microphoneMute',
      value: 'true',
      valueType: 'bool',
      x: 240,
      y: 120,
      wires: [[]],
    },
  ];
}

/** What the dialog shows for the value: whether the row is visible, and the typed input's state. */
interface ValueShown {
  visible: boolean;
  types: string[];
  /** The label of each type in the type menu. */
  labels: Record<string, string>;
  type: string;
  value: string;
}

describe('the device control dialog (real Node-RED and Chromium)', function () {
  this.timeout(120_000);
  let simulator: DeviceSimulator | undefined;
  let nodeRed: NodeRed | undefined;
  let browser: Browser | undefined;

  before(async () => {
    simulator = await startSimulator({ port: 0 });
    nodeRed = await startNodeRed({ waitForTypes: ['conference-audio-device', TYPE] });
    browser = await launchBrowser();
    await nodeRed.adminJson('POST', '/flows', flows(simulator.port));
    const p = page();
    await p.goto(nodeRed.url);
    await openNodeDialog(p, texts().actions.microphoneMute);
    await p.locator('#node-input-action').waitFor();
  });

  after(() => stopAll({ browser, nodeRed, simulator }));

  function page(): Page {
    return pageOf(browser);
  }

  function valueShown(): Promise<ValueShown> {
    return page().evaluate(() => {
      const input = $('#node-input-value');
      const widget = input.typedInput('instance' as 'type') as unknown as {
        typeList: Array<{ value: string; label?: string }>;
      };
      return {
        visible: $('#conference-audio-control-value-row').is(':visible'),
        types: widget.typeList.map((type) => type.value),
        labels: Object.fromEntries(widget.typeList.map((type) => [type.value, type.label ?? ''])),
        type: input.typedInput('type'),
        value: input.typedInput('value'),
      };
    });
  }

  it('lists every action of the control model and "set by msg", in the catalogue’s words', async () => {
    const options = page().locator('#node-input-action option');
    should(await options.evaluateAll((all) => all.map((option) => (option as HTMLOptionElement).value))).eql([
      ...ACTION_CHOICES,
    ]);
    should(await options.allTextContents()).eql(ACTION_CHOICES.map((action) => texts().actions[action]));
  });

  for (const action of ACTION_CHOICES.filter((choice) => choice !== 'calibrate')) {
    const field = VALUE_FIELDS[action];
    const shows = field === undefined ? 'hides the value' : `offers ${field.types.join(', ')}`;
    it(`${action}: ${shows}`, async () => {
      await page().locator('#node-input-action').selectOption(action);
      const shown = await valueShown();
      should(shown.visible).equal(field !== undefined);
      if (field === undefined) return;
      should(shown.types).eql([...field.types]);
      should(field.types).containEql(shown.type);
      for (const word of field.types.filter(isWordType))
        should(shown.labels[word]).equal(texts().types[word]);
    });
  }

  it('asks before calibrate is chosen, and keeps the action when the answer is no', async () => {
    const p = page();
    await p.locator('#node-input-action').selectOption('volume');
    let asked = '';
    p.once('dialog', (dialog) => {
      asked = dialog.message();
      void dialog.dismiss();
    });
    await p.locator('#node-input-action').selectOption('calibrate');
    should(asked).equal(texts().confirm.calibrate);
    should(await p.locator('#node-input-action').inputValue()).equal('volume');
    should((await valueShown()).visible).be.true();
  });

  it('chooses calibrate, with no value, when the answer is yes', async () => {
    const p = page();
    p.once('dialog', (dialog) => void dialog.accept());
    await p.locator('#node-input-action').selectOption('calibrate');
    should(await p.locator('#node-input-action').inputValue()).equal('calibrate');
    should((await valueShown()).visible).be.false();
  });

  it("saves the action with one of its words as the value's type", async () => {
    const p = page();
    await p.locator('#node-input-action').selectOption('soundLocationAlgorithm');
    await p.evaluate(() => $('#node-input-value').typedInput('type', 'TDOA'));
    await p.locator('#node-dialog-ok').click();
    const saved = await p.evaluate((id) => {
      const red = (window as unknown as { RED: { nodes: { node(id: string): Record<string, unknown> } } })
        .RED;
      const node = red.nodes.node(id);
      return { action: node.action, value: node.value, valueType: node.valueType, valid: node.valid };
    }, CONTROL);
    should(saved).eql({ action: 'soundLocationAlgorithm', value: '', valueType: 'TDOA', valid: true });
  });

  it('leaves no error in the editor', () => {
    should((browser?.problems ?? []).map(describeProblem)).eql([]);
  });
});
