/** The state node against a device that sends what it should not: made-up LEDs, bodies of the wrong shape. */
import should from 'should';
import { CHANGE_EVENTS, DEVICE_PATHS } from '../../src/api/protocol';
import type { DeviceSimulator } from '../../src/simulator';
import {
  allLogText,
  catchModule,
  counter,
  deviceConfig,
  doneWatchers,
  helper,
  nodeModules,
  tab,
  until,
  useSimulator,
} from './support';

describe('device state node: what a hostile device sends', () => {
  let sim: DeviceSimulator;
  useSimulator({ talker: 'off' }, (started) => {
    sim = started;
  });

  /** A state node of the status and audio groups, sending changes; resolves once it sent its first reading. */
  async function load() {
    const state = {
      id: 'n-state',
      type: 'conference-audio-state',
      z: 'f1',
      device: 'device',
      output: 'changes',
      groups: ['audio', 'status'],
      topic: '',
      wires: [['out']],
    };
    await helper.load(
      nodeModules(catchModule),
      [
        tab,
        deviceConfig(sim, { audioInterval: 0.05 }),
        state,
        { id: 'out', type: 'helper', z: 'f1' },
        ...doneWatchers('n-state'),
      ],
      { device: { password: '' } },
    );
    const out = counter(helper.getNode('out'));
    await until(() => out.count === 2, 'the first reading');
    return { out, caught: counter(helper.getNode('failed')) };
  }

  it('sends one small message for 4,000 LED events of made-up types and one real change, warning once per name up to a cap', async () => {
    const { out } = await load();
    for (let index = 0; index < 4000; index++) {
      sim.emitChange(CHANGE_EVENTS.ledState, { colour: 'red', state: 'solid', ledType: `led-${index}` });
    }
    sim.setLed('networkA', { colour: 'red', state: 'blinking' });
    await until(() => out.count === 3, 'the real LED change', 20_000);
    const change = out.messages[2] ?? {};
    should(change.topic).equal('room/status');
    should(Object.keys((change.payload as { leds: object }).leds)).eql(['console', 'networkA']);
    should(JSON.stringify(change).length).be.below(2000);
    // The log as JSON: the quotes around a name are escaped.
    const log = allLogText();
    should(log.split('an LED \\"led-0\\"').length - 1).equal(1);
    should(log).containEql('an LED \\"led-99\\"');
    should(log).containEql('the last such warning');
    should(log).not.containEql('an LED \\"led-101\\"');
  });

  it('reports an audio read of the wrong shape as BAD_RESPONSE at the Catch node, sending no change', async () => {
    const { out, caught } = await load();
    sim.setFault({ kind: 'wrong-shape', body: [1, 2, 3], path: DEVICE_PATHS.audio });
    await until(() => caught.count === 1, 'the Catch node');
    should(caught.messages[0]?.error).have.property('code', 'BAD_RESPONSE');
    should(out.count).equal(2);
  });
});
