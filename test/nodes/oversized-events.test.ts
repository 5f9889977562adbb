/**
 * A device whose change stream sends events too large to pass (a layout of 70,000 bytes): the device node
 * logs it once per stream connection, naming the size, and the zones it may have changed are read again.
 */
import should from 'should';
import { DEVICE_PATHS } from '../../src/api/protocol';
import { type DeviceSimulator, sampleZones } from '../../src/simulator';
import {
  activeZoneFlow,
  catchModule,
  completeModule,
  delay,
  FAST_READINGS,
  helper,
  nodeModules,
  until,
  useSimulator,
} from './support';

/** A layout announcement of about 70,000 bytes: over the 64 KiB cap of one event. */
const HUGE_LAYOUT = { zones: sampleZones(), padding: 'x'.repeat(70_000) };

describe('a change stream event over the size cap', () => {
  let sim: DeviceSimulator;

  useSimulator(FAST_READINGS, (started) => {
    sim = started;
  });

  const zoneReads = () => sim.requests.filter((request) => request.path === DEVICE_PATHS.zones).length;

  /** What the device config node logged as warnings about dropped events. */
  function droppedWarnings(): string[] {
    return (helper.getNode('device').warn as unknown as { getCalls(): { args: unknown[] }[] })
      .getCalls()
      .map((call) => String(call.args[0]))
      .filter((text) => /is larger than/.test(text));
  }

  async function load(): Promise<void> {
    await helper.load(
      nodeModules(completeModule, catchModule),
      activeZoneFlow(sim, { hold: 0, release: 500 }),
    );
    await until(() => zoneReads() === 1 && sim.openStreams === 2, 'the zones read and both streams open');
  }

  it('is logged once by the device node for a flood of them, naming its size, and the zones are read again', async () => {
    await load();
    for (let index = 0; index < 30; index++) sim.emitChange(DEVICE_PATHS.layout, HUGE_LAYOUT);
    await until(() => zoneReads() >= 2, 'the zones read again');
    await delay(300);
    const warnings = droppedWarnings();
    should(warnings).have.length(1);
    should(warnings[0]).match(/\/api\/v1\/room\/layout.*\(70\d{3} bytes\) is larger than 65536 bytes/);
  });

  it('is logged again on the next connection of the change stream', async () => {
    await load();
    sim.emitChange(DEVICE_PATHS.layout, HUGE_LAYOUT);
    await until(() => droppedWarnings().length === 1, 'the first line');
    sim.dropStreams();
    await until(() => sim.openStreams === 0, 'the streams dropped');
    await until(() => sim.openStreams === 2, 'the streams back', 5000);
    sim.emitChange(DEVICE_PATHS.layout, HUGE_LAYOUT);
    sim.emitChange(DEVICE_PATHS.layout, HUGE_LAYOUT);
    await until(() => droppedWarnings().length === 2, 'the line of the second connection');
    await delay(200);
    should(droppedWarnings()).have.length(2);
  });
});
