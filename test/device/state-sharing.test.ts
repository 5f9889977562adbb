import should from 'should';
import { CHANGE_EVENTS, DEVICE_PATHS } from '../../src/api/protocol';
import { runControlAction } from '../../src/control';
import type { DeviceConnection } from '../../src/device/connection';
import type { SimulatorStats } from '../../src/simulator';
import { delay, until } from '../support/wait';
import { type Follower, follow, useStateHarness } from './state-harness';

/** Device requests by path between two snapshots of the simulator's counters. */
function requestsBetween(before: SimulatorStats, after: SimulatorStats): Record<string, number> {
  const made: Record<string, number> = {};
  for (const [path, count] of Object.entries(after.requestsByPath)) {
    const more = count - (before.requestsByPath[path] ?? 0);
    if (more > 0) made[path] = more;
  }
  return made;
}

describe('device/state: one state per device, shared and released', () => {
  const harness = useStateHarness();

  /** The requests `followers` subscribers cost: the first reading, then one body-less event followed. */
  async function requestsFor(followers: number): Promise<Record<string, number>> {
    const before = harness.sim.stats();
    const connection = harness.connect();
    const all: Follower[] = Array.from({ length: followers }, () => follow(connection.state));
    await until(() => all.every((follower) => follower.completions.length === 1), 'every first reading');
    harness.sim.setNetwork({ gateway: `198.51.100.${followers}` });
    await until(() => all.every((follower) => follower.of('network').length === 2), 'the network change');
    const made = requestsBetween(before, harness.sim.stats());
    await connection.close();
    return made;
  }

  it('costs the device no more requests for 50 subscribers than for one', async () => {
    harness.sim.setBodylessEvents([CHANGE_EVENTS.networkConfiguration]);
    const one = await requestsFor(1);
    const fifty = await requestsFor(50);
    should(fifty).eql(one);
    should(one[DEVICE_PATHS.networkConfiguration]).equal(2);
  });

  /** Whether the device hears anything from this connection within a few poll and resync intervals. */
  async function silentAfter(stop: () => unknown): Promise<boolean> {
    await stop();
    const before = harness.sim.stats();
    await delay(400);
    return Object.keys(requestsBetween(before, harness.sim.stats())).length === 0;
  }

  const busy = { audioIntervalSeconds: 0.05, stateResyncIntervalMs: 100 };

  it('leaves nothing running once the connection closes: no stream, no read', async () => {
    const connection = harness.connect(busy);
    await harness.followed(connection.state);
    should(await silentAfter(() => connection.close())).be.true();
    should(harness.sim.openStreams).equal(0);
  });

  it('stops when its last subscriber leaves, and offers nothing cached then', async () => {
    const connection = harness.connect(busy);
    const follower = await harness.followed(connection.state);
    should(await silentAfter(follower.unsubscribe)).be.true();
    should(harness.sim.openStreams).equal(0);
    should(connection.state.get('audio')).be.undefined();
  });

  it('starts again for a new subscriber with a new first reading', async () => {
    const connection = harness.connect();
    (await harness.followed(connection.state)).unsubscribe();
    const again = await harness.followed(connection.state);
    should(again.completions).have.length(1);
    should(again.of('audio')[0]?.previous).be.null();
  });

  async function audioFollowed(): Promise<{ connection: DeviceConnection; follower: Follower }> {
    const connection = harness.connect({ audioIntervalSeconds: 0.05 });
    return { connection, follower: await harness.followed(connection.state) };
  }

  it("hands a control action's read-back to the subscribers once, though the audio is polled", async () => {
    const { connection, follower } = await audioFollowed();
    const result = await runControlAction(connection.client, 'microphoneMute', true, connection.state, {
      toggleFreshMs: connection.state.audioIntervalMs,
    });
    should(result.payload.microphoneMute).be.true();
    const readBack = connection.state.get('audio')?.readAt ?? 0;
    await until(() => (connection.state.get('audio')?.readAt ?? 0) > readBack + 100, 'polls after the write');
    const mutes = follower
      .of('audio')
      .slice(1)
      .filter((change) => change.changed.includes('microphoneMute'));
    should(mutes).have.length(1);
    should(mutes[0]?.next.microphoneMute).be.true();
    should(mutes[0]?.previous?.microphoneMute).be.false();
  });

  it('hands a camera switcher write to the subscribers once, though the device also announces it', async () => {
    const connection = harness.connect();
    const follower = await harness.followed(connection.state);
    await runControlAction(connection.client, 'cameraSwitcher', false, connection.state);
    // Events come in order: once the LED change is heard, the switcher's own announcement was too.
    harness.sim.setLed('console', { colour: 'yellow', state: 'solid' });
    await until(() => follower.of('status').length === 2, 'the LED change after the write');
    should(follower.of('cameraSwitcher').map((change) => change.next.enabled)).eql([true, false]);
  });

  it('lets a control node keep the audio current, so that a toggle needs no read first', async () => {
    const connection = harness.connect({ audioIntervalSeconds: 60 });
    connection.state.retain();
    await until(() => connection.state.complete, 'the first reading');
    harness.sim.resetRecords();
    await runControlAction(connection.client, 'microphoneMute', 'toggle', connection.state, {
      toggleFreshMs: connection.state.audioIntervalMs,
    });
    should(harness.sim.requests.map((request) => request.method)).eql(['PATCH', 'GET']);
  });

  it('never shows the enrollment code, even to the admin account', async () => {
    const code = harness.sim.enrollmentCode;
    const connection = harness.connect({ account: 'admin', password: code });
    const follower = await harness.followed(connection.state);
    const hardware = connection.state.current().hardware;
    harness.sim.emitChange(CHANGE_EVENTS.hardware, { ...hardware, enrollmentCode: code, deviceStatus: 'x' });
    await until(() => follower.of('hardware').length === 2, 'the hardware event');
    should(harness.reads(DEVICE_PATHS.hardware)).equal(1);
    should(JSON.stringify([follower.changes, follower.completions])).not.containEql(code);
    should(connection.state.current().hardware).not.have.property('enrollmentCode');
  });
});
