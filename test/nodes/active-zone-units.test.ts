/**
 * The active zone's `hold` and `release` are both in milliseconds. A node saved while `release` was in
 * seconds has no `releaseUnit`: it loads with the same timing (src/nodes/conference-audio-active-zone/
 * definition.ts), and the editor shows and saves it in milliseconds.
 */
import should from 'should';
import { MAX_TIMER_SECONDS } from '../../src/api/settings-rules';
import {
  ACTIVE_ZONE_DEFAULTS,
  readHold,
  readRelease,
  readTiming,
  releaseInMs,
} from '../../src/nodes/conference-audio-active-zone/definition';
import { readDeviceSwitching } from '../../src/nodes/conference-audio-active-zone/device-switching';
import type { DeviceSimulator } from '../../src/simulator';
import { activeZoneNodeDef, deviceConfig, helper, nodeModules, tab, useSimulator } from './support';

describe('active zone: hold and release in milliseconds', () => {
  it('defaults to a hold of 1000 ms and a release of 5000 ms', () => {
    should(readHold(undefined)).eql({ ok: true, value: 1000 });
    should(readRelease(undefined, 'ms')).eql({ ok: true, value: 5000 });
    should(ACTIVE_ZONE_DEFAULTS.releaseUnit).equal('ms');
  });

  it('reads a release saved with releaseUnit ms as milliseconds', () => {
    should(readRelease(1500, 'ms')).eql({ ok: true, value: 1500 });
    should(readRelease('1500', 'ms')).eql({ ok: true, value: 1500 });
  });

  it('reads a release saved without releaseUnit as seconds, so the timing stays the same', () => {
    should(readRelease(5, undefined)).eql({ ok: true, value: 5000 });
    should(readRelease('0.5', undefined)).eql({ ok: true, value: 500 });
    should(readRelease('', undefined)).eql({ ok: true, value: 5000 });
  });

  it('refuses a release in seconds past what timers allow, and falls back to the default', () => {
    const release = readRelease(MAX_TIMER_SECONDS + 1, undefined);
    should(release.ok).be.false();
    if (!release.ok) should(release.fallback).equal(ACTIVE_ZONE_DEFAULTS.releaseMs);
  });

  it('gives the editor an older node release in milliseconds, and leaves a release in milliseconds as it is', () => {
    should(releaseInMs(5, undefined)).equal(5000);
    should(releaseInMs('2', 's')).equal(2000);
    should(releaseInMs(2000, 'ms')).equal(2000);
    // Unreadable: left for the dialog to show and flag.
    should(releaseInMs('soon', undefined)).equal('soon');
  });

  describe('in a running node', () => {
    let sim: DeviceSimulator;
    useSimulator({}, (started) => {
      sim = started;
    });

    function warnings(id: string): string {
      const node = helper.getNode(id) as unknown as Record<string, { args: unknown[][] }>;
      return JSON.stringify(node.warn?.args ?? []);
    }

    async function deploy(release: Record<string, unknown>): Promise<void> {
      const node = activeZoneNodeDef('n-active', 'out', release);
      if (release.releaseUnit === undefined) delete node.releaseUnit;
      await helper.load(nodeModules(), [
        tab,
        deviceConfig(sim),
        node,
        { id: 'out', type: 'helper', z: 'f1' },
      ]);
    }

    it('takes a release of 3,000,000 in milliseconds (50 minutes)', async () => {
      await deploy({ release: 3_000_000, releaseUnit: 'ms' });
      should(warnings('n-active')).not.match(/Release/);
    });

    it('reads the same 3,000,000 without releaseUnit as seconds, past what timers allow', async () => {
      await deploy({ release: 3_000_000 });
      should(warnings('n-active')).match(new RegExp(`Release must be at most ${MAX_TIMER_SECONDS}\\b`));
    });
  });
});

describe('active zone: timing and the device switching defaults', () => {
  const own = { holdMs: 1000, releaseMs: 5000 };

  it('reads timing node or device, and the default node for a flow saved without it or with unknown text', () => {
    should(readTiming('device')).equal('device');
    should(readTiming('node')).equal('node');
    should(readTiming(undefined)).equal(ACTIVE_ZONE_DEFAULTS.timing);
    should(readTiming('Device')).equal('node');
  });

  it("takes the device's zonesTriggerWaitTime as the hold and switchToDefaultWaitTime as the release", () => {
    const switching = {
      cameraSwitcherDefaults: {
        defaultCameraInputPort: 'USB1',
        zonesTriggerWaitTime: 800,
        switchToDefaultWaitTime: 4000,
      },
    };
    should(readDeviceSwitching(switching, own)).eql({
      timing: { holdMs: 800, releaseMs: 4000 },
      problems: [],
      defaultCameraInput: 'USB1',
    });
  });

  it("keeps the node's own value where the device gives none or one that is no delay, naming the problem", () => {
    const read = readDeviceSwitching({ cameraSwitcherDefaults: { switchToDefaultWaitTime: -5 } }, own);
    should(read.timing).eql(own);
    should(read.problems).have.length(1);
    should(read.problems[0]).match(/switchToDefaultWaitTime/);
    should(read.defaultCameraInput).be.null();
  });

  it('gives no timing and no default input for a device without switching defaults', () => {
    should(readDeviceSwitching({}, own)).eql({ timing: undefined, problems: [], defaultCameraInput: null });
  });
});
