import should from 'should';
import { DEVICE_PATHS } from '../../src/api/protocol';
import { GROUP_RESOURCES, STATE_GROUPS, type StateGroupName } from '../../src/control';
import { delay, until } from '../support/wait';
import { follow, useStateHarness } from './state-harness';

describe('device/state: only the groups its followers need', () => {
  const harness = useStateHarness();

  /** GETs of each group's resource the simulator answered, groups never read left out. */
  function groupReads(): Partial<Record<StateGroupName, number>> {
    const reads: Partial<Record<StateGroupName, number>> = {};
    for (const group of STATE_GROUPS) {
      const count = harness.reads(GROUP_RESOURCES[group]);
      if (count > 0) reads[group] = count;
    }
    return reads;
  }

  it('reads only the layout at start for a follower of the switching group', async () => {
    const connection = harness.connect({ audioIntervalSeconds: 0.05 });
    const follower = await harness.followed(connection.state, ['switching']);
    await delay(300);
    should(groupReads()).eql({ switching: 1 });
    should(Object.keys(follower.completions[0] ?? {})).eql(['switching']);
    should(connection.state.complete).be.true();
  });

  it('reads only the layout at each resync for a follower of the switching group, and never the audio', async () => {
    const connection = harness.connect({ audioIntervalSeconds: 0.05, stateResyncIntervalMs: 300 });
    await harness.followed(connection.state, ['switching']);
    await until(() => harness.reads(DEVICE_PATHS.layout) >= 3, 'two resyncs');
    should(Object.keys(groupReads())).eql(['switching']);
  });

  it('reads the groups a later follower adds, and tells it complete once they are read', async () => {
    const connection = harness.connect();
    const first = await harness.followed(connection.state, ['switching']);
    const second = await harness.followed(connection.state, ['switching', 'network', 'audio']);
    should(Object.keys(second.completions[0] ?? {})).eql(['audio', 'switching', 'network']);
    should(groupReads()).eql({ audio: 1, switching: 1, network: 1 });
    await delay(100);
    should(first.completions).have.length(1);
    should(second.completions).have.length(1);
  });

  it('tells a follower complete when its own groups are read, without waiting for the groups of others', async () => {
    // The hardware is not read until the next resync, a minute away: only its followers wait for it.
    harness.sim.setFault({ kind: 'status', status: 500, path: DEVICE_PATHS.hardware, times: 1 });
    const connection = harness.connect();
    const everything = follow(connection.state);
    const switching = follow(connection.state, ['switching']);
    await until(() => everything.readErrors.length === 1, 'the failed hardware read');
    await until(() => switching.completions.length === 1, 'the layout read');
    should(everything.completions).have.length(0);
    should(Object.keys(switching.completions[0] ?? {})).eql(['switching']);
    should(connection.state.complete).be.false();
  });

  it("counts a follower's groups as read while the groups of a later follower are still unread", async () => {
    harness.sim.setFault({ kind: 'status', status: 500, path: DEVICE_PATHS.hardware, times: 1 });
    const connection = harness.connect();
    await harness.followed(connection.state, ['switching']);
    const hardware = follow(connection.state, ['hardware']);
    await until(() => hardware.readErrors.length === 1, 'the failed hardware read');
    should(connection.state.hasRead(['switching'])).be.true();
    should(connection.state.hasRead(['switching', 'hardware'])).be.false();
    should(connection.state.complete).be.false();
  });

  it('tells only the followers of a group that its read failed', async () => {
    harness.sim.setFault({ kind: 'status', status: 500, path: DEVICE_PATHS.hardware, times: 1 });
    const connection = harness.connect();
    const switching = follow(connection.state, ['switching']);
    const hardware = follow(connection.state, ['hardware']);
    await until(() => hardware.readErrors.length === 1, 'the failed hardware read');
    await until(() => switching.completions.length === 1, 'the layout read');
    should(switching.readErrors).eql([]);
  });

  it('stops reading a group once its last follower leaves, and offers it no more', async () => {
    const connection = harness.connect({ stateResyncIntervalMs: 300 });
    await harness.followed(connection.state, ['switching']);
    const network = await harness.followed(connection.state, ['network']);
    should(connection.state.get('network')).not.be.undefined();
    network.unsubscribe();
    should(connection.state.get('network')).be.undefined();
    should(connection.state.current()).have.keys('switching');
    harness.sim.resetRecords();
    await until(() => harness.reads(DEVICE_PATHS.layout) >= 2, 'two resyncs');
    should(harness.reads(DEVICE_PATHS.networkConfiguration)).equal(0);
  });

  it('keeps no announced change of a group nobody follows', async () => {
    const connection = harness.connect();
    const follower = await harness.followed(connection.state, ['status']);
    harness.sim.setNetwork({ gateway: '192.0.2.254' });
    // Events come in order: once the LED change is heard, the network one was too.
    harness.sim.setLed('networkA', { colour: 'red', state: 'blinking' });
    await until(() => follower.of('status').length === 2, 'the LED change');
    should(connection.state.get('network')).be.undefined();
    should(follower.of('network')).eql([]);
  });

  it('keeps no control read of a group nobody follows', async () => {
    const connection = harness.connect();
    await harness.followed(connection.state, ['switching']);
    connection.state.set('audio', { microphoneMute: true });
    should(connection.state.get('audio')).be.undefined();
    connection.state.set('switching', { cameraSwitcherDefaults: {} });
    should(connection.state.get('switching')?.value).eql({ cameraSwitcherDefaults: {} });
  });
});
