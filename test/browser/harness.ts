/**
 * What the browser test needs around it: a real Node-RED started as a user
 * would start it (its own red.js, a user directory, a settings file) with this
 * package loaded from dist/, and a headless Chromium driven by playwright-core.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright-core';

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

async function freePort(): Promise<number> {
  const server = net.createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  server.close();
  await once(server, 'close');
  if (address === null || typeof address === 'string') throw new Error('no TCP port from the OS');
  return address.port;
}

export interface NodeRed {
  readonly url: string;
  readonly userDir: string;
  /** Everything the Node-RED process printed so far (shown when a test fails). */
  output(): string;
  /** GET/POST on the admin API, as JSON. */
  adminJson(method: 'GET' | 'POST', urlPath: string, body?: unknown): Promise<unknown>;
  stop(): Promise<void>;
}

export interface NodeRedOptions {
  /** Node types the test needs before it opens the editor. */
  waitForTypes: string[];
  startTimeoutMs?: number;
}

function settingsFileText(port: number, userDir: string): string {
  const settings = {
    uiPort: port,
    uiHost: '127.0.0.1',
    userDir,
    flowFile: 'flows.json',
    credentialSecret: 'browser-test-credential-secret',
    nodesDir: [projectRoot],
    // The welcome tour pops up over the workspace at an unpredictable moment (a person closes it once, a
    // test would have to race it), and the palette manager would fetch the public catalogue from the internet.
    editorTheme: { tours: false, palette: { catalogues: [] } },
    // Without an answer here the editor opens an "Enable Update Notifications" modal over everything.
    telemetry: { enabled: false, updateNotification: false },
    logging: { console: { level: 'info', metrics: false, audit: false } },
  };
  return `module.exports = ${JSON.stringify(settings, null, 2)};\n`;
}

async function listedTypes(url: string): Promise<Set<string>> {
  const response = await fetch(`${url}/nodes`, { headers: { Accept: 'application/json' } });
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

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const killTimer = setTimeout(() => child.kill('SIGKILL'), 5000);
  try {
    await exited;
  } finally {
    clearTimeout(killTimer);
  }
}

export async function startNodeRed(options: NodeRedOptions): Promise<NodeRed> {
  const userDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ca-browser-node-red-'));
  const port = await freePort();
  const settingsPath = path.join(userDir, 'settings.js');
  fs.writeFileSync(settingsPath, settingsFileText(port, userDir));
  fs.writeFileSync(path.join(userDir, 'flows.json'), '[]\n');

  const chunks: string[] = [];
  const child = spawn(process.execPath, [nodeRedScript, '-u', userDir, '-s', settingsPath], {
    cwd: userDir,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NODE_OPTIONS: '' },
  });
  // If the test process ends without its after hook (an uncaught error, mocha --exit), Node-RED goes too.
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  child.once('exit', () => process.off('exit', killOnExit));
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => chunks.push(chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => chunks.push(chunk));

  const url = `http://127.0.0.1:${port}`;
  const nodeRed: NodeRed = {
    url,
    userDir,
    output: () => chunks.join(''),
    async adminJson(method, urlPath, body) {
      const response = await fetch(`${url}${urlPath}`, {
        method,
        headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      if (!response.ok) throw new Error(`${method} ${urlPath} answered ${response.status}`);
      return response.json();
    },
    async stop() {
      await stopChild(child);
      fs.rmSync(userDir, { recursive: true, force: true });
    },
  };

  const deadline = Date.now() + (options.startTimeoutMs ?? 30000);
  let lastProblem = 'not started yet';
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      await nodeRed.stop();
      throw new Error(
        `Node-RED exited with code ${child.exitCode} before it was ready:\n${nodeRed.output()}`,
      );
    }
    try {
      const types = await listedTypes(url);
      const missing = options.waitForTypes.filter((type) => !types.has(type));
      if (missing.length === 0) return nodeRed;
      lastProblem = `node types not loaded: ${missing.join(', ')}`;
    } catch (error) {
      lastProblem = error instanceof Error ? error.message : String(error);
    }
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
  await nodeRed.stop();
  throw new Error(`Node-RED was not ready (${lastProblem}). Its output:\n${nodeRed.output()}`);
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
