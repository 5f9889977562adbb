/**
 * The live room view (examples/07 Live room view.json) in Dashboard 2.0, as a user opens it: a real
 * Node-RED with this package and the dashboard, the example pointed at the device simulator, and a
 * headless Chromium on /dashboard/room. Every request of the page stays on this machine.
 */
import should from 'should';
import { type DeviceSimulator, startSimulator } from '../../src/simulator';
import { probeUntil } from '../support/wait';
import {
  type Browser,
  deployExample,
  describeProblem,
  launchBrowser,
  type NodeRed,
  openWhenServed,
  startNodeRed,
  stopAll,
} from './harness';
import { type RequestRecorder, recordRequests } from './network';

interface DrawnZone {
  id: string;
  active: string;
  label: string;
}

describe('the live room view on Dashboard 2.0 (real Node-RED and Chromium)', function () {
  this.timeout(120_000);
  let simulator: DeviceSimulator;
  let nodeRed: NodeRed | undefined;
  let browser: Browser | undefined;
  let recorder: RequestRecorder | undefined;

  before(async () => {
    // A fast talker keeps the test short; the walk is the demo's own.
    simulator = await startSimulator({ port: 0, soundLocationIntervalMs: 100 });
    nodeRed = await startNodeRed({ waitForTypes: ['conference-audio-active-zone', 'ui-template'] });
    await deployExample(nodeRed, '07', simulator.port);
    browser = await launchBrowser({ viewport: { width: 1000, height: 760 } });
    recorder = await recordRequests(browser.context);
    await openWhenServed(browser.page, `${nodeRed.url}/dashboard/room`, 'the dashboard page');
  });

  after(() => stopAll({ recorder, browser, nodeRed, simulator }));

  function drawnZones(): Promise<DrawnZone[]> {
    return (browser as Browser).page.$$eval('g.ca-zone', (groups) =>
      groups.map((group) => ({
        id: group.getAttribute('data-zone-id') ?? '',
        active: group.getAttribute('data-active') ?? '',
        label: group.querySelector('text')?.textContent?.trim() ?? '',
      })),
    );
  }

  function talkerPosition(): Promise<string | null> {
    return (browser as Browser).page
      .locator('circle.ca-talker')
      .evaluate((dot) => `${dot.getAttribute('data-x')},${dot.getAttribute('data-y')}`)
      .catch(() => null);
  }

  it('draws every zone of the device with its label', async () => {
    const labels = (simulator.getState().zones as Array<{ label: string }>).map((zone) => zone.label);
    const drawn = await probeUntil('the zones drawn', async () => {
      const zones = await drawnZones();
      return zones.length === labels.length ? zones : undefined;
    });
    should(drawn.map((zone) => zone.label).sort()).eql([...labels].sort());
  });

  it('moves the talker dot as the sound location stream moves', async () => {
    const first = await probeUntil('a talker dot', talkerPosition);
    await probeUntil('the dot somewhere else', async () => {
      const now = await talkerPosition();
      return now !== null && now !== first ? now : undefined;
    });
  });

  it('highlights the zone the talker speaks in, and says "No zone" when there is none', async () => {
    const zones = simulator.getState().zones as Array<{
      id: string;
      label: string;
      geometry: { point1: { x: number; y: number }; point2: { x: number; y: number } };
    }>;
    for (const zone of zones.slice(0, 2)) {
      const { point1, point2 } = zone.geometry;
      simulator.placeTalker({ x: (point1.x + point2.x) / 2, y: (point1.y + point2.y) / 2 });
      await probeUntil(`${zone.label} highlighted`, async () => {
        const active = (await drawnZones())
          .filter((drawn) => drawn.active === 'true')
          .map((drawn) => drawn.id);
        return active.length === 1 && active[0] === zone.id ? true : undefined;
      });
      const text = await (browser as Browser).page.locator('.ca-active-zone').textContent();
      should(text).containEql(zone.label);
    }
    simulator.silenceTalker();
    await probeUntil(
      '"No zone" after the release time',
      async () => {
        const text = (await (browser as Browser).page.locator('.ca-active-zone').textContent()) ?? '';
        return text.includes('No zone') ? true : undefined;
      },
      20_000,
    );
    should((await drawnZones()).filter((drawn) => drawn.active === 'true')).be.empty();
    await (browser as Browser).screenshot('dashboard-room');
  });

  it('shows the same picture again after a reload', async () => {
    const zones = simulator.getState().zones as Array<{
      id: string;
      geometry: { point1: { x: number; y: number }; point2: { x: number; y: number } };
    }>;
    const target = zones[0] as (typeof zones)[number];
    const { point1, point2 } = target.geometry;
    simulator.placeTalker({ x: (point1.x + point2.x) / 2, y: (point1.y + point2.y) / 2 });
    await probeUntil('the zone highlighted', async () =>
      (await drawnZones()).some((zone) => zone.id === target.id && zone.active === 'true') ? true : undefined,
    );
    await (browser as Browser).page.reload();
    await probeUntil('the zones and the highlight back after the reload', async () => {
      const drawn = await drawnZones();
      return drawn.length === zones.length &&
        drawn.some((zone) => zone.id === target.id && zone.active === 'true')
        ? true
        : undefined;
    });
    should(await talkerPosition()).not.be.null();
  });

  it('asks no host but this machine, and reports no page error', () => {
    should((recorder as RequestRecorder).nonLocal()).eql([]);
    const errors = (browser as Browser).problems.filter((problem) => problem.kind === 'pageerror');
    should(errors.map(describeProblem)).eql([]);
  });
});
