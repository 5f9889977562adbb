/**
 * The device dialog with a real device's habits, in a real Node-RED and Chromium: a device that uses its
 * maker's vendor word (Test connection names it and offers to fill it in), and a certificate trusted on
 * first use (the dialog shows it; when the device later shows another one, it offers to accept it).
 */

import type { Page } from 'playwright-core';
import should from 'should';
import { type DeviceSimulator, startSimulator } from '../../src/simulator';
import { createCertificate } from '../../src/simulator/certificate';
import { probeUntil } from '../support/wait';
import {
  type Browser,
  describeProblem,
  launchBrowser,
  type NodeRed,
  openNodeDialog,
  pageOf,
  startNodeRed,
  stopAll,
} from './harness';

const PASSWORD = 'dialog-test-password';
const TAB = 'dialog-tab';

function flows(port: number): unknown[] {
  return [
    { id: TAB, type: 'tab', label: 'Device dialog' },
    {
      id: 'dialog-device',
      type: 'conference-audio-device',
      name: 'Acme ceiling mic',
      host: '127.0.0.1',
      port,
      account: 'general',
      clientId: 'node-red',
      vendor: 'Vendor',
      tls: 'pin',
      fingerprint: '',
      ca: '',
      timeout: 10,
      credentials: { password: PASSWORD },
    },
    {
      id: 'dialog-zones',
      type: 'conference-audio-zones',
      z: TAB,
      device: 'dialog-device',
      output: 'all',
      interval: 0,
      onStart: true,
      topic: 'room',
      x: 240,
      y: 120,
      wires: [[]],
    },
  ];
}

describe('the device dialog with a real device (real Node-RED and Chromium)', function () {
  this.timeout(120_000);
  let simulator: DeviceSimulator | undefined;
  let nodeRed: NodeRed | undefined;
  let browser: Browser | undefined;
  let port = 0;

  before(async () => {
    simulator = await startSimulator({ port: 0, vendor: 'Acme', passwords: { general: PASSWORD } });
    port = simulator.port;
    nodeRed = await startNodeRed({ waitForTypes: ['conference-audio-device', 'conference-audio-zones'] });
    browser = await launchBrowser();
  });

  after(() => stopAll({ browser, nodeRed, simulator }));

  function page(): Page {
    return pageOf(browser);
  }

  /** Deploys the flow, waits until the device was read (or refused), and opens the device dialog. */
  async function openDeviceDialog(): Promise<void> {
    await nodeRed?.adminJson('POST', '/flows', flows(port));
    const p = page();
    await p.goto(nodeRed?.url ?? '');
    await openNodeDialog(p, 'room zones');
    await p.locator('#node-input-btn-device-edit').click();
    await p.locator('#node-config-input-host').waitFor();
  }

  it('shows the certificate trusted on first use', async () => {
    const expected = simulator?.fingerprint256 ?? '';
    await openDeviceDialog();
    const trust = page().locator('#conference-audio-trust');
    // The deployed node read the zones at start, and so trusted the device's certificate.
    await probeUntil('the trusted fingerprint in the dialog', async () => {
      if (!(await trust.isVisible())) {
        await page().locator('#node-config-dialog-cancel').click();
        await page().locator('#node-dialog-cancel').click();
        await openDeviceDialog();
        return undefined;
      }
      return true;
    });
    should(await trust.textContent()).containEql(`Trusted since the first connection: ${expected}`);
  });

  it("names the device's own vendor word after Test connection and fills it in on request", async () => {
    const p = page();
    await p.locator('#node-config-input-password').fill(PASSWORD);
    await p.locator('#conference-audio-test-connection').click();
    const result = p.locator('#conference-audio-test-result.conference-audio-ok');
    await result.waitFor();
    should(await result.textContent()).containEql('The device uses the vendor word Acme, not Vendor.');
    await p.locator('#conference-audio-use-vendor').click();
    should(await p.locator('#node-config-input-vendor').inputValue()).equal('Acme');
    await p.locator('#node-config-dialog-cancel').click();
    await p.locator('#node-dialog-cancel').click();
  });

  it('offers to accept a new certificate after the device refused it, and fills in its fingerprint', async () => {
    const first = simulator?.fingerprint256 ?? '';
    await simulator?.close();
    simulator = await startSimulator({
      port,
      vendor: 'Acme',
      passwords: { general: PASSWORD },
      tls: await createCertificate('127.0.0.1'),
    });
    const second = simulator.fingerprint256;
    await openDeviceDialog();
    const trust = page().locator('#conference-audio-trust');
    await probeUntil('the refused certificate in the dialog', async () => {
      const text = (await trust.isVisible()) ? ((await trust.textContent()) ?? '') : '';
      if (text.includes(second)) return true;
      await page().locator('#node-config-dialog-cancel').click();
      await page().locator('#node-dialog-cancel').click();
      await openDeviceDialog();
      return undefined;
    });
    should(await trust.textContent()).containEql(`The device now shows ${second}, not the trusted ${first}`);
    await page().locator('#conference-audio-trust-accept').click();
    should(await page().locator('#node-config-input-fingerprint').inputValue()).equal(second);
    await page().locator('#node-config-dialog-cancel').click();
    await page().locator('#node-dialog-cancel').click();
  });

  it('reports no script error in the editor', () => {
    const errors = (browser?.problems ?? []).filter((problem) => problem.kind === 'pageerror');
    should(errors.map(describeProblem)).eql([]);
  });
});
