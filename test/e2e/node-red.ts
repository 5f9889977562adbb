/**
 * Runs a real Node-RED from its command line, as a user installs and starts
 * it: a fresh user directory, this package installed from the npm tarball,
 * a settings file, `node red.js -u DIR -s settings.js`. Output is captured
 * so tests can read the log.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { plainEnvironment } from '../../scripts/plain-environment';

const execFileAsync = promisify(execFile);

export const PROJECT_ROOT = resolve(__dirname, '..', '..');

/** What `scripts/e2e.js` passes: which Node-RED line to run, and the packed package. */
export interface E2eEnvironment {
  line: string;
  nodeBinary: string;
  redJs: string;
  tarball: string;
}

export function e2eEnvironment(): E2eEnvironment {
  const tarball = process.env.E2E_TARBALL;
  if (!tarball) {
    throw new Error('E2E_TARBALL is not set: run the end-to-end tests with `npm run test:e2e`');
  }
  return {
    line: process.env.E2E_LINE ?? 'Node-RED (default)',
    nodeBinary: process.env.E2E_NODE_BINARY ?? process.execPath,
    redJs: process.env.E2E_RED_JS ?? join(PROJECT_ROOT, 'node_modules', 'node-red', 'red.js'),
    tarball,
  };
}

/** Polls `probe` until it returns a value other than undefined, or fails at the deadline. */
export async function eventually<T>(
  what: string,
  probe: () => T | undefined | Promise<T | undefined>,
  timeoutMs = 20000,
  intervalMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > deadline) {
      const reason = lastError instanceof Error ? ` (last error: ${lastError.message})` : '';
      throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}${reason}`);
    }
    await new Promise((done) => setTimeout(done, intervalMs));
  }
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  const address = server.address();
  await new Promise<void>((closed) => server.close(() => closed()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/** A fresh user directory with the tarball installed into it by npm, as a user would. */
export async function prepareUserDir(tarball: string): Promise<string> {
  const parent = join(PROJECT_ROOT, '.tmp', 'e2e');
  mkdirSync(parent, { recursive: true });
  const userDir = mkdtempSync(join(parent, 'userdir-'));
  writeFileSync(
    join(userDir, 'package.json'),
    `${JSON.stringify({ name: 'node-red-project', private: true, description: 'e2e user directory' })}\n`,
  );
  await execFileAsync('npm', ['install', tarball, '--no-audit', '--no-fund', '--prefer-offline'], {
    cwd: userDir,
    env: plainEnvironment(),
    maxBuffer: 16 * 1024 * 1024,
  });
  return userDir;
}

export interface RunningNodeRed {
  readonly url: string;
  readonly userDir: string;
  /** Everything Node-RED wrote to stdout and stderr so far. */
  log(): string;
  /** Admin or HTTP-in request against this Node-RED. */
  request(path: string, init?: RequestInit): Promise<Response>;
  stop(): Promise<void>;
}

/**
 * Starts Node-RED on a free port with no adminAuth and waits until its admin
 * API answers. `settings` is merged into the generated settings.js.
 */
export async function startNodeRed(
  environment: E2eEnvironment,
  userDir: string,
  settings: Record<string, unknown> = {},
): Promise<RunningNodeRed> {
  const port = await freePort();
  const settingsFile = join(userDir, 'settings.js');
  const allSettings = {
    uiHost: '127.0.0.1',
    uiPort: port,
    flowFile: 'flows.json',
    credentialSecret: 'end-to-end-test-only',
    functionExternalModules: false,
    logging: { console: { level: 'info', metrics: false, audit: false } },
    editorTheme: { tours: false },
    ...settings,
  };
  writeFileSync(settingsFile, `module.exports = ${JSON.stringify(allSettings, null, 2)};\n`);

  const child: ChildProcess = spawn(
    environment.nodeBinary,
    [environment.redJs, '-u', userDir, '-s', settingsFile],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...plainEnvironment(), NODE_OPTIONS: '' },
    },
  );
  let output = '';
  let exited = false;
  const exit = new Promise<void>((done) => {
    child.on('exit', () => {
      exited = true;
      done();
    });
  });
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    output += chunk;
  });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    output += chunk;
  });

  const url = `http://127.0.0.1:${port}`;
  const request = (path: string, init: RequestInit = {}) => fetch(`${url}${path}`, init);
  const stop = async () => {
    if (exited) return;
    child.kill('SIGINT');
    const force = setTimeout(() => child.kill('SIGKILL'), 10000);
    await exit;
    clearTimeout(force);
  };
  try {
    await eventually(
      'the Node-RED admin API',
      async () => {
        if (exited) throw new Error(`Node-RED exited:\n${output}`);
        const answer = await request('/settings', { headers: { accept: 'application/json' } });
        return answer.ok ? true : undefined;
      },
      60000,
      200,
    );
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, userDir, log: () => output, request, stop };
}

export interface NodeSet {
  id: string;
  module: string;
  version?: string;
  types: string[];
  enabled: boolean;
  err?: string;
}

/** The node sets Node-RED's admin API lists (`GET /nodes`). */
export async function loadedNodeSets(nodeRed: RunningNodeRed): Promise<NodeSet[]> {
  const answer = await nodeRed.request('/nodes', { headers: { accept: 'application/json' } });
  if (!answer.ok) throw new Error(`GET /nodes answered ${answer.status}`);
  return (await answer.json()) as NodeSet[];
}

export async function deployFlows(nodeRed: RunningNodeRed, flows: unknown[]): Promise<void> {
  const answer = await nodeRed.request('/flows', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'Node-RED-Deployment-Type': 'full' },
    body: JSON.stringify(flows),
  });
  if (answer.status !== 204 && answer.status !== 200) {
    throw new Error(`POST /flows answered ${answer.status}: ${await answer.text()}`);
  }
}

export async function fireInject(nodeRed: RunningNodeRed, id: string): Promise<void> {
  const answer = await nodeRed.request(`/inject/${id}`, { method: 'POST' });
  if (!answer.ok) throw new Error(`POST /inject/${id} answered ${answer.status}`);
}

/**
 * Log lines at warn or error level that concern this package: those naming
 * it, and those of any node in the deployed (example) flows, which Node-RED
 * tags `[type:name]`. Untagged runtime notices ("Projects disabled") are not ours.
 */
export function ourWarningsAndErrors(log: string): string[] {
  return log
    .split('\n')
    .filter(
      (line) =>
        /\[(warn|error)\]/i.test(line) &&
        (/conference-audio/i.test(line) || /\[(warn|error)\] \[[^\]:]+:[^\]]*\]/i.test(line)),
    );
}
