/**
 * Plumbing for the bad-input and load tests: every done() call per node, the Catch errors per node, every
 * request that reaches the simulator, the values of every wrong type a message property can hold, and
 * full redeploys. Only public interfaces of the test helper (helper.load/setFlows/getNode/log, its spies
 * on node methods) and of Node-RED's node API (RED.events, hooks); no private state is patched.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import should from 'should';
import type { DeviceSimulator } from '../../src/simulator';
import { counter, helper, nodeApi, requireFromRuntime, type TestNode } from '../nodes/support';
import { resetSpiesKeepingSightings } from './harness';

export type Counter = ReturnType<typeof counter>;

interface Hooks {
  add(hookId: string, callback: (event: { node: { id: string }; error?: unknown }) => void): void;
  remove(hookId: string): void;
}

/**
 * Every done() call of every node, recorded through the runtime's `onComplete` hook: it fires once per
 * call, so a second done() for one input shows, and it keeps counting across redeploys, when the flow's
 * Complete and Catch nodes are replaced. The test helper cannot load two Complete or Catch nodes in one
 * flow (it registers their type once per node), so nodes are told apart here instead.
 */
export interface DoneLog {
  /** done() calls of this node, with or without an error. */
  settled(id: string): number;
  /** done(err) calls of this node. */
  failed(id: string): number;
  /** The codes of this node's done(err) calls, in order. */
  codes(id: string): string[];
  stop(): void;
}

let doneLogs = 0;

export function recordDone(): DoneLog {
  const hooks = requireFromRuntime<{ hooks: Hooks }>('@node-red/util').hooks;
  doneLogs += 1;
  const label = `onComplete.reliability${doneLogs}`;
  const settled = new Map<string, number>();
  const codes = new Map<string, string[]>();
  hooks.add(label, (event) => {
    settled.set(event.node.id, (settled.get(event.node.id) ?? 0) + 1);
    if (event.error === undefined || event.error === null) return;
    const list = codes.get(event.node.id) ?? [];
    list.push(String((event.error as { code?: unknown }).code));
    codes.set(event.node.id, list);
  });
  return {
    settled: (id) => settled.get(id) ?? 0,
    failed: (id) => codes.get(id)?.length ?? 0,
    codes: (id) => [...(codes.get(id) ?? [])],
    stop: () => hooks.remove(label),
  };
}

/** One Catch node for all `targets`, wired to the helper node `rig-failed`. */
export function catchAll(targets: string[]): Record<string, unknown>[] {
  return [
    { id: 'rig-catch', type: 'catch', z: 'f1', scope: targets, uncaught: false, wires: [['rig-failed']] },
    { id: 'rig-failed', type: 'helper', z: 'f1' },
  ];
}

/** What one node under test did: its done() calls, its Catch errors and its outputs. */
export interface Watched {
  node: TestNode;
  outputs: Counter[];
  /** done() calls so far, with or without an error. */
  readonly settled: number;
  /** Errors that reached the Catch node from this node. */
  readonly caught: number;
  /** The codes of the errors that reached Catch from this node, in order. */
  codes(): string[];
  /** The Catch node's messages for this node's errors. */
  caughtMessages(): Record<string, unknown>[];
}

function sourceOf(msg: Record<string, unknown>): unknown {
  return (msg.error as { source?: { id?: unknown } } | undefined)?.source?.id;
}

export function watch(
  getNode: (id: string) => TestNode,
  done: DoneLog,
  target: string,
  outputIds: string[],
): Watched {
  const caught = counter(getNode('rig-failed'));
  const mine = () => caught.messages.filter((msg) => sourceOf(msg) === target);
  return {
    node: getNode(target),
    outputs: outputIds.map((id) => counter(getNode(id))),
    get settled() {
      return done.settled(target);
    },
    get caught() {
      return mine().length;
    },
    codes: () => mine().map((msg) => String((msg.error as { code?: unknown } | undefined)?.code)),
    caughtMessages: mine,
  };
}

/**
 * Counts from now on, through the simulator's public `stats()`: `httpRequests` counts every HTTP request,
 * `/_simulator/` controls included (its own record leaves those out), so a test can show that a refused
 * path never left the client; `connections` counts TCP connections, for callers that may not even send a
 * request (reading the certificate is a TLS handshake only).
 */
function countFromNow(
  sim: DeviceSimulator,
  counter: 'httpRequests' | 'connections',
): { readonly count: number; stop(): void } {
  const start = sim.stats()[counter];
  let stoppedAt: number | undefined;
  return {
    get count() {
      return (stoppedAt ?? sim.stats()[counter]) - start;
    },
    stop: () => {
      stoppedAt ??= sim.stats()[counter];
    },
  };
}

export const requestsReaching = (sim: DeviceSimulator) => countFromNow(sim, 'httpRequests');
export const connectionsReaching = (sim: DeviceSimulator) => countFromNow(sim, 'connections');

/** A wrong value for a message property: built fresh for each use, so no test sees another's mutation. */
export interface WrongValue {
  name: string;
  make: () => unknown;
}

function circularObject(): Record<string, unknown> {
  const value: Record<string, unknown> = { x: 1, y: 2 };
  value.self = value;
  return value;
}

/** Own `__proto__` keys, as JSON.parse builds them from text a flow received from outside. */
const POLLUTING_JSON =
  '{"__proto__":{"polluted":"yes","x":1,"y":2},"constructor":{"prototype":{"polluted":"yes"}}}';

/** One value of every type a message property can hold that is not the type a node expects. */
export const WRONG_VALUES: readonly WrongValue[] = [
  { name: 'undefined', make: () => undefined },
  { name: 'null', make: () => null },
  { name: 'a number', make: () => 42 },
  { name: 'a string', make: () => 'text' },
  { name: 'an empty string', make: () => '' },
  { name: 'a boolean', make: () => true },
  { name: 'an array', make: () => [1, 2] },
  { name: 'an empty object', make: () => ({}) },
  { name: 'NaN', make: () => Number.NaN },
  { name: 'Infinity', make: () => Number.POSITIVE_INFINITY },
  { name: 'a 1 MB string', make: () => 'x'.repeat(1024 * 1024) },
  { name: 'a Buffer', make: () => Buffer.from('{"x":1,"y":2}') },
  { name: 'a circular object', make: circularObject },
  { name: 'an object with __proto__ and constructor keys', make: () => JSON.parse(POLLUTING_JSON) },
  { name: 'a BigInt', make: () => 10n },
  { name: 'a function', make: () => () => 'called' },
];

/** Object.prototype untouched: no `polluted` anywhere a plain object would inherit it. */
export function assertNoPrototypePollution(): void {
  should(Object.prototype).not.have.property('polluted');
  should(({} as Record<string, unknown>).polluted).be.undefined();
}

// ---------------------------------------------------------------------------------------------------------
// Redeploys and what they leave behind.

/** The node methods the test helper turns into sinon spies (its README lists them). */
const SPIED_METHODS = ['log', 'status', 'warn', 'error', 'debug', 'trace', 'send'] as const;

/**
 * A helper node kept in every flow the redeploy test deploys, even the "empty" one: a node of the
 * current flow is how the helper's spies (and so their call records) are reached. Wired (to itself;
 * it never sends) because an unwired node gets a no-op `send` instead of the spied one.
 */
export const anchorNode = { id: 'rig-anchor', type: 'helper', z: 'f1', wires: [['rig-anchor']] };

/**
 * A full deploy, as the editor's Deploy button makes it: every node of the old flow is closed, then the
 * new flow starts. Resolves once it has started. helper.setFlows gives the start 300 ms and then
 * rejects, too little on a busy machine: the runtime's `flows:started` event (RED.events) decides here.
 */
export async function fullDeploy(
  flow: Record<string, unknown>[],
  credentials: Record<string, Record<string, string>>,
): Promise<void> {
  const started = new Promise<void>((resolve) => runtimeEvents().once('flows:started', () => resolve()));
  // A copy: the runtime may adopt the object as its credential store and delete from it on a later deploy.
  const deploying = helper.setFlows(flow, 'full', structuredClone(credentials)).catch((error: unknown) => {
    if (!(error instanceof Error && error.message === 'timeout waiting event')) throw error;
  });
  await Promise.all([deploying, started]);
}

/**
 * Drops the call records of the helper's spies on every node method (status, send, log...), reached
 * through the anchor node. They keep every node they saw alive, which is the test's own doing: without
 * this no old node could ever be freed.
 */
export function forgetCallHistory(): void {
  const anchor = helper.getNode(anchorNode.id) as unknown as Record<string, { resetHistory(): void }>;
  resetSpiesKeepingSightings(() => {
    for (const method of SPIED_METHODS) anchor[method]?.resetHistory();
    // The runtime log's spy (helper.log()) holds every logged message and the node it names.
    (helper.log() as unknown as { resetHistory(): void }).resetHistory();
  });
}

/** The runtime's event emitter (RED.events): nodes that subscribe to it must unsubscribe on close. */
export function runtimeEvents(): NodeJS.EventEmitter {
  return nodeApi().events as unknown as NodeJS.EventEmitter;
}

/** Active handles and requests by type (sockets, servers, timers, immediates), as one comparable text. */
export function activeResources(): string {
  const counts = new Map<string, number>();
  for (const type of process.getActiveResourcesInfo()) {
    // The terminal of an interactive run comes and goes with output.
    if (type === 'TTYWrap') continue;
    counts.set(type, (counts.get(type) ?? 0) + 1);
  }
  return [...counts]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([type, count]) => `${type}×${count}`)
    .join(', ');
}

/** Listeners per event of each emitter, as one comparable text. */
export function listenerCounts(emitters: Record<string, NodeJS.EventEmitter>): string {
  return Object.entries(emitters)
    .flatMap(([name, emitter]) =>
      emitter
        .eventNames()
        .map((event) => [`${name}:${String(event)}`, emitter.listenerCount(event)] as const)
        .filter(([, count]) => count > 0)
        .map(([label, count]) => `${label}×${count}`),
    )
    .sort()
    .join(', ');
}

let collectGarbage: (() => void) | undefined;

/**
 * A full garbage collection. Mocha runs without --expose-gc; V8 lets the flag be set at run time, and a new
 * context then has `gc` (the way jest's leak detector does it). Weak references are only cleared between
 * jobs, so this waits a turn of the event loop on both sides.
 */
export async function fullGc(): Promise<void> {
  if (collectGarbage === undefined) {
    setFlagsFromString('--expose-gc');
    collectGarbage = runInNewContext('gc') as () => void;
  }
  await new Promise((resolve) => setImmediate(resolve));
  collectGarbage();
  await new Promise((resolve) => setImmediate(resolve));
  collectGarbage();
}
