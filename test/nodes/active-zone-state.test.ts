import should from 'should';
import { DEVICE_PATHS } from '../../src/api/protocol';
import { GROUP_RESOURCES, STATE_GROUPS } from '../../src/control';
import type { DeviceSimulator } from '../../src/simulator';
import {
  activeZoneNodeDef,
  counter,
  delay,
  deviceConfig,
  FAST_READINGS,
  helper,
  nodeModules,
  tab,
  until,
  useSimulator,
} from './support';

const ACTIVE_ZONES = 5;

describe('active zone nodes: what their device state costs the device', () => {
  let sim: DeviceSimulator;

  useSimulator(FAST_READINGS, (started) => {
    sim = started;
  });

  const gets = (path: string) =>
    sim.requests.filter((request) => request.method === 'GET' && request.path === path).length;

  /** GETs of each state group's resource, groups never read left out. */
  function groupReads(): Record<string, number> {
    const reads: Record<string, number> = {};
    for (const group of STATE_GROUPS) {
      const count = gets(GROUP_RESOURCES[group]);
      if (count > 0) reads[group] = count;
    }
    return reads;
  }

  function activeZones(): Record<string, unknown>[] {
    return Array.from({ length: ACTIVE_ZONES }, (_, index) => [
      activeZoneNodeDef(`n-active-${index}`, `out-${index}`),
      { id: `out-${index}`, type: 'helper', z: 'f1' },
    ]).flat();
  }

  it('reads the layout once for the state of any number of active zone nodes, and no other group', async () => {
    await helper.load(nodeModules(), [tab, deviceConfig(sim), ...activeZones()]);
    await until(() => gets(DEVICE_PATHS.layout) === 1 && gets(DEVICE_PATHS.zones) === 1, 'the first reads');
    // Every node has subscribed once the zones are read; a state following more would be reading by now.
    await until(() => sim.openStreams === 2, 'the change and data streams');
    await delay(300);
    should(groupReads()).eql({ switching: 1 });
    should(gets(DEVICE_PATHS.zones)).equal(1);
  });

  it('reads the groups a state node needs besides, on the same device', async () => {
    const stateNode = {
      id: 'n-state',
      type: 'conference-audio-state',
      z: 'f1',
      device: 'device',
      groups: ['network'],
      wires: [['state-out']],
    };
    await helper.load(nodeModules(), [
      tab,
      deviceConfig(sim),
      ...activeZones(),
      stateNode,
      { id: 'state-out', type: 'helper', z: 'f1' },
    ]);
    const stateOut = counter(helper.getNode('state-out'));
    await until(() => stateOut.count === 1, "the state node's first reading");
    should(stateOut.messages[0]?.topic).equal('room/network');
    should(gets(DEVICE_PATHS.networkConfiguration)).equal(1);
    should(gets(DEVICE_PATHS.cameraSwitcher)).equal(0);
    should(gets(DEVICE_PATHS.layout)).equal(1);
  });
});
