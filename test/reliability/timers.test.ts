/**
 * Intervals and timeouts past what Node's timers honour (2^31-1 ms, about 24.8 days): such a timer
 * overflows and fires after 1 ms, so "read every 30 days" used to read the device every millisecond. A
 * value that cannot be honoured is refused with a clear error naming the property, and every timer the
 * package sets stays within the limit.
 */
import should from 'should';
import { MAX_TIMER_SECONDS } from '../../src/api/settings-rules';
import { delay, deviceConfig, helper, nodeModules, tab, zonesNodeDef } from '../nodes/support';
import { useReliabilityHarness } from './harness';

const ZONES_PATH = '/api/v1/room/zones';

/** What a node reported through node.error or node.warn (the helper spies on both). */
function reported(id: string, method: 'error' | 'warn'): string {
  const node = helper.getNode(id) as unknown as Record<string, { args: unknown[][] }>;
  return JSON.stringify(node[method]?.args ?? []);
}

describe('reliability: timer values past 24.8 days', () => {
  const rig = useReliabilityHarness();

  it('refuses a room zones interval longer than timers allow, and never reads on it', async () => {
    const flow = [
      tab,
      deviceConfig(rig.simulator),
      zonesNodeDef('n-zones', 'out', { interval: MAX_TIMER_SECONDS + 1, onStart: false }),
      { id: 'out', type: 'helper', z: 'f1' },
    ];
    await helper.load(nodeModules(), flow, rig.credentials());
    // An overflowing timer would have read the zones a hundred times by now.
    await delay(250);
    should(rig.simulator.counters.requestsByPath[ZONES_PATH] ?? 0).equal(0);
    should(reported('n-zones', 'error')).match(/longer than timers allow/);
  });

  it('accepts the longest interval timers honour', async () => {
    const flow = [
      tab,
      deviceConfig(rig.simulator),
      zonesNodeDef('n-zones', 'out', { interval: MAX_TIMER_SECONDS, onStart: false }),
      { id: 'out', type: 'helper', z: 'f1' },
    ];
    await helper.load(nodeModules(), flow, rig.credentials());
    await delay(250);
    should(rig.simulator.counters.requestsByPath[ZONES_PATH] ?? 0).equal(0);
    should(reported('n-zones', 'error')).not.match(/longer than timers allow/);
  });

  it('warns at deploy and keeps the default release when the release is too long', async () => {
    const flow = [
      tab,
      deviceConfig(rig.simulator),
      {
        id: 'active',
        type: 'conference-audio-active-zone',
        z: 'f1',
        device: 'device',
        zoneType: 'Switching',
        hold: 1000,
        release: 1e12,
        topic: 'room',
        wires: [[]],
      },
    ];
    await helper.load(nodeModules(), flow, rig.credentials());
    should(reported('active', 'warn')).match(/Release must be at most 2147483/);
  });
});
