import should from 'should';
import { type ActiveZone, ActiveZoneFollower } from '../../src/device/active-zone-follower';
import type { DeviceConnection } from '../../src/device/connection';
import { type DeviceSimulator, sampleZones, startSimulator } from '../../src/simulator';
import { until } from '../support/wait';
import { connectTo } from './connect';

const PASSWORD = 'Follower-Test-Pw-1';
const IN_PRESENTER = { x: 0, y: 1500, powerLevel: 40 };

describe('device/active-zone-follower: the active zone of a device, without Node-RED', () => {
  let sim: DeviceSimulator;
  let connection: DeviceConnection;

  beforeEach(async () => {
    sim = await startSimulator({
      port: 0,
      passwords: { general: PASSWORD },
      talker: 'off',
      soundLocationIntervalMs: 20,
    });
    connection = connectTo(sim, { password: PASSWORD });
  });
  afterEach(async () => {
    await connection.close();
    await sim.close();
  });

  it('tells the zone the talker speaks in, and none once the muted microphone passes the release', async () => {
    const changes: ActiveZone[] = [];
    const follower = new ActiveZoneFollower(
      { zoneType: 'any', holdMs: 0, releaseMs: 500 },
      { onChange: (change) => changes.push(change) },
    );
    const stop = follower.start(connection);
    sim.placeTalker(IN_PRESENTER);
    await until(() => changes.length === 1, 'the active zone');
    should(changes[0]?.zone?.id).equal((sampleZones()[0] as { id: string }).id);
    should(follower.current.zone?.id).equal(changes[0]?.zone?.id);
    // No reading comes while muted: the follower's own timer ends the zone.
    sim.setMuted(true);
    await until(() => changes.length === 2, 'the release');
    should(changes[1]?.zone).be.null();
    stop();
  });
});
