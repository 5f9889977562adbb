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
import { deviceSettingsProblems } from '../../src/api/settings';
import { envReferenceName } from '../../src/api/settings-rules';
import { type DeviceSimulator, sampleZones, startSimulator } from '../../src/simulator';
import { catalogueFile, helpFile, nodeTypes, paletteTypes } from '../support/node-types';
import { settingCases } from '../support/settings-table';
import {
  type Browser,
  cleanUpAll,
  clearTestScreenshots,
  describeProblem,
  launchBrowser,
  type NodeRed,
  projectRoot,
  startNodeRed,
} from './harness';

const deviceType = 'conference-audio-device';
const zonesType = 'conference-audio-zones';
/** Each palette type of package.json's node-red.nodes with its English palette label. */
const ourPaletteTypes: Record<string, string> = Object.fromEntries(
  paletteTypes.map((type) => [type, message('en-US', type, 'paletteLabel')]),
);
const ourTypes = nodeTypes;
const packageName: string = JSON.parse(fs.readFileSync(path.join(projectRoot, 'package.json'), 'utf8')).name;
// Passwords that could not turn up in a flow, a message or on screen by accident.
const devicePassword = 'browser-test-pw-5c1f9e';
const wrongPassword = 'wrong-pw-7d2e4a';
/** settings.js's conferenceAudioZonesMinInterval for this session, in seconds. */
const minIntervalSetting = 2;

function sampleZoneLabels(): string[] {
  return sampleZones().map((zone) => String((zone as { label: unknown }).label));
}

/** A node type's entries in its editor catalogue (`src/nodes/<type>/locales/<language>.json`). */
function catalogue(language: string, type: string): Record<string, unknown> {
  const file = catalogueFile(type, language);
  return JSON.parse(fs.readFileSync(file, 'utf8'))[type];
}

/** The package's own texts in a language (src/nodes/locales/<language>.json): the palette category's label. */
function packageTexts(language: string): { palette: { label: { conference_audio: string } } } {
  return JSON.parse(
    fs.readFileSync(path.join(projectRoot, 'src', 'nodes', 'locales', `${language}.json`), 'utf8'),
  );
}

/** One string of a catalogue, by dotted key (`label.device`). */
function message(language: string, type: string, key: string): string {
  let value: unknown = catalogue(language, type);
  for (const part of key.split('.')) value = (value as Record<string, unknown>)[part];
  if (typeof value !== 'string') throw new Error(`${language}/${type}.json has no string ${key}`);
  return value;
}

/** The section headings of a node type's help page, as written in `src/nodes/<type>/help/<language>.html`. */
function helpHeadings(language: string, type: string): string[] {
  const html = fs.readFileSync(helpFile(type, language), 'utf8');
  return [...html.matchAll(/<h3>([^<]*)<\/h3>/g)].map((match) => match[1].trim());
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

/** The status text under a node on the workspace. */
async function statusOf(node: Locator): Promise<string> {
  return textOf(node.locator('.red-ui-flow-node-status-label'));
}

/** The zones node's "read" status as the editor translates it, for 1 and for 3 zones. */
async function readStatusTexts(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const key =
      '@conference-audio/node-red-local-api/conference-audio-zones:conference-audio-zones.status.read';
    const red = (window as unknown as { RED: { _(key: string, options: object): string } }).RED;
    return [1, 3].map((count) => red._(key, { count, time: '14:02:07' }));
  });
}

/** Labels of an open dialog (the config node's by default) whose text runs onto a second line. */
async function wrappedLabels(page: Page, form = '#node-config-dialog-edit-form'): Promise<string[]> {
  return page.locator(`${form} .form-row > label`).evaluateAll((labels) =>
    labels
      .filter(
        (label) => (label as HTMLElement).offsetParent !== null && (label.textContent ?? '').trim() !== '',
      )
      .filter((label) => {
        const lineHeight = Number.parseFloat(getComputedStyle(label).lineHeight) || 20;
        return label.getBoundingClientRect().height > lineHeight * 1.5;
      })
      .map((label) => (label.textContent ?? '').trim()),
  );
}

/** Fields of the open config dialog that reach past its right edge. */
async function fieldsPastTheDialog(page: Page): Promise<string[]> {
  return page.locator('#node-config-dialog-edit-form').evaluate((form) => {
    const right = form.getBoundingClientRect().right;
    return [...form.querySelectorAll('input, select, textarea')]
      .filter((field) => (field as HTMLElement).offsetParent !== null)
      .filter((field) => field.getBoundingClientRect().right > right + 1)
      .map((field) => field.id);
  });
}

interface LoadedImage {
  status: number;
  contentType: string;
  body: string;
  /** 0 when the browser could not draw it as an image. */
  width: number;
}

/** Loads an image URL the way the editor does (same origin, same cache), and draws it. */
async function loadImage(page: Page, url: string): Promise<LoadedImage> {
  return page.evaluate(async (src) => {
    const response = await fetch(src);
    const body = await response.text();
    const image = new Image();
    image.src = src;
    const width = await image.decode().then(
      () => image.naturalWidth,
      () => 0,
    );
    return { status: response.status, contentType: response.headers.get('content-type') ?? '', body, width };
  }, url);
}

/** The image URL of an editor icon element: a CSS background in the palette and the help, an SVG image on the workspace. */
async function iconUrl(icon: Locator): Promise<string> {
  return icon.evaluate((element) => {
    const href =
      element.getAttribute('href') ?? element.getAttributeNS('http://www.w3.org/1999/xlink', 'href');
    if (href !== null) return new URL(href, document.baseURI).href;
    const match = /url\("?([^")]+)"?\)/.exec(getComputedStyle(element).backgroundImage);
    return match === null ? '' : new URL(match[1], document.baseURI).href;
  });
}

async function shouldShowOurIcon(page: Page, icon: Locator, type: string): Promise<void> {
  const url = await iconUrl(icon);
  should(url).endWith(`/${type}.svg`, `the ${type} icon is the package's own, not a Node-RED default`);
  const loaded = await loadImage(page, url);
  should(loaded.status).equal(200, `${url} loads`);
  should(loaded.contentType).match(/^image\/svg\+xml/);
  should(loaded.body).equal(fs.readFileSync(path.join(projectRoot, 'icons', `${type}.svg`), 'utf8'));
  should(loaded.width).be.above(0, `${url} draws as an image`);
}

describe('the editor, as a new user sees it (real Node-RED and Chromium)', () => {
  let simulator: DeviceSimulator | undefined;
  let nodeRed: NodeRed | undefined;
  let browser: Browser | undefined;
  let zonesNode: Locator | undefined;
  let nodeRedOutputShown = 0;
  let problemsShown = 0;

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

  /** Opens the help of each of our node types from the help sidebar's list of topics, as a user would. */
  async function shouldShowHelpOfEveryType(language: string): Promise<void> {
    const p = page();
    await p.locator('#red-ui-tab-help-link-button').click();
    const toc = p.locator('.red-ui-sidebar-help-toc');
    if (!(await toc.isVisible())) await p.locator('#red-ui-sidebar-help-show-toc').click();
    // The package's entry in "Node help" lists its node types; a click on its name unfolds it.
    const packageEntry = toc.locator('.red-ui-treeList-label', {
      has: p.locator('.red-ui-treeList-label-text').getByText(packageName, { exact: true }),
    });
    const unfolded = () =>
      packageEntry.evaluate((label) => label.parentElement?.classList.contains('expanded'));
    if (!(await unfolded())) await packageEntry.click();
    for (const type of ourTypes) {
      const label = message(language, type, 'paletteLabel');
      const entry = toc.locator('.red-ui-node-list-item').filter({
        has: p.locator('.red-ui-node-label').getByText(label, { exact: true }),
      });
      await entry.scrollIntoViewIfNeeded();
      await entry.click();
      const title = p.locator('.red-ui-sidebar-help-stack .red-ui-help-title').first();
      await p.waitForFunction(
        ({ expected }) =>
          document.querySelector('.red-ui-sidebar-help-stack .red-ui-help-title')?.textContent?.trim() ===
          expected,
        { expected: label },
      );
      should(await textOf(title)).equal(label);
      const help = p.locator('.red-ui-sidebar-help-stack .red-ui-help').first();
      const headings = (await help.locator('h3').allInnerTexts()).map((text) => text.trim());
      should(headings).eql(helpHeadings(language, type), `the ${language} help of ${type}`);
    }
  }

  before(async () => {
    clearTestScreenshots();
    simulator = await startSimulator({ port: 0, passwords: { general: devicePassword } });
    nodeRed = await startNodeRed({
      waitForTypes: [...ourTypes, 'debug'],
      // Generous: the machine running this is often busy with other builds.
      startTimeoutMs: 60000,
      // Below the package's 5 s default, as a site with a faster poll would set it in settings.js.
      settings: { conferenceAudioZonesMinInterval: minIntervalSetting },
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
    const problems = browser?.problems.slice(problemsShown) ?? [];
    problemsShown += problems.length;
    if (problems.length > 0) {
      console.log(`      editor problems:\n        ${problems.map(describeProblem).join('\n        ')}`);
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

  it('shows every node of the package in the palette under "conference audio"', async () => {
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

  it("gives each palette entry the package's own icon, served by Node-RED", async () => {
    for (const type of Object.keys(ourPaletteTypes)) {
      const icon = page().locator(`.red-ui-palette-node[data-palette-type="${type}"] .red-ui-palette-icon`);
      await shouldShowOurIcon(page(), icon, type);
    }
  });

  it("draws a room zones node dropped on the workspace with the package's icon", async () => {
    zonesNode = await dropFromPalette(page(), zonesType, { dx: 220, dy: 140 });
    await shouldShowOurIcon(page(), zonesNode.locator('image.red-ui-flow-node-icon'), zonesType);
  });

  it('refuses a wrong password in Test connection, naming AUTH_FAILED and the wrong password', async () => {
    const p = page();
    await placedZonesNode().dblclick();
    await p.locator('#node-input-device').waitFor();
    await p.locator('#node-input-btn-device-add').click();
    await p.locator('#node-config-input-host').waitFor();
    await p.locator('#node-config-input-host').fill('127.0.0.1');
    await p.locator('#node-config-input-port').fill(String(sim().port));
    await p.locator('#node-config-input-password').fill(wrongPassword);
    // No fingerprint is known yet: the first contact does not check the certificate.
    await p.locator('#node-config-input-tls').selectOption('insecure');
    await p.locator('#conference-audio-test-connection').click();

    const result = p.locator('#conference-audio-test-result.conference-audio-failed');
    await result.waitFor();
    const text = await textOf(result);
    should(text).startWith('Failed (AUTH_FAILED): ');
    should(text).match(/wrong password for account 'general'/);
    should(text).not.containEql(wrongPassword);
    await screenshot('02-config-wrong-password');
  });

  it('connects the new device config node to the simulator with Test connection', async () => {
    const p = page();
    await p.locator('#node-config-input-password').fill(devicePassword);
    await p.locator('#conference-audio-test-connection').click();
    const result = p.locator('#conference-audio-test-result.conference-audio-ok');
    await result.waitFor();
    should(await textOf(result)).match(new RegExp(`\\b${sampleZones().length} zones\\b`));
    await screenshot('03-config-test-connection');
  });

  it('shows that Test connection is working while it waits for the device', async () => {
    const p = page();
    let answer: () => void = () => undefined;
    const answered = new Promise<void>((resolve) => {
      answer = resolve;
    });
    // The device's answer held back until the busy button has been seen.
    await p.route('**/conference-audio/test-connection', async (route) => {
      await answered;
      await route.continue();
    });
    try {
      const button = p.locator('#conference-audio-test-connection');
      await button.click();
      await p.locator('#conference-audio-test-connection[aria-busy="true"]').waitFor();
      should(await button.isDisabled()).be.true();
      should(await button.locator('i').getAttribute('class')).match(/\bfa-spin\b/);
      should(await textOf(p.locator('#conference-audio-test-result'))).equal(
        message('en-US', deviceType, 'result.testing'),
      );
      answer();
      await p.locator('#conference-audio-test-result.conference-audio-ok').waitFor();
      should(await button.isEnabled()).be.true();
      should(await button.getAttribute('aria-busy')).be.null();
      should(await button.locator('i').getAttribute('class')).match(/\bfa-plug\b/);
    } finally {
      answer();
      await p.unroute('**/conference-audio/test-connection');
    }
  });

  it("turns the Advanced section's caret down when it opens and back when it closes", async () => {
    const p = page();
    const toggle = p.locator('#conference-audio-advanced-toggle');
    const caret = toggle.locator('i');
    should(await caret.getAttribute('class')).match(/\bfa-caret-right\b/);
    should(await p.locator('#node-config-input-vendor').isVisible()).be.false();
    await toggle.click();
    await p.locator('#node-config-input-vendor').waitFor();
    should(await caret.getAttribute('class'))
      .match(/\bfa-caret-down\b/)
      .and.not.match(/\bfa-caret-right\b/);
    should(await toggle.getAttribute('aria-expanded')).equal('true');
    await toggle.click();
    await p.locator('#node-config-input-vendor').waitFor({ state: 'hidden' });
    should(await caret.getAttribute('class'))
      .match(/\bfa-caret-right\b/)
      .and.not.match(/\bfa-caret-down\b/);
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
    await screenshot('04-config-pinned');
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
    await screenshot('05-help');
  });

  it('shows the help of each node type from the help sidebar', async () => {
    await shouldShowHelpOfEveryType('en-US');
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
    await screenshot('06-zone-map');
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

  it('writes "No zones configured" beside the y axis of an empty map, not across it', async () => {
    const p = page();
    sim().setZones([]);
    try {
      await p.locator('#conference-audio-show-zones').click();
      const note = p.locator('#conference-audio-zone-map svg text', { hasText: 'No zones configured' });
      await note.waitFor();
      should(await textOf(p.locator('#conference-audio-zone-result'))).equal('0 zones');
      const yAxis = p.locator('#conference-audio-zone-map svg .axes line').nth(1);
      const [noteBox, axisBox] = [await note.boundingBox(), await yAxis.boundingBox()];
      if (noteBox === null || axisBox === null) throw new Error('the note or the axis is not on screen');
      const axisX = axisBox.x + axisBox.width / 2;
      should(noteBox.x > axisX || noteBox.x + noteBox.width < axisX).be.true(
        `the note (x ${Math.round(noteBox.x)}..${Math.round(noteBox.x + noteBox.width)}) crosses the axis at ${Math.round(axisX)}`,
      );
      await screenshot('06b-empty-map');
    } finally {
      sim().setZones(sampleZones());
    }
    await p.locator('#conference-audio-show-zones').click();
    await p.locator('#conference-audio-zone-map svg text', { hasText: sampleZoneLabels()[0] }).waitFor();
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
    await screenshot('07-wired');

    await p.locator('#red-ui-header-button-deploy').click();
    await p.locator('.red-ui-notification', { hasText: 'Successfully deployed' }).waitFor();

    await p.locator('#red-ui-tab-debug-link-button').click();
    const debugMessage = p.locator('.red-ui-debug-msg').first();
    await debugMessage.waitFor();
    // The payload is the array of zones, shown folded: a user opens it, then each zone in it.
    const handles = debugMessage.locator('.red-ui-debug-msg-object-handle');
    await handles.first().click();
    await handles.nth(sampleZones().length).waitFor();
    // Last zone first: opening a zone adds handles after it, so the earlier ones keep their place.
    for (let index = sampleZones().length; index >= 1; index--) await handles.nth(index).click();
    const messageText = await textOf(debugMessage);
    for (const label of sampleZoneLabels()) should(messageText).containEql(label);
    await screenshot('08-debug-messages');
    await p.waitForFunction(() =>
      /^3 zones · \d\d:\d\d:\d\d$/.test(
        document.querySelector('.red-ui-flow-node-status-label')?.textContent?.trim() ?? '',
      ),
    );
    should(await statusOf(placedZonesNode())).match(/^3 zones · \d\d:\d\d:\d\d$/);
    should(await readStatusTexts(p)).eql(['1 zone · 14:02:07', '3 zones · 14:02:07']);

    if (nodeRed === undefined) throw new Error('Node-RED did not start');
    const flows: unknown = await nodeRed.adminJson('GET', '/flows');
    should(flows).be.an.Array();
    const deployed = flows as Array<{ id?: unknown; type?: unknown; wires?: unknown; host?: unknown }>;
    const deployedZones = deployed.find((node) => node.type === zonesType);
    should(deployedZones?.wires).eql([[await debugNode.getAttribute('id')]], 'the wire drawn by mouse');
    should(deployed.find((node) => node.type === deviceType)?.host).equal('127.0.0.1');
    should(JSON.stringify(flows)).not.containEql(devicePassword);
    const stored = fs.readFileSync(path.join(nodeRed.userDir, 'flows.json'), 'utf8');
    should(stored).not.containEql(devicePassword);
  });

  it('lists the device under conference-audio-device in the Configuration nodes sidebar, used by one node', async () => {
    const p = page();
    await p.locator('#red-ui-tab-config-link-button').click();
    const sidebar = p.locator('#red-ui-sidebar-node-config');
    const typeHeading = sidebar.locator('li.red-ui-palette-node-config-type', { hasText: deviceType });
    await typeHeading.waitFor();
    should(await textOf(typeHeading)).equal(deviceType);
    // The config node's entry follows its type's heading; its badge counts the nodes that use it.
    const entry = typeHeading.locator('xpath=following-sibling::li[1]');
    should(await textOf(entry.locator('.red-ui-palette-label'))).equal(`127.0.0.1:${sim().port}`);
    should(await textOf(entry.locator('.red-ui-palette-icon-container'))).equal('1');
    await screenshot('09-config-sidebar');
  });

  it('speaks German in the palette and on the workspace when the editor language is German', async () => {
    const p = page();
    // What Menu > Settings > View > Language stores; the editor reads it at start.
    await p.evaluate(() => localStorage.setItem('editor-language', 'de'));
    await p.reload();
    for (const type of Object.keys(ourPaletteTypes)) {
      const entry = p.locator(`.red-ui-palette-node[data-palette-type="${type}"]`);
      await entry.waitFor();
      should(await textOf(entry)).equal(message('de', type, 'paletteLabel'));
    }
    zonesNode = p.locator('#red-ui-workspace-chart g.red-ui-flow-node-group', {
      hasText: message('de', zonesType, 'paletteLabel'),
    });
    await zonesNode.first().waitFor();
    zonesNode = zonesNode.first();
    // Statuses are text in the runtime's language (a Status node reads them too), whatever the editor's.
    await p.waitForFunction(() =>
      /^3 zones · /.test(document.querySelector('.red-ui-flow-node-status-label')?.textContent?.trim() ?? ''),
    );
    should(await statusOf(zonesNode)).match(/^3 zones · \d\d:\d\d:\d\d$/);
    // The German catalogue still has the plural forms a German runtime would use.
    should(await readStatusTexts(p)).eql(['1 Zone · 14:02:07', '3 Zonen · 14:02:07']);
    should(
      await textOf(p.locator('#red-ui-palette-container-conference_audio .red-ui-palette-header')),
    ).equal(packageTexts('de').palette.label.conference_audio);
    await screenshot('10-german');
  });

  it('shows the German help of each node type', async () => {
    await shouldShowHelpOfEveryType('de');
  });

  it('speaks German in the device dialog: a wrong password, and the zone count ("3 Zonen")', async () => {
    const p = page();
    await placedZonesNode().dblclick();
    await p.locator('#node-input-device').waitFor();
    should(await textOf(p.locator('label[for="node-input-device"]'))).equal(
      message('de', zonesType, 'label.device'),
    );
    should(await wrappedLabels(p, '#dialog-form')).eql(
      [],
      'German labels of the room zones dialog that wrap',
    );
    // The pencil beside the device opens its config node.
    await p.locator('#node-input-btn-device-edit').click();
    await p.locator('#node-config-input-password').waitFor();
    should(await textOf(p.locator('label[for="node-config-input-password"]'))).equal(
      message('de', deviceType, 'label.password'),
    );
    should(await textOf(p.locator('#conference-audio-test-connection'))).equal(
      message('de', deviceType, 'label.testConnection'),
    );
    // Every label on one line, "Fingerabdruck" (the pinned certificate's row) and the advanced ones too.
    should(await p.locator('#node-config-input-fingerprint').isVisible()).be.true();
    await p.locator('#conference-audio-advanced-toggle').click();
    await p.locator('#node-config-input-vendor').waitFor();
    should(await wrappedLabels(p)).eql([], 'German labels that wrap');
    should(await fieldsPastTheDialog(p)).eql([], 'fields that reach past the dialog');
    await screenshot('11a-german-device-dialog');
    await p.locator('#node-config-input-password').fill(wrongPassword);
    await p.locator('#conference-audio-test-connection').click();
    const result = p.locator('#conference-audio-test-result.conference-audio-failed');
    await result.waitFor();
    const text = await textOf(result);
    should(text).startWith(
      `Fehlgeschlagen (AUTH_FAILED): ${message('de', deviceType, 'codes.AUTH_FAILED')}: `,
    );
    should(text).not.containEql(wrongPassword);
    await screenshot('11-german-wrong-password');

    await p.locator('#node-config-input-password').fill(devicePassword);
    await p.locator('#conference-audio-test-connection').click();
    const connected = p.locator('#conference-audio-test-result.conference-audio-ok');
    await connected.waitFor();
    should(await textOf(connected)).equal(`Verbunden: ${sampleZones().length} Zonen`);

    // Leave both dialogs without a change, as a user who only tried would.
    await p.locator('#node-config-dialog-cancel').click();
    await p.locator('#node-config-input-password').waitFor({ state: 'detached' });
    await p.locator('#node-dialog-cancel').click();
    await p.locator('#node-input-device').waitFor({ state: 'detached' });
  });

  it("draws the room map's words in German with Show zones", async () => {
    const p = page();
    await placedZonesNode().dblclick();
    await p.locator('#conference-audio-show-zones').click();
    const east = message('de', zonesType, 'map.east');
    await p.locator('#conference-audio-zone-map svg text', { hasText: east }).waitFor();
    should(await textOf(p.locator('#conference-audio-zone-map svg'))).containEql(
      message('de', zonesType, 'map.north'),
    );
    await p.locator('#node-dialog-cancel').click();
    await p.locator('#node-input-device').waitFor({ state: 'detached' });
  });

  it('gives a device config node imported without client id, vendor word or timeout the defaults, and counts it valid', async () => {
    const imported = await page().evaluate(() => {
      const red = (
        window as unknown as { RED: Record<string, Record<string, (...args: unknown[]) => unknown>> }
      ).RED;
      red.view.importNodes(
        [
          {
            id: 'imported-device',
            type: 'conference-audio-device',
            name: 'Imported device',
            host: '192.0.2.10',
            port: 443,
            account: 'general',
            tls: 'pin',
            fingerprint: '',
            ca: '',
          },
        ],
        { generateIds: false },
      );
      const node = red.nodes.node('imported-device') as Record<string, unknown> | undefined;
      return (
        node && { clientId: node.clientId, vendor: node.vendor, timeout: node.timeout, valid: node.valid }
      );
    });
    should(imported).eql({ clientId: 'node-red', vendor: 'Vendor', timeout: 10, valid: true });
  });

  it('accepts a polling interval below 5 s in the room zones dialog when settings.js allows it', async () => {
    const p = page();
    await placedZonesNode().dblclick();
    const interval = p.locator('#node-input-interval');
    await interval.waitFor();
    should(await textOf(p.locator('#conference-audio-interval-hint'))).match(
      new RegExp(`\\b${minIntervalSetting}\\b`),
    );
    const flagged = async (value: string) => {
      await interval.fill(value);
      await interval.dispatchEvent('change');
      return /\binput-error\b/.test((await interval.getAttribute('class')) ?? '');
    };
    should(await flagged('3')).be.false('3 s is allowed by the setting of 2 s');
    should(await flagged(String(minIntervalSetting))).be.false('the setting itself is allowed');
    should(await flagged('1')).be.true('1 s is below the setting');
    should(await flagged('0')).be.false('0 turns polling off');
    should(await flagged('2147483')).be.false('the longest interval timers honour (about 24.8 days)');
    should(await flagged('2147484')).be.true('a longer interval would overflow the timer');
    await p.locator('#node-dialog-cancel').click();
    await interval.waitFor({ state: 'detached' });
  });

  it("validates the device dialog with the runtime's rules: an environment variable reference passes, an IPv6 zone index is refused with a reason", async () => {
    // Node-RED's own validation of a node (what marks it invalid on the workspace), one row at a time.
    const verdicts = await page().evaluate((rows) => {
      const red = (
        window as unknown as {
          RED: {
            nodes: { getType(type: string): unknown };
            editor: { validateNode(node: Record<string, unknown>): boolean };
          };
        }
      ).RED;
      const definition = red.nodes.getType('conference-audio-device');
      return rows.map((row) => {
        const node: Record<string, unknown> = {
          id: 'settings-table',
          type: 'conference-audio-device',
          _def: definition,
          name: '',
          host: 'device.local',
          port: 443,
          account: 'general',
          clientId: 'node-red',
          vendor: 'Vendor',
          tls: row.tlsMode ?? 'pin',
          fingerprint: '',
          ca: '',
          timeout: 10,
          [row.property]: row.value,
        };
        const valid = red.editor.validateNode(node);
        return valid ? true : (node.validationErrors as string[]).join('; ');
      });
    }, settingCases);
    settingCases.forEach((row, index) => {
      const verdict = verdicts[index];
      should(verdict === true).equal(row.valid, `${row.property} ${JSON.stringify(row.value)}: ${verdict}`);
      const runtimeProblems = deviceSettingsProblems({
        host: 'device.local',
        tls: row.tlsMode,
        [row.property]: row.value,
      });
      if (envReferenceName(row.value) === undefined) {
        should(runtimeProblems.some((problem) => problem.property === row.property)).equal(!row.valid);
      }
    });
    const zoneIndex = verdicts[settingCases.findIndex((row) => row.value === 'fe80::1%eth0')];
    should(zoneIndex)
      .be.a.String()
      .and.match(/%eth0/)
      .and.not.match(/errors\./);
  });

  it('fills the dialog of every palette node type with the choices of its definition', async () => {
    const p = page();
    /** Opens a new node of `type` in its edit dialog; the node leaves the flow when the dialog closes. */
    const openDialog = async (type: string, properties: Record<string, unknown> = {}) => {
      await p.evaluate(
        ({ type, properties }) => {
          const red = (
            window as unknown as { RED: Record<string, Record<string, (...args: unknown[]) => unknown>> }
          ).RED;
          red.view.importNodes([{ id: 'dialog-probe', type, z: red.workspaces.active(), ...properties }], {
            generateIds: false,
          });
          red.editor.edit(red.nodes.node('dialog-probe'));
        },
        { type, properties },
      );
      await p.locator('#node-dialog-cancel').waitFor();
    };
    const closeDialog = async () => {
      await p.locator('#node-dialog-cancel').click();
      await p.locator('#node-dialog-cancel').waitFor({ state: 'detached' });
      await p.evaluate(() => {
        const red = (
          window as unknown as { RED: Record<string, Record<string, (...args: unknown[]) => unknown>> }
        ).RED;
        red.nodes.remove('dialog-probe');
        red.view.redraw(true);
      });
    };
    const optionValues = (selector: string) =>
      p
        .locator(selector)
        .evaluateAll((options) => options.map((option) => (option as HTMLOptionElement).value));

    await openDialog('conference-audio-request', { method: 'PATCH', path: '/api/v1/audio' });
    should(await optionValues('#node-input-method option')).eql(['GET', 'POST', 'PATCH', 'PUT', 'DELETE']);
    should(await p.locator('#node-input-method').inputValue()).equal('PATCH');
    await p.locator('#node-input-path').fill('/api/v1/%2e%2e/auth');
    await p.locator('#node-input-path').dispatchEvent('change');
    should(await p.locator('#node-input-path').getAttribute('class')).match(/\binput-error\b/);
    await closeDialog();

    await openDialog('conference-audio-events', { events: ['deviceMetrics'], rate: 5 });
    for (const [event, checked] of [
      ['soundLocation', false],
      ['deviceMetrics', true],
      ['changes', false],
    ] as const) {
      should(await p.locator(`#conference-audio-event-${event}`).isChecked()).equal(checked, event);
    }
    should(await p.locator('#conference-audio-rate-row').isVisible()).be.false();
    await closeDialog();

    await openDialog('conference-audio-active-zone', { hold: 1000, release: 2000 });
    should(await optionValues('#conference-audio-zone-types option')).eql(['Switching', 'any']);
    should(await p.locator('#node-input-release').inputValue()).equal('2000');
    // Without `timing`: the node's own hold and release, shown until the device's are chosen.
    should(await optionValues('#node-input-timing option')).eql(['node', 'device']);
    should(await p.locator('#node-input-timing').inputValue()).equal('node');
    should(await p.locator('#node-input-hold').isVisible()).be.true();
    await p.locator('#node-input-timing').selectOption('device');
    should(await p.locator('#node-input-hold').isVisible()).be.false();
    should(await p.locator('#node-input-release').isVisible()).be.false();
    await closeDialog();

    await openDialog('conference-audio-zones', { output: 'changes' });
    should(await optionValues('#node-input-output option')).eql(['all', 'each', 'changes', 'map']);
    should(await p.locator('#node-input-output').inputValue()).equal('changes');
    await closeDialog();
  });

  it('runs the whole session without a script error, console error or failed request in the editor', () => {
    // Every problem, not only those from this package: the session uses the editor's core parts too, and
    // a clean run is stable, so anything at all that the editor reports is worth a look.
    const problems = browser?.problems.map(describeProblem) ?? ['the browser did not start'];
    should(problems).eql([]);
  });
});
