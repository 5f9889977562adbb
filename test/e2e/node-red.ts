/**
 * Runs a real Node-RED from its command line, as a user installs and starts
 * it: a fresh user directory, this package installed from the npm tarball,
 * a settings file, `node red.js -u DIR -s settings.js`. Output is captured
 * so tests can read the log.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { delimiter, dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { plainEnvironment } from '../../scripts/plain-environment';
import { launchNodeRed, type NodeRedProcess } from '../support/node-red-process';

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

/**
 * A plain shell's environment whose `node` is the line's: npm (`#!/usr/bin/env node`) then runs on it and
 * judges `engines` against it, as it does for a user of that Node.
 */
export function environmentOnLineNode(environment: E2eEnvironment): NodeJS.ProcessEnv {
  const plain = plainEnvironment();
  return { ...plain, PATH: [dirname(environment.nodeBinary), plain.PATH].join(delimiter) };
}

/** The Dashboard 2.0 version this project develops against (its dev dependency). */
function dashboardVersion(): string {
  const manifest = join(PROJECT_ROOT, 'node_modules', '@flowfuse', 'node-red-dashboard', 'package.json');
  return (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version;
}

/**
 * A fresh user directory with the tarball installed into it by npm, as a user would; under .tmp/e2e, or
 * under `parent` (outside the project, where Node's module lookup cannot reach the project's node_modules).
 */
export async function prepareUserDir(
  tarball: string,
  parent = join(PROJECT_ROOT, '.tmp', 'e2e'),
): Promise<string> {
  mkdirSync(parent, { recursive: true });
  const userDir = mkdtempSync(join(parent, 'userdir-'));
  writeFileSync(
    join(userDir, 'package.json'),
    `${JSON.stringify({ name: 'node-red-project', private: true, description: 'e2e user directory' })}\n`,
  );
  // The live room view example needs Dashboard 2.0, as a user of that example installs it beside ours.
  const dashboard = `@flowfuse/node-red-dashboard@${dashboardVersion()}`;
  await execFileAsync('npm', ['install', tarball, dashboard, '--no-audit', '--no-fund', '--prefer-offline'], {
    cwd: userDir,
    env: plainEnvironment(),
    maxBuffer: 16 * 1024 * 1024,
  });
  return userDir;
}

/**
 * Starts Node-RED with `environment`'s node binary and red.js on a free port, with no adminAuth, and waits
 * until its admin API answers. `settings` is merged into the generated settings.js.
 */
export function startNodeRed(
  environment: E2eEnvironment,
  userDir: string,
  settings: Record<string, unknown> = {},
): Promise<NodeRedProcess> {
  return launchNodeRed({
    nodeBinary: environment.nodeBinary,
    redJs: environment.redJs,
    userDir,
    settings: { functionExternalModules: false, ...settings },
  });
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
export async function loadedNodeSets(nodeRed: NodeRedProcess): Promise<NodeSet[]> {
  const answer = await nodeRed.request('/nodes', { headers: { accept: 'application/json' } });
  if (!answer.ok) throw new Error(`GET /nodes answered ${answer.status}`);
  return (await answer.json()) as NodeSet[];
}

export async function deployFlows(nodeRed: NodeRedProcess, flows: unknown[]): Promise<void> {
  const answer = await nodeRed.request('/flows', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'Node-RED-Deployment-Type': 'full' },
    body: JSON.stringify(flows),
  });
  if (answer.status !== 204 && answer.status !== 200) {
    throw new Error(`POST /flows answered ${answer.status}: ${await answer.text()}`);
  }
}

export async function fireInject(nodeRed: NodeRedProcess, id: string): Promise<void> {
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
