/**
 * `npm start` on a machine without internet: the demo's editor, tried in a real Chromium, asks no host but
 * this one (no palette catalogue, no update or telemetry check, no font or script from a CDN), and the
 * demo starts without Node-RED's credential warnings. Every request of the browser is recorded; one to
 * another host is aborted and fails the test.
 */
import fs from 'node:fs';
import path from 'node:path';
import should from 'should';
import { type DemoProcess, startDemo } from '../support/demo-process';
import { type Browser, cleanUpAll, describeProblem, launchBrowser } from './harness';
import { type RequestRecorder, recordRequests } from './network';

describe('npm start, offline (the real demo in Chromium)', () => {
  let demo: DemoProcess | undefined;
  let browser: Browser | undefined;
  let recorder: RequestRecorder | undefined;

  function started(): { demo: DemoProcess; browser: Browser; recorder: RequestRecorder } {
    if (demo === undefined || browser === undefined || recorder === undefined)
      throw new Error('the demo or the browser did not start');
    return { demo, browser, recorder };
  }

  before(async () => {
    demo = await startDemo();
    browser = await launchBrowser();
    recorder = await recordRequests(browser.context);
  });

  afterEach(function () {
    if (this.currentTest?.state !== 'failed') return;
    console.log(`      demo output:\n${demo?.output() ?? ''}`);
    const problems = browser?.problems.map(describeProblem) ?? [];
    if (problems.length > 0) console.log(`      editor problems:\n        ${problems.join('\n        ')}`);
  });

  after(async () => {
    await cleanUpAll([recorder?.stop, browser?.close, () => demo?.stop() ?? Promise.resolve()]);
  });

  it('starts Node-RED in a user directory of its own, with a credential secret and no credential warning', () => {
    const output = started().demo.output();
    should(output).containEql(`User directory : ${started().demo.userDir}`);
    should(fs.existsSync(path.join(started().demo.userDir, '.demo-lock'))).be.true('the run holds its lock');
    should(output).not.match(/credentialSecret|system-generated key/, 'the credential-secret warning');
    should(output).not.match(/Encrypted credentials not found|Error loading credentials/);
  });

  it('tells the editor that telemetry and update notifications are off', async () => {
    const response = await fetch(`${started().demo.editorUrl}/settings`, {
      headers: { accept: 'application/json' },
    });
    const settings = (await response.json()) as { telemetryEnabled?: unknown };
    should(settings.telemetryEnabled).equal(false);
  });

  it('loads the editor with every example flow and opens the palette manager without asking another host', async () => {
    const { page } = started().browser;
    await page.goto(started().demo.editorUrl);
    await page.locator('.red-ui-palette-node[data-palette-type="conference-audio-zones"]').waitFor();
    await page.locator('#red-ui-workspace-chart g.red-ui-flow-node-group').first().waitFor();
    // Manage palette > Install is where the editor fetches the public catalogue unless told not to.
    await page.locator('#red-ui-header-button-sidemenu').click();
    await page.locator('#menu-item-edit-palette').click();
    await page.locator('#red-ui-palette-editor').waitFor();
    await page.locator('.red-ui-tab a', { hasText: 'Install' }).click();
    // The shade covers the list while the catalogues load; with none to load it goes at once.
    await page.locator('#red-ui-palette-module-install-shade').waitFor({ state: 'hidden' });
    await page.locator('#node-dialog-ok').click();
    await page.locator('#red-ui-palette-editor').waitFor({ state: 'detached' });
    await page.locator('#red-ui-tab-help-link-button').click();
    await page.locator('#red-ui-tab-debug-link-button').click();

    const { requests, nonLocal } = started().recorder;
    should(requests.length).be.above(20, 'the editor loads its scripts, styles, fonts and nodes');
    should(nonLocal()).eql([], 'requests to other hosts than this machine');
  });

  it('opens every page the demo prints on its Node-RED (the zones map, a dashboard) without asking another host', async () => {
    const { demo, browser, recorder } = started();
    const editor = new URL(demo.editorUrl);
    // Each address the demo prints on its Node-RED's host and port, but the editor (opened above).
    const pages = [...new Set(demo.output().match(/http:\/\/[\w.:[\]-]+\/[^\s)]*/g) ?? [])].filter(
      (address) => {
        const url = new URL(address);
        return url.host === editor.host && url.pathname !== '/';
      },
    );
    should(pages.map((address) => new URL(address).pathname)).containEql('/zones');
    const before = recorder.requests.length;
    for (const address of pages) {
      const response = await browser.page.goto(address);
      should(response?.status()).equal(200, address);
      // Fonts and scripts a page asks for after its load event come within its network going idle.
      await browser.page.waitForLoadState('networkidle');
    }
    should(recorder.requests.length).be.above(before);
    should(recorder.nonLocal()).eql([], 'requests to other hosts than this machine');
  });

  it('notices and aborts a request to another host (the check above can fail)', async () => {
    const { page } = started().browser;
    const outcome = await page.evaluate(() =>
      fetch('https://catalogue.nodered.org/catalogue.json').then(
        () => 'answered',
        () => 'refused',
      ),
    );
    should(outcome).equal('refused');
    should(started().recorder.nonLocal()).eql(['https://catalogue.nodered.org/catalogue.json']);
  });

  it('stops on Ctrl-C and frees its user directory for the next run', async () => {
    const { demo } = started();
    await demo.stop({ keepUserDir: true });
    should(demo.output()).match(/\nStopped\.\n/);
    should(fs.existsSync(path.join(demo.userDir, '.demo-lock'))).be.false();
  });
});
