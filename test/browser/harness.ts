/**
 * What the browser test needs around it: a real Node-RED started as a user
 * would start it (its own red.js, a user directory, a settings file) with this
 * package loaded from dist/, and a headless Chromium driven by playwright-core.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type BrowserContext, chromium, type Locator, type Page } from 'playwright-core';
import { deployFlows } from '../e2e/node-red';
import { launchNodeRed, type NodeRedProcess } from '../support/node-red-process';
import { probeUntil } from '../support/wait';

export const projectRoot = path.resolve(__dirname, '..', '..');
export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const screenshotDir = path.join(projectRoot, '.tmp', 'browser');

const nodeRedScript = path.join(projectRoot, 'node_modules', 'node-red', 'red.js');

export function missingChromiumMessage(): string {
  return (
    `Chromium was not found at ${chromiumPath}. The browser test needs it: install Debian's package ` +
    '(apt-get update && apt-get install -y chromium) or set CHROMIUM_PATH to a Chromium binary.'
  );
}

export interface NodeRed extends NodeRedProcess {
  /** GET/POST on the admin API, as JSON. */
  adminJson(method: 'GET' | 'POST', urlPath: string, body?: unknown): Promise<unknown>;
}

export interface NodeRedOptions {
  /** Node types the test needs before it opens the editor. */
  waitForTypes: string[];
  startTimeoutMs?: number;
  /** More of settings.js (the package's own settings, such as conferenceAudioZonesMinInterval). */
  settings?: Record<string, unknown>;
}

async function listedTypes(nodeRed: NodeRedProcess): Promise<Set<string>> {
  const response = await nodeRed.request('/nodes', { headers: { Accept: 'application/json' } });
  if (!response.ok) throw new Error(`GET /nodes answered ${response.status}`);
  const sets: unknown = await response.json();
  const types = new Set<string>();
  if (!Array.isArray(sets)) return types;
  for (const set of sets) {
    if (typeof set !== 'object' || set === null) continue;
    const setTypes: unknown = (set as { types?: unknown }).types;
    if (!Array.isArray(setTypes)) continue;
    for (const type of setTypes) if (typeof type === 'string') types.add(type);
  }
  return types;
}

/** This project's Node-RED 4 with the package loaded from dist/ (nodesDir) and an empty flow. */
export async function startNodeRed(options: NodeRedOptions): Promise<NodeRed> {
  const userDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ca-browser-node-red-'));
  fs.writeFileSync(path.join(userDir, 'flows.json'), '[]\n');
  let started: NodeRedProcess;
  try {
    started = await launchNodeRed({
      redJs: nodeRedScript,
      userDir,
      // Offline (no catalogue, no telemetry question over the workspace) by launchNodeRed's defaults.
      settings: { nodesDir: [projectRoot], ...options.settings },
      isReady: async (nodeRed) => {
        const types = await listedTypes(nodeRed);
        return options.waitForTypes.every((type) => types.has(type));
      },
      ...(options.startTimeoutMs === undefined ? {} : { timeoutMs: options.startTimeoutMs }),
    });
  } catch (error) {
    fs.rmSync(userDir, { recursive: true, force: true });
    throw error;
  }
  return {
    ...started,
    async adminJson(method, urlPath, body) {
      const response = await started.request(urlPath, {
        method,
        headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      if (!response.ok) throw new Error(`${method} ${urlPath} answered ${response.status}`);
      // A deploy (POST /flows) answers 204 without a body.
      const text = await response.text();
      return text === '' ? undefined : JSON.parse(text);
    },
    async stop() {
      await started.stop();
      fs.rmSync(userDir, { recursive: true, force: true });
    },
  };
}

/** Something the editor reported as wrong: an uncaught error, a console error, a request that failed. */
export interface EditorProblem {
  kind: 'pageerror' | 'console.error' | 'request failed' | 'http error';
  text: string;
  /** The script or resource it came from, when the browser says. */
  url: string;
}

export function describeProblem(problem: EditorProblem): string {
  return `${problem.kind}: ${problem.text}${problem.url === '' ? '' : ` (${problem.url})`}`;
}

export interface Browser {
  readonly context: BrowserContext;
  readonly page: Page;
  /** Everything the editor reported as wrong since the browser started, in order. */
  readonly problems: EditorProblem[];
  /** A picture of the whole window into `.tmp/browser/<name>.png`. */
  screenshot(name: string): Promise<string>;
  close(): Promise<void>;
}

export interface BrowserOptions {
  viewport?: { width: number; height: number };
}

/** Pictures of an earlier run would pass for this run's. */
export function clearTestScreenshots(): void {
  fs.mkdirSync(screenshotDir, { recursive: true });
  for (const file of fs.readdirSync(screenshotDir)) {
    if (file.endsWith('.png')) fs.rmSync(path.join(screenshotDir, file), { force: true });
  }
}

export async function launchBrowser(options: BrowserOptions = {}): Promise<Browser> {
  if (!fs.existsSync(chromiumPath)) throw new Error(missingChromiumMessage());
  const profileDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ca-browser-profile-'));
  let context: BrowserContext;
  try {
    context = await chromium.launchPersistentContext(profileDir, {
      executablePath: chromiumPath,
      headless: true,
      viewport: options.viewport ?? { width: 1400, height: 900 },
      // The editor picks its language from the browser's: a German CI machine must not change the test.
      locale: 'en-US',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
  } catch (error) {
    fs.rmSync(profileDir, { recursive: true, force: true });
    throw error;
  }
  const page = context.pages()[0] ?? (await context.newPage());
  page.setDefaultTimeout(15000);
  const problems: EditorProblem[] = [];
  page.on('pageerror', (error) => {
    // The first stack frame names the script; the editor's node definitions are inline in its page.
    const frame = /\((https?:[^)]+)\)/.exec(error.stack ?? '');
    problems.push({ kind: 'pageerror', text: error.message, url: frame?.[1] ?? '' });
  });
  page.on('console', (message) => {
    if (message.type() === 'error') {
      problems.push({ kind: 'console.error', text: message.text(), url: message.location().url });
    }
  });
  page.on('requestfailed', (request) => {
    problems.push({
      kind: 'request failed',
      text: request.failure()?.errorText ?? 'no reason',
      url: request.url(),
    });
  });
  page.on('response', (response) => {
    if (response.status() >= 400) {
      problems.push({ kind: 'http error', text: String(response.status()), url: response.url() });
    }
  });
  return {
    context,
    page,
    problems,
    async screenshot(name) {
      fs.mkdirSync(screenshotDir, { recursive: true });
      const file = path.join(screenshotDir, `${name}.png`);
      await page.screenshot({ path: file });
      return file;
    },
    async close() {
      try {
        await context.close();
      } finally {
        fs.rmSync(profileDir, { recursive: true, force: true });
      }
    },
  };
}

/** Runs every cleanup step even when an earlier one throws; rethrows the first failure. */
export async function cleanUpAll(steps: Array<(() => Promise<void>) | undefined>): Promise<void> {
  let firstError: unknown;
  for (const step of steps) {
    if (step === undefined) continue;
    try {
      await step();
    } catch (error) {
      firstError ??= error;
    }
  }
  if (firstError !== undefined) throw firstError;
}

/** What a browser test may have started; each part is stopped if it is there. */
export interface StartedParts {
  recorder?: { stop(): Promise<void> } | undefined;
  browser?: Browser | undefined;
  nodeRed?: NodeRed | undefined;
  simulator?: { close(): Promise<void> } | undefined;
}

/** Stops the parts a browser test started, the browser before Node-RED before the device. */
export function stopAll({ recorder, browser, nodeRed, simulator }: StartedParts): Promise<void> {
  return cleanUpAll([
    recorder && (() => recorder.stop()),
    browser && (() => browser.close()),
    nodeRed && (() => nodeRed.stop()),
    simulator && (() => simulator.close()),
  ]);
}

/** The browser's page, once it has started. */
export function pageOf(browser: Browser | undefined): Page {
  if (browser === undefined) throw new Error('the browser did not start');
  return browser.page;
}

/** The node on the editor's canvas whose label contains `label`. */
export function canvasNode(page: Page, label: string): Locator {
  return page.locator('#red-ui-workspace-chart g.red-ui-flow-node-group', { hasText: label });
}

/** Opens the edit dialog of the node labelled `label`, once the canvas shows it. */
export async function openNodeDialog(page: Page, label: string): Promise<void> {
  const node = canvasNode(page, label);
  await node.waitFor();
  await node.dblclick();
}

interface Example {
  file: string;
  title: string;
  nodes: Array<Record<string, unknown>>;
}
const demo = require('../../scripts/start.js') as {
  loadExamples(): Example[];
  buildDemoFlows(examples: Example[], target: { devicePort: number; inlineCredentials: boolean }): unknown[];
};

/** The one example whose file name starts with `number` (e.g. '07'), as the demo would deploy it. */
export function exampleFlows(number: string, devicePort: number): unknown[] {
  const example = demo.loadExamples().filter((candidate) => candidate.file.startsWith(number));
  if (example.length !== 1) throw new Error(`expected one example ${number}, found ${example.length}`);
  return demo.buildDemoFlows(example, { devicePort, inlineCredentials: true });
}

/** Deploys example `number` pointed at the device on `devicePort`. */
export function deployExample(nodeRed: NodeRed, number: string, devicePort: number): Promise<void> {
  return deployFlows(nodeRed, exampleFlows(number, devicePort));
}

/** Opens `url` once Node-RED serves it (a dashboard page comes up after the flows started). */
export async function openWhenServed(page: Page, url: string, what: string): Promise<void> {
  await probeUntil(what, async () => {
    const answer = await page.goto(url);
    return answer?.ok() ? true : undefined;
  });
}
