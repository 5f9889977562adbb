/**
 * The "done" criterion, tried as a new user would in a real Node-RED:
 * drop the nodes, point a config node at the simulator, press Test connection,
 * deploy, and get zone messages. Every step goes through the editor's own
 * controls in a real Chromium; the tests build on each other in order, like
 * one user session.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import should from 'should';
import { type DeviceSimulator, sampleZones, startSimulator } from '../../src/simulator';
import { type Browser, cleanUpAll, launchBrowser, type NodeRed, startNodeRed } from './harness';

const zonesType = 'conference-audio-zones';
const ourPaletteTypes: Record<string, string> = {
  'conference-audio-zones': 'room zones',
  'conference-audio-request': 'device request',
  'conference-audio-zone-lookup': 'zone lookup',
};
// A password that could not turn up in a flow by accident.
const devicePassword = 'browser-test-pw-5c1f9e';

function sampleZoneLabels(): string[] {
  return sampleZones().map((zone) => String((zone as { label: unknown }).label));
}

/** The element's text with runs of white space as one space (the palette breaks labels into lines). */
async function textOf(locator: Locator): Promise<string> {
  return ((await locator.textContent()) ?? '').replace(/\s+/g, ' ').trim();
}

async function centerOf(locator: Locator): Promise<{ x: number; y: number }> {
  const box = await locator.boundingBox();
  if (box === null) throw new Error('element has no box on screen');
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

/** Mouse down on `from`, a few moves, mouse up on the point: what jQuery UI drag and Node-RED's wiring expect. */
async function dragByMouse(page: Page, from: { x: number; y: number }, to: { x: number; y: number }) {
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move(from.x + 10, from.y + 5, { steps: 3 });
  await page.mouse.move(to.x, to.y, { steps: 12 });
  await page.mouse.up();
}

/** Drags a palette entry onto the workspace and returns the new node's group in the flow's SVG. */
async function dropFromPalette(page: Page, type: string, at: { dx: number; dy: number }): Promise<Locator> {
  const nodesBefore = await page
    .locator('#red-ui-workspace-chart g.red-ui-flow-node-group')
    .evaluateAll((groups) => groups.map((group) => group.id));
  const paletteEntry = page.locator(`.red-ui-palette-node[data-palette-type="${type}"]`);
  await paletteEntry.scrollIntoViewIfNeeded();
  const chart = await page.locator('#red-ui-workspace-chart').boundingBox();
  if (chart === null) throw new Error('the workspace is not on screen');
  await dragByMouse(page, await centerOf(paletteEntry), { x: chart.x + at.dx, y: chart.y + at.dy });
  const selectorOfNew = nodesBefore.map((id) => `:not([id="${id}"])`).join('');
  const added = page.locator(`#red-ui-workspace-chart g.red-ui-flow-node-group${selectorOfNew}`);
  await added.first().waitFor();
  should(await added.count()).equal(1, `one ${type} node on the workspace after the drop`);
  return added.first();
}

describe('the editor, as a new user sees it (real Node-RED and Chromium)', () => {
  let simulator: DeviceSimulator | undefined;
  let nodeRed: NodeRed | undefined;
  let browser: Browser | undefined;
  let zonesNode: Locator | undefined;
  let nodeRedOutputShown = 0;
  let editorErrorsShown = 0;

  function page(): Page {
    if (browser === undefined) throw new Error('the browser did not start');
    return browser.page;
  }
  function sim(): DeviceSimulator {
    if (simulator === undefined) throw new Error('the simulator did not start');
    return simulator;
  }
  function placedZonesNode(): Locator {
    if (zonesNode === undefined) throw new Error('an earlier test did not place the room zones node');
    return zonesNode;
  }
  async function screenshot(name: string): Promise<void> {
    if (browser === undefined) return;
    console.log(`      screenshot: ${path.relative(process.cwd(), await browser.screenshot(name))}`);
  }

  before(async () => {
    simulator = await startSimulator({ port: 0, passwords: { general: devicePassword } });
    nodeRed = await startNodeRed({
      waitForTypes: ['conference-audio-device', ...Object.keys(ourPaletteTypes), 'debug'],
      // Generous: the machine running this is often busy with other builds.
      startTimeoutMs: 60000,
    });
    browser = await launchBrowser();
    await browser.page.goto(nodeRed.url);
    await browser.page.locator(`.red-ui-palette-node[data-palette-type="${zonesType}"]`).waitFor();
  });

  afterEach(async function () {
    if (this.currentTest?.state !== 'failed') return;
    const title = (this.currentTest.title ?? 'test').replace(/[^a-z0-9]+/gi, '-');
    await screenshot(`failed-${title}`).catch(() => undefined);
    // Only what is new since the last failure, so one broken step does not bury the report.
    const editorErrors = browser?.pageErrors.slice(editorErrorsShown) ?? [];
    editorErrorsShown += editorErrors.length;
    if (editorErrors.length > 0) {
      console.log(`      editor errors:\n        ${editorErrors.join('\n        ')}`);
    }
    const output = nodeRed?.output().slice(nodeRedOutputShown) ?? '';
    nodeRedOutputShown += output.length;
    if (output !== '') console.log(`      Node-RED output:\n${output}`);
  });

  after(async () => {
    await cleanUpAll([
      browser?.close,
      nodeRed?.stop,
      simulator === undefined ? undefined : () => sim().close(),
    ]);
  });

  it('shows room zones, device request and zone lookup in the palette under "conference audio"', async () => {
    const category = page().locator('#red-ui-palette-container-conference_audio');
    await category.waitFor();
    should(await textOf(category.locator('.red-ui-palette-header'))).equal('conference audio');
    for (const [type, label] of Object.entries(ourPaletteTypes)) {
      const entry = category.locator(`.red-ui-palette-node[data-palette-type="${type}"]`);
      should(await textOf(entry.locator('.red-ui-palette-label'))).equal(label);
      should(await entry.isVisible()).be.true(`${label} is visible in the palette`);
    }
    await screenshot('01-palette');
  });

  it('connects a new device config node to the simulator with Test connection', async () => {
    const p = page();
    zonesNode = await dropFromPalette(p, zonesType, { dx: 220, dy: 140 });
    await zonesNode.dblclick();
    await p.locator('#node-input-device').waitFor();

    await p.locator('#node-input-btn-device-add').click();
    await p.locator('#node-config-input-host').waitFor();
    await p.locator('#node-config-input-host').fill('127.0.0.1');
    await p.locator('#node-config-input-port').fill(String(sim().port));
    await p.locator('#node-config-input-password').fill(devicePassword);
    // No fingerprint is known yet: the first contact does not check the certificate.
    await p.locator('#node-config-input-tls').selectOption('insecure');
    await p.locator('#conference-audio-test-connection').click();

    const result = p.locator('#conference-audio-test-result.conference-audio-ok');
    await result.waitFor();
    should(await textOf(result)).match(new RegExp(`\\b${sampleZones().length} zones\\b`));
    await screenshot('02-config-test-connection');
  });

  it('pins the simulator certificate with Read certificate', async () => {
    const p = page();
    await p.locator('#conference-audio-read-certificate').click();
    await p.waitForFunction(
      (expected) =>
        (document.querySelector('#node-config-input-fingerprint') as HTMLInputElement).value === expected,
      sim().fingerprint256,
    );
    should(await p.locator('#node-config-input-tls').inputValue()).equal('pin');
    should(await p.locator('#node-config-input-fingerprint').isVisible()).be.true();

    // The pinned certificate is the one the device presents, so the pinned connection works too.
    // Pressing the button clears the previous outcome at once; the answer sets ok or failed.
    await p.locator('#conference-audio-test-connection').click();
    const result = p.locator('#conference-audio-test-result');
    await p
      .locator(
        '#conference-audio-test-result.conference-audio-ok, #conference-audio-test-result.conference-audio-failed',
      )
      .waitFor();
    await screenshot('03-config-pinned');
    const outcome = await textOf(result);
    should(await result.getAttribute('class')).match(/conference-audio-ok/, outcome);

    await p.locator('#node-config-dialog-ok').click();
    await p.locator('#node-config-input-host').waitFor({ state: 'detached' });
    should(await textOf(p.locator('#node-input-device option:checked'))).equal(`127.0.0.1:${sim().port}`);
  });

  it('explains the room zones node in the help sidebar with Inputs, Outputs and Details', async () => {
    const p = page();
    // The book button in the edit tray's footer opens the help of the node being edited.
    await p.locator('.red-ui-tray-footer-left button:has(i.fa-book)').click();
    const help = p.locator('.red-ui-sidebar-help-stack .red-ui-help').first();
    await help.locator('h3', { hasText: 'Inputs' }).waitFor();
    const headings = (await help.locator('h3').allInnerTexts()).map((text) => text.trim());
    should(headings).containDeep(['Inputs', 'Outputs', 'Details']);
    should(await textOf(p.locator('.red-ui-sidebar-help-stack .red-ui-help-title').first())).equal(
      'room zones',
    );
    await screenshot('04-help');
  });

  it('draws every zone of the device as an inline SVG map with Show zones', async () => {
    const p = page();
    await p.locator('#conference-audio-show-zones').click();
    const map = p.locator('#conference-audio-zone-map svg');
    await map.waitFor();
    const mapText = await textOf(map);
    for (const label of sampleZoneLabels()) should(mapText).containEql(label);
    const box = await map.boundingBox();
    should(box?.width ?? 0).be.above(100, 'the map is big enough to read');
    await map.scrollIntoViewIfNeeded();
    await screenshot('05-zone-map');
    // The tray clips what is wider than the dialog, so every label must lie within the map's container.
    const container = await p.locator('#conference-audio-zone-map').boundingBox();
    if (container === null) throw new Error('the map container is not on screen');
    for (const label of sampleZoneLabels()) {
      const labelBox = await map.locator('text', { hasText: label }).first().boundingBox();
      should(labelBox).not.be.null();
      const { x, width } = labelBox ?? { x: 0, width: 0 };
      should(x >= container.x && x + width <= container.x + container.width).be.true(
        `"${label}" (x ${Math.round(x)}..${Math.round(x + width)}) is inside the dialog's map area ` +
          `(x ${Math.round(container.x)}..${Math.round(container.x + container.width)})`,
      );
    }
    should(await textOf(p.locator('#conference-audio-zone-result'))).match(
      new RegExp(`\\b${sampleZones().length} zones\\b`),
    );
  });

  it('shows no raw message key in the palette, the workspace, the open dialog or the help', async () => {
    // A key like "conference-audio-zones.result.count" on screen means RED._ looked in the wrong catalogue.
    const visibleText = await page().locator('body').innerText();
    const rawKeys = [...new Set(visibleText.match(/\bconference-audio-[a-z-]+\.[A-Za-z][\w.]*/g) ?? [])];
    should(rawKeys).eql([], `untranslated keys on screen: ${rawKeys.join(', ')}`);
  });

  it('sends the zones to a wired debug node after Deploy, and keeps the password out of the flows', async () => {
    const p = page();
    await p.locator('#node-input-onStart').check();
    await p.locator('#node-dialog-ok').click();
    await p.locator('#node-input-device').waitFor({ state: 'detached' });

    const debugNode = await dropFromPalette(p, 'debug', { dx: 520, dy: 140 });
    // Wire by mouse: from the room zones node's output port to the debug node's input port.
    await dragByMouse(
      p,
      await centerOf(placedZonesNode().locator('.red-ui-flow-port-output .red-ui-flow-port')),
      await centerOf(debugNode.locator('.red-ui-flow-port-input .red-ui-flow-port')),
    );
    // A straight wire has no height, which Playwright counts as invisible: wait for it in the DOM.
    await p.locator('#red-ui-workspace-chart g.red-ui-flow-link').first().waitFor({ state: 'attached' });
    await screenshot('06-wired');

    await p.locator('#red-ui-header-button-deploy').click();
    await p.locator('.red-ui-notification', { hasText: 'Successfully deployed' }).waitFor();

    await p.locator('#red-ui-tab-debug-link-button').click();
    const message = p.locator('.red-ui-debug-msg').first();
    await message.waitFor();
    // The payload is the array of zones, shown folded: a user opens it, then each zone in it.
    const handles = message.locator('.red-ui-debug-msg-object-handle');
    await handles.first().click();
    await handles.nth(sampleZones().length).waitFor();
    // Last zone first: opening a zone adds handles after it, so the earlier ones keep their place.
    for (let index = sampleZones().length; index >= 1; index--) await handles.nth(index).click();
    const messageText = await textOf(message);
    for (const label of sampleZoneLabels()) should(messageText).containEql(label);
    await screenshot('07-debug-messages');

    if (nodeRed === undefined) throw new Error('Node-RED did not start');
    const flows: unknown = await nodeRed.adminJson('GET', '/flows');
    should(flows).be.an.Array();
    const deployed = flows as Array<{ id?: unknown; type?: unknown; wires?: unknown; host?: unknown }>;
    const deployedZones = deployed.find((node) => node.type === zonesType);
    should(deployedZones?.wires).eql([[await debugNode.getAttribute('id')]], 'the wire drawn by mouse');
    should(deployed.find((node) => node.type === 'conference-audio-device')?.host).equal('127.0.0.1');
    should(JSON.stringify(flows)).not.containEql(devicePassword);
    const stored = fs.readFileSync(path.join(nodeRed.userDir, 'flows.json'), 'utf8');
    should(stored).not.containEql(devicePassword);
  });

  it('speaks German in the palette and on the workspace when the editor language is German', async () => {
    const p = page();
    // What Menu > Settings > View > Language stores; the editor reads it at start.
    await p.evaluate(() => localStorage.setItem('editor-language', 'de'));
    await p.reload();
    const germanLabel = (type: string): string => {
      const file = path.join(__dirname, '..', '..', 'nodes', 'locales', 'de', `${type}.json`);
      return JSON.parse(fs.readFileSync(file, 'utf8'))[type].paletteLabel;
    };
    for (const type of Object.keys(ourPaletteTypes)) {
      const entry = p.locator(`.red-ui-palette-node[data-palette-type="${type}"]`);
      await entry.waitFor();
      should(await textOf(entry)).equal(germanLabel(type));
    }
    const deployedZonesNode = p.locator('#red-ui-workspace-chart g.red-ui-flow-node-group', {
      hasText: germanLabel(zonesType),
    });
    await deployedZonesNode.first().waitFor();
    await screenshot('08-german');
  });

  it('runs the whole session without an uncaught script error in the editor', () => {
    const scriptErrors = browser?.pageErrors.filter((entry) => entry.startsWith('pageerror:')) ?? [];
    should(scriptErrors).eql([]);
  });
});
