/** The device state against a device that sends what it should not: new names, huge groups, wrong shapes. */
import should from 'should';
import { CHANGE_EVENTS, DEVICE_PATHS } from '../../src/api/protocol';
import type { StateGroupName } from '../../src/control';
import type { DeviceState } from '../../src/device/state';
import { MAX_SAID } from '../../src/device/state-warnings';
import { DeviceError } from '../../src/errors';
import { until } from '../support/wait';
import { useStateHarness } from './state-harness';

/** Every warning the state gives a follower of `groups`. */
function warningsOf(state: DeviceState, groups?: readonly StateGroupName[]): string[] {
  const warnings: string[] = [];
  state.subscribe({
    ...(groups === undefined ? {} : { groups }),
    onWarning: (_group, text) => warnings.push(text),
  });
  return warnings;
}

describe('device/state: what a hostile device sends', () => {
  const harness = useStateHarness();

  it('ignores LED events of types its status does not report, warning once per name', async () => {
    const connection = harness.connect();
    const follower = await harness.followed(connection.state);
    const warnings = warningsOf(connection.state, ['status']);
    for (const name of ['made-up', 'made-up', 'other']) {
      harness.sim.emitChange(CHANGE_EVENTS.ledState, { colour: 'red', state: 'solid', ledType: name });
    }
    // Events come in order: once this one is heard, the others were.
    harness.sim.setLed('networkA', { colour: 'red', state: 'blinking' });
    await until(() => follower.of('status').length === 2, 'the real LED change');
    should(Object.keys(follower.of('status')[1]?.next.leds as object)).eql(['console', 'networkA']);
    should(warnings).eql([
      'The device announced an LED "made-up" that its status does not report: the event is ignored',
      'The device announced an LED "other" that its status does not report: the event is ignored',
    ]);
  });

  it('stops warning about new LED names after a hundred, and keeps no more of them', async () => {
    const connection = harness.connect();
    const follower = await harness.followed(connection.state);
    const warnings = warningsOf(connection.state, ['status']);
    for (let index = 0; index < 4000; index++) {
      harness.sim.emitChange(CHANGE_EVENTS.ledState, {
        colour: 'red',
        state: 'solid',
        ledType: `led-${index}`,
      });
    }
    harness.sim.setLed('networkA', { colour: 'red', state: 'blinking' });
    await until(() => follower.of('status').length === 2, 'the real LED change', 20_000);
    should(warnings).have.length(MAX_SAID + 1);
    should(warnings.at(-1)).match(/the last such warning: 100 were logged, the rest are not/);
    should(JSON.stringify(connection.state.current().status).length).be.below(1000);
  });

  it('drops an event that would make a group too large, with one warning', async () => {
    const connection = harness.connect();
    const follower = await harness.followed(connection.state);
    const warnings = warningsOf(connection.state, ['cameraSwitcher']);
    const huge = { enabled: true, cameraInputs: Array.from({ length: 1001 }, (_, port) => ({ port })) };
    harness.sim.emitChange(CHANGE_EVENTS.cameraSwitcher, huge);
    harness.sim.emitChange(CHANGE_EVENTS.cameraSwitcher, huge);
    harness.sim.emitChange(CHANGE_EVENTS.cameraSwitcher, { ...huge, cameraInputs: [], enabled: false });
    await until(() => follower.of('cameraSwitcher').length === 2, 'the event of a fair size');
    should(follower.of('cameraSwitcher')[1]?.next.cameraInputs).eql([]);
    should(warnings).have.length(1);
    should(warnings[0]).match(
      /event would make the cameraSwitcher group too large \(it holds over 1000 keys\)/,
    );
  });

  it('keeps the last good audio when a read answers with the wrong shape, and tells its followers BAD_RESPONSE', async () => {
    const connection = harness.connect({ audioIntervalSeconds: 0.05 });
    const follower = await harness.followed(connection.state, ['audio']);
    const before = connection.state.get('audio')?.value;
    harness.sim.setFault({ kind: 'wrong-shape', body: [1, 2, 3], path: DEVICE_PATHS.audio, times: 1 });
    await until(() => follower.readErrors.length === 1, 'the read of the wrong shape');
    const error = follower.readErrors[0]?.error as DeviceError;
    should(error).be.instanceOf(DeviceError);
    should(error.code).equal('BAD_RESPONSE');
    should(error.message).match(/GET \/api\/v1\/audio is not a valid audio reading: it is an array/);
    should(connection.state.get('audio')?.value).equal(before);
    should(follower.of('audio')).have.length(1);
  });
});
