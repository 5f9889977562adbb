/**
 * Example 10 (Room control panel) in a real Node-RED with Dashboard 2.0 and Chromium, against the
 * simulator: what the page shows comes from the device state node, what it does reaches the device.
 */
import should from 'should';
import { type DeviceSimulator, startSimulator } from '../../src/simulator';
import { probeUntil } from '../support/wait';
import {
  type Browser,
  deployExample,
  launchBrowser,
  type NodeRed,
  openWhenServed,
  pageOf,
  startNodeRed,
  stopAll,
} from './harness';

const CALIBRATE_PATH = '/api/v1/audio/calibrate';

describe('the room control panel on Dashboard 2.0 (real Node-RED and Chromium)', function () {
  this.timeout(120_000);
  let simulator: DeviceSimulator;
  let nodeRed: NodeRed | undefined;
  let browser: Browser | undefined;

  before(async () => {
    simulator = await startSimulator({ port: 0, talker: 'off' });
    nodeRed = await startNodeRed({ waitForTypes: ['conference-audio-state', 'ui-template'] });
    await deployExample(nodeRed, '10', simulator.port);
    browser = await launchBrowser({ viewport: { width: 1000, height: 900 } });
    await openWhenServed(browser.page, `${nodeRed.url}/dashboard/panel`, 'the panel page');
  });

  after(() => stopAll({ browser, nodeRed, simulator }));

  function page() {
    return pageOf(browser);
  }

  function shown(field: string): Promise<string> {
    return page()
      .locator(`[data-field=${field}]`)
      .textContent()
      .then((text) => text ?? '');
  }

  const audio = () => simulator.getState().audio as { microphoneMute?: unknown; speakerVolume?: unknown };

  it('shows the volume, the speaker bar, USB and every LED the device reports', async () => {
    const leds = await probeUntil('the LEDs', async () => {
      const names = await page()
        .locator('.ca-led')
        .evaluateAll((spans) => spans.map((span) => span.getAttribute('data-led')));
      return names.length > 0 ? names : undefined;
    });
    should(leds.sort()).eql(Object.keys(simulator.getState().leds).sort());
    should(await shown('volume')).containEql(String(audio().speakerVolume));
    should(await shown('bar')).containEql('connected');
    should(await shown('usb')).containEql('connected');
  });

  it('mutes the device with the microphone switch', async () => {
    await page().locator('.nrdb-switch button').click();
    await probeUntil('the device muted', () => (audio().microphoneMute === true ? true : undefined));
    await probeUntil('the switch showing muted', async () =>
      (await page().locator('.nrdb-switch .mdi-microphone-off').count()) === 1 ? true : undefined,
    );
  });

  it('steps the volume up and shows the new volume', async () => {
    const before = Number(audio().speakerVolume);
    await page().getByText('Volume up').click();
    await probeUntil('the volume one up', () =>
      Number(audio().speakerVolume) === before + 1 ? true : undefined,
    );
    await probeUntil('the new volume shown', async () =>
      (await shown('volume')).includes(String(before + 1)) ? true : undefined,
    );
  });

  it('asks before calibrating, and calibrates only when confirmed', async () => {
    const calibrations = () => simulator.requests.filter((request) => request.path === CALIBRATE_PATH).length;
    await page().getByText('Calibrate…').click();
    await page().getByRole('button', { name: 'Cancel', exact: true }).click();
    await page().getByText('Calibrate…').click();
    await page().getByRole('button', { name: 'Calibrate', exact: true }).click();
    await probeUntil('one calibration', () => (calibrations() > 0 ? true : undefined));
    should(calibrations()).equal(1);
    await probeUntil('"Calibrating" shown', async () =>
      (await page().locator('[data-field=calibrating]').count()) === 1 ? true : undefined,
    );
  });

  it('switches to the profile chosen in the drop-down', async () => {
    await page().locator('.nrdb-ui-dropdown .v-field').first().click();
    await page().getByRole('option', { name: 'Workshop' }).click();
    await probeUntil('Workshop active at the device', () => {
      const profiles = simulator.getState().profiles;
      return profiles.find((profile) => profile.active)?.name === 'Workshop' ? true : undefined;
    });
  });
});
