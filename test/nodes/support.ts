/** Shared test plumbing for the Node-RED node tests: the helper, a catalogue translator, flows. */

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { inspect } from 'node:util';
import type { NodeAPI } from 'node-red';
import { forgetLoginBudgets } from '../../src/api/login-budget';
import { type DeviceSimulator, type SimulatorOptions, startSimulator } from '../../src/simulator';
import { catalogueFile, nodeSourceFile, nodeTypes } from '../support/node-types';
import { shownStatusText } from '../support/status-text';
import { until } from '../support/wait';

type NodeModule = (RED: NodeAPI) => void;

interface SpyCall {
  args: unknown[];
}

export interface TestNode {
  id: string;
  on(event: string, listener: (...args: never[]) => void): void;
  receive(msg: Record<string, unknown>): void;
  status: { getCalls?: () => SpyCall[] };
  [key: string]: unknown;
}

export interface AdminResponse {
  status: number;
  body: Record<string, unknown>;
  text: string;
}
export interface AdminCall extends PromiseLike<AdminResponse> {
  send(body: unknown): AdminCall;
  set(name: string, value: string): AdminCall;
}
export interface AdminRequest {
  post(path: string): AdminCall;
}

export interface TestHelper {
  init(runtimePath: string, userSettings?: Record<string, unknown>): void;
  settings(userSettings?: Record<string, unknown>): Record<string, unknown>;
  load(
    nodes: NodeModule | NodeModule[],
    flow: Record<string, unknown>[],
    credentials?: Record<string, Record<string, string>>,
  ): Promise<void>;
  unload(): Promise<void>;
  /** Deploys another flow into the loaded runtime ('full': every node closed and started again). */
  setFlows(
    flow: Record<string, unknown>[],
    type: 'full' | 'flows' | 'nodes',
    credentials?: Record<string, Record<string, string>>,
  ): Promise<void>;
  getNode(id: string): TestNode;
  startServer(): Promise<void>;
  stopServer(): Promise<void>;
  request(): AdminRequest;
  log(): { args: unknown[][]; getCalls(): SpyCall[] };
}

/**
 * The Node-RED runtime under test: this project's node-red 4 unless NODE_RED_RUNTIME names another
 * node-red package folder (scripts/e2e.js runs these tests on Node-RED 5 under Node 22 that way).
 */
const runtimeEntry = require.resolve(process.env.NODE_RED_RUNTIME ?? 'node-red');

/** A module of the runtime under test (core nodes, editor-api), not of this project's node-red. */
export function requireFromRuntime<T>(id: string): T {
  return require(require.resolve(id, { paths: [path.dirname(runtimeEntry)] })) as T;
}

export const helper: TestHelper = require('node-red-node-test-helper');
helper.init(runtimeEntry);

/** Every node type's module, from the source of what package.json's node-red.nodes lists. */
const packageModules: NodeModule[] = nodeTypes.map((type) => require(nodeSourceFile(type)) as NodeModule);

/**
 * The helper hands nodes `RED._ = key => key`. Our catalogues' keys all start
 * with the node type, so one merged catalogue per locale translates every node:
 * status and error texts in tests are then the ones users read, and a key
 * missing from the catalogue shows up as the raw key. A key may name its
 * node-set namespace (`@scope/package/type:type.key`), as the editor's and
 * cross-node runtime lookups do; that prefix is dropped.
 */
type Catalogue = { [key: string]: string | Catalogue };
export type Translate = (key: string, params?: Record<string, string | number>) => string;

export function translatorFor(locale: string): Translate {
  const catalogue: Catalogue = {};
  for (const type of nodeTypes) {
    Object.assign(catalogue, JSON.parse(readFileSync(catalogueFile(type, locale), 'utf8')) as Catalogue);
  }
  const lookUp = (key: string) => {
    let entry: string | Catalogue | undefined = catalogue;
    for (const part of key.replace(/^[^:]*:/, '').split('.')) {
      entry = typeof entry === 'object' ? entry[part] : undefined;
    }
    return typeof entry === 'string' ? entry : undefined;
  };
  return (key, params) => {
    // Plural forms as i18next picks them: `<key>_one`, `<key>_other` by `count`.
    const count = params?.count;
    const plural =
      typeof count === 'number' ? lookUp(`${key}_${new Intl.PluralRules(locale).select(count)}`) : undefined;
    const entry = plural ?? lookUp(key);
    if (entry === undefined) return key;
    return entry.replace(/__(\w+)__/g, (whole, name: string) =>
      params && name in params ? String(params[name]) : whole,
    );
  };
}

export const translate: Translate = translatorFor('en-US');

let loadedNodeApi: NodeAPI | undefined;

/** The node API (RED) the last helper.load handed the package's modules: its public events and hooks. */
export function nodeApi(): NodeAPI {
  if (loadedNodeApi === undefined) throw new Error('no flow loaded yet: call helper.load first');
  return loadedNodeApi;
}

function withCatalogue(module: NodeModule): NodeModule {
  return (RED) => {
    loadedNodeApi = RED;
    (RED as { _: typeof translate })._ = translate;
    module(RED);
  };
}

/** Every node module of the package, English texts, plus any core nodes (join, catch) a test adds. */
export function nodeModules(...extra: NodeModule[]): NodeModule[] {
  return packageModules.map(withCatalogue).concat(extra);
}

export const joinModule = requireFromRuntime<NodeModule>('@node-red/nodes/core/sequence/17-split.js');
export const catchModule = requireFromRuntime<NodeModule>('@node-red/nodes/core/common/25-catch.js');
export const completeModule = requireFromRuntime<NodeModule>('@node-red/nodes/core/common/24-complete.js');

/**
 * A Complete node and a Catch node scoped to `target`, wired to helper nodes `ok` and `failed`: each
 * `done()` of `target` reaches `ok`, each `done(err)` reaches `failed`, so tests count done calls.
 */
export function doneWatchers(target: string): Record<string, unknown>[] {
  return [
    { id: 'n-complete', type: 'complete', z: 'f1', scope: [target], uncaught: false, wires: [['ok']] },
    { id: 'n-catch', type: 'catch', z: 'f1', scope: [target], uncaught: false, wires: [['failed']] },
    { id: 'ok', type: 'helper', z: 'f1' },
    { id: 'failed', type: 'helper', z: 'f1' },
  ];
}

/**
 * Hands `msg` to node `id` and resolves once that input was done, successfully or not, as counted by the
 * `ok` and `failed` helper nodes of `doneWatchers`.
 */
export async function receiveUntilDone(
  id: string,
  msg: Record<string, unknown>,
  done: { ok: { readonly count: number }; failed: { readonly count: number } },
): Promise<void> {
  const settled = done.ok.count + done.failed.count;
  helper.getNode(id).receive(msg);
  await until(() => done.ok.count + done.failed.count === settled + 1, 'done for the input');
}

/** Counts the messages a helper node receives from now on. */
export function counter(node: TestNode): { readonly count: number; messages: Record<string, unknown>[] } {
  const messages: Record<string, unknown>[] = [];
  node.on('input', (msg: never) => messages.push(msg as Record<string, unknown>));
  return {
    get count() {
      return messages.length;
    },
    messages,
  };
}

/** The tab every test node sits on (`z: 'f1'`); without it Node-RED treats the nodes as config nodes. */
export const tab = { id: 'f1', type: 'tab', label: 'test' };

/** What `loadWatched` hands back: the node's output and its inputs' ends, counted. */
export interface Watched {
  out: ReturnType<typeof counter>;
  ok: ReturnType<typeof counter>;
  failed: ReturnType<typeof counter>;
}

/**
 * Deploys `node` (its id, type and properties) on the device `sim` with `password`, its output wired to the
 * helper `out` and its inputs' ends watched (`doneWatchers`); audio is not polled. `onTab` replaces the
 * plain tab, e.g. to give it env variables.
 */
export async function loadWatched(
  sim: DeviceSimulator,
  password: string,
  node: Record<string, unknown> & { id: string },
  onTab: Record<string, unknown> = tab,
): Promise<Watched> {
  await helper.load(
    nodeModules(completeModule, catchModule),
    [
      onTab,
      deviceConfig(sim, { audioInterval: 0 }),
      { z: 'f1', device: 'device', ...node, wires: [['out']] },
      { id: 'out', type: 'helper', z: 'f1' },
      ...doneWatchers(node.id),
    ],
    { device: { password } },
  );
  return {
    out: counter(helper.getNode('out')),
    ok: counter(helper.getNode('ok')),
    failed: counter(helper.getNode('failed')),
  };
}

export function deviceConfig(
  sim: DeviceSimulator,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  const port = Number(new URL(sim.url).port);
  return {
    id: 'device',
    type: 'conference-audio-device',
    name: 'room',
    host: '127.0.0.1',
    port,
    account: 'general',
    clientId: 'node-red-test',
    vendor: sim.vendor,
    tls: 'insecure',
    fingerprint: '',
    ca: '',
    timeout: 10,
    ...extra,
  };
}

/**
 * Node definitions on the test tab, using the config node `device`: the usual settings of each node type,
 * with `extra` on top. Room zones: output `all`, read on input only.
 */
export function zonesNodeDef(
  id: string,
  out: string,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  const base = { type: 'conference-audio-zones', z: 'f1', device: 'device', output: 'all' };
  return { id, ...base, interval: 0, onStart: false, topic: 'zones', wires: [[out]], ...extra };
}

/** Device request: `GET /api/v1/audio`. */
export function requestNodeDef(
  id: string,
  out: string,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  const base = { type: 'conference-audio-request', z: 'f1', device: 'device' };
  return { id, ...base, method: 'GET', path: '/api/v1/audio', wires: [[out]], ...extra };
}

/** Zone lookup: the point in `msg.payload`, zones cached for 60 s; outputs inside and outside. */
export function lookupNodeDef(
  id: string,
  [inside, outside]: [string, string],
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  const base = { type: 'conference-audio-zone-lookup', z: 'f1', device: 'device' };
  return { id, ...base, property: 'payload', maxAge: 60, wires: [[inside], [outside]], ...extra };
}

/** Device events: sound location at most 5 a second, the topic from the device's name. */
export function eventsNodeDef(
  id: string,
  out: string,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  const base = { type: 'conference-audio-events', z: 'f1', device: 'device' };
  return { id, ...base, events: ['soundLocation'], rate: 5, topic: '', wires: [[out]], ...extra };
}

/** Active zone: Switching zones, hold 1000 ms, release 5 s, topic `stage`. */
export function activeZoneNodeDef(
  id: string,
  out: string,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  const base = { type: 'conference-audio-active-zone', z: 'f1', device: 'device' };
  return {
    id,
    ...base,
    zoneType: 'Switching',
    hold: 1000,
    release: 5000,
    topic: 'stage',
    wires: [[out]],
    ...extra,
  };
}

/** Resolves with the next `count` messages a helper node receives. */
export function collect(node: TestNode, count: number): Promise<Record<string, unknown>[]> {
  return new Promise((resolve) => {
    const received: Record<string, unknown>[] = [];
    node.on('input', (msg: never) => {
      received.push(msg as Record<string, unknown>);
      if (received.length === count) resolve(received);
    });
  });
}

/**
 * Resolves when `predicate` holds, checking after each status change of `node`. The predicate sees the
 * status with its text as the English editor shows it (test/support/status-text.ts), and `key`, the text
 * as the runtime sent it.
 */
export function statusWhere(node: TestNode, predicate: (status: Record<string, unknown>) => boolean) {
  return new Promise<Record<string, unknown>>((resolve) => {
    node.on('call:status', (call: never) => {
      const sent = (call as SpyCall).args[0] as Record<string, unknown>;
      const status =
        typeof sent.text === 'string' ? { ...sent, key: sent.text, text: shownStatusText(sent.text) } : sent;
      if (predicate(status)) resolve(status);
    });
  });
}

export function statusText(text: string) {
  return (status: Record<string, unknown>) => status.text === text;
}

/** Every log line written during the test, as one string (level, message and all fields). */
export function allLogText(): string {
  return helper
    .log()
    .args.map((args) => JSON.stringify(args))
    .join('\n');
}

/** Readings quick enough for the active zone tests; the simulated talker stands still until placed. */
export const FAST_READINGS: SimulatorOptions = {
  talker: 'off',
  soundLocationIntervalMs: 20,
  metricsIntervalMs: 100,
};

/** A reading inside the sample presenter zone. */
export const IN_PRESENTER = { x: 0, y: 1500, powerLevel: 40 };

/**
 * An active zone node `n-active` sending to the helper `out`, with its Complete and Catch watchers and any
 * `more` nodes, in a tab beside the config node for `sim`. Load it with `completeModule` and `catchModule`.
 */
export function activeZoneFlow(
  sim: DeviceSimulator,
  extra: Record<string, unknown>,
  more: Record<string, unknown>[] = [],
): Record<string, unknown>[] {
  return [
    tab,
    deviceConfig(sim),
    activeZoneNodeDef('n-active', 'out', extra),
    { id: 'out', type: 'helper', z: 'f1' },
    ...doneWatchers('n-active'),
    ...more,
  ];
}

/**
 * All a node let out during the test, as one text to search for a secret: the given messages (as JSON and
 * as `inspect` prints them, which shows what JSON leaves out), every log line and the node's status calls.
 */
export function everythingShown(
  nodeId: string,
  ...messageLists: readonly Record<string, unknown>[][]
): string {
  const statusCalls = (helper.getNode(nodeId).status as unknown as { args: unknown[][] }).args;
  return [
    ...messageLists.flatMap((messages) => [JSON.stringify(messages), inspect(messages, { depth: 10 })]),
    allLogText(),
    JSON.stringify(statusCalls),
  ].join('\n');
}

/** The token of the first authorised request the simulator received ('' before there was one). */
export function sentToken(sim: DeviceSimulator): string {
  const authorization = sim.requests.find((r) => r.headers.authorization)?.headers.authorization ?? '';
  return authorization.split(' ')[1] ?? '';
}

/**
 * Each test of the calling describe block gets a fresh simulator (handed to `started`); after it the flow
 * is unloaded, the helper's settings reset, the simulator closed and the login budgets forgotten, so no
 * test sees another's state.
 */
export function useSimulator(options: SimulatorOptions, started: (simulator: DeviceSimulator) => void): void {
  let running: DeviceSimulator | undefined;
  beforeEach(async () => {
    running = await startSimulator({ port: 0, ...options });
    started(running);
  });
  afterEach(async () => {
    await helper.unload();
    helper.settings({});
    await running?.close();
    running = undefined;
    // The next test's simulator may get this one's port: it must not inherit its login budget.
    forgetLoginBudgets();
  });
}

export { delay, until } from '../support/wait';
