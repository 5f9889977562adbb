/** The active zone's `hold` and `release` are both in milliseconds (src/nodes/conference-audio-active-zone/definition.ts). */
import should from 'should';
import { MAX_TIMER_MS } from '../../src/api/settings-rules';
import {
  ACTIVE_ZONE_DEFAULTS,
  readHold,
  readRelease,
  readTiming,
} from '../../src/nodes/conference-audio-active-zone/definition';
import { readDeviceSwitching } from '../../src/nodes/conference-audio-active-zone/device-switching';
import type { DeviceSimulator } from '../../src/simulator';
import { activeZoneNodeDef, deviceConfig, helper, nodeModules, tab, useSimulator } from './support';

describe('active zone: hold and release in milliseconds', () => {
  it('defaults to a hold of 1000 ms and a release of 5000 ms', () => {
    should(readHold(undefined)).eql({ ok: true, value: 1000 });
    should(readRelease(undefined)).eql({ ok: true, value: 5000 });
    should(readRelease('')).eql({ ok: true, value: 5000 });
  });

  it('reads a release as milliseconds, as a number or as text', () => {
    should(readRelease(1500)).eql({ ok: true, value: 1500 });
    should(readRelease('1500')).eql({ ok: true, value: 1500 });
  });

  it('refuses a release past what timers allow, and falls back to the default', () => {
    const release = readRelease(MAX_TIMER_MS + 1);
    should(release.ok).be.false();
    if (!release.ok) should(release.fallback).equal(ACTIVE_ZONE_DEFAULTS.releaseMs);
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
      await helper.load(nodeModules(), [
        tab,
        deviceConfig(sim),
        activeZoneNodeDef('n-active', 'out', release),
        { id: 'out', type: 'helper', z: 'f1' },
      ]);
    }

    it('takes a release of 3,000,000 ms (50 minutes)', async () => {
      await deploy({ release: 3_000_000 });
      should(warnings('n-active')).not.match(/Release/);
    });

    it('warns about a release past what timers allow, naming the limit', async () => {
      await deploy({ release: MAX_TIMER_MS + 1 });
      should(warnings('n-active')).match(new RegExp(`Release must be at most ${MAX_TIMER_MS}\\b`));
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
