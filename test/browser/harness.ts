/**
 * What the browser test needs around it: a real Node-RED started as a user
 * would start it (its own red.js, a user directory, a settings file) with this
 * package loaded from dist/, and a headless Chromium driven by playwright-core.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { launchNodeRed, type NodeRedProcess } from '../support/node-red-process';

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
      settings: {
        nodesDir: [projectRoot],
        // The palette manager would fetch the public catalogue from the internet.
        editorTheme: { tours: false, palette: { catalogues: [] } },
        // Without an answer here the editor opens an "Enable Update Notifications" modal over everything.
        telemetry: { enabled: false, updateNotification: false },
      },
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
      return response.json();
    },
    async stop() {
      await started.stop();
      fs.rmSync(userDir, { recursive: true, force: true });
    },
  };
}

export interface Browser {
  readonly context: BrowserContext;
  readonly page: Page;
  /** Uncaught errors of the editor's own scripts and console errors, in order. */
  readonly pageErrors: string[];
  screenshot(name: string): Promise<string>;
  readonly screenshots: string[];
  close(): Promise<void>;
}

export async function launchBrowser(): Promise<Browser> {
  if (!fs.existsSync(chromiumPath)) throw new Error(missingChromiumMessage());
  const profileDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ca-browser-profile-'));
  fs.mkdirSync(screenshotDir, { recursive: true });
  // Pictures of an earlier run would pass for this run's.
  for (const file of fs.readdirSync(screenshotDir)) {
    if (file.endsWith('.png')) fs.rmSync(path.join(screenshotDir, file), { force: true });
  }
  let context: BrowserContext;
  try {
    context = await chromium.launchPersistentContext(profileDir, {
      executablePath: chromiumPath,
      headless: true,
      viewport: { width: 1400, height: 900 },
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
  const pageErrors: string[] = [];
  page.on('pageerror', (error) => pageErrors.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') pageErrors.push(`console.error: ${message.text()}`);
  });
  page.on('requestfailed', (request) => {
    pageErrors.push(`request failed: ${request.url()} (${request.failure()?.errorText ?? 'no reason'})`);
  });
  const screenshots: string[] = [];
  return {
    context,
    page,
    pageErrors,
    screenshots,
    async screenshot(name) {
      const file = path.join(screenshotDir, `${name}.png`);
      await page.screenshot({ path: file });
      screenshots.push(file);
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
