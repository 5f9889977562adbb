/**
 * A real Node-RED runtime inside the benchmark process, with this package's nodes loaded from `dist/nodes`
 * (the package as Node-RED loads it, so run `npm run build` first). The benchmark triggers nodes and sees
 * their messages without any extra process or socket in between, so what it times is Node-RED and the
 * package, not the benchmark's plumbing. Besides Node-RED's own nodes, flows may use the bench-only node
 * `bench-raw-read` (bench/lib/nodes/bench-raw-read.js), which calls `settings.benchRawRead(msg.device)`.
 *
 * Node-RED's runtime is one per process: only one embedded instance may run at a time; stop it before
 * starting the next. No editor, no admin or HTTP-in server, no telemetry, logging at `error` only.
 *
 *   const nodeRed = await startEmbeddedNodeRed();
 *   const first = nodeRed.nextMessage('sink');   // before the deploy, so no message is missed
 *   await nodeRed.deploy(flows);                 // full deploy; credentials inline on config nodes
 *   nodeRed.trigger('zones', { topic: 'go' });   // as if a wire delivered the message
 *   await first;
 *   await nodeRed.stop();
 */
import { once } from 'node:events';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { withOfflineSettings } from '../../scripts/offline-settings';
import { benchNodeRedPackage, benchNodeRedVersion } from './node-red-choice';

/** One node of a flow as the editor exports it; config nodes may carry `credentials` inline. */
export interface FlowNode {
  id: string;
  type: string;
  z?: string;
  wires?: string[][];
  credentials?: Record<string, string>;
  [property: string]: unknown;
}

/** A message as it reaches a node. */
export type FlowMessage = Record<string, unknown> & { _msgid: string };

export interface DeployTiming {
  /** From the call until Node-RED had saved the flows (to its flow file) and began to start them. */
  savedMs: number;
  /** From the call until every node of the new flows was started. */
  startedMs: number;
}

export interface EmbeddedNodeRed {
  /** Node-RED's version, e.g. `4.1.15`. */
  readonly version: string;
  /** Replaces every flow (a full deploy, as the editor's Deploy button); resolves once the nodes started. */
  deploy(flows: readonly FlowNode[]): Promise<DeployTiming>;
  /** Hands `msg` to the node's input as a wire would (Node-RED adds `_msgid`). Throws if no such node runs. */
  trigger(nodeId: string, msg?: Record<string, unknown>): void;
  /**
   * Calls `listener` with every message that reaches `nodeId` (before the node's own handler runs), until
   * the returned function is called.
   */
  onMessage(nodeId: string, listener: (msg: FlowMessage) => void): () => void;
  /** The next message that reaches `nodeId`; rejects after `timeoutMs`. */
  nextMessage(nodeId: string, timeoutMs?: number): Promise<FlowMessage>;
  /** Stops every flow and the runtime and removes the temporary user directory. */
  stop(): Promise<void>;
}

/** The part of `require('node-red')` used here; `@types/node-red` describes `init` and `setFlows` too loosely. */
interface ReceiveEvent {
  msg: FlowMessage;
  destination: { id: string };
}
interface NodeRedModule {
  init(settings: Record<string, unknown>): void;
  start(): Promise<void>;
  stop(): Promise<void>;
  readonly nodes: { getNode(id: string): { receive(msg?: Record<string, unknown>): void } | null };
  events: NodeJS.EventEmitter;
  hooks: {
    add(name: string, handler: (event: ReceiveEvent) => void): void;
    remove(name: string): void;
  };
  runtime: {
    flows: {
      setFlows(options: {
        flows: { flows: readonly FlowNode[] };
        deploymentType: 'full';
      }): Promise<{ rev: string }>;
    };
  };
}

const PROJECT_ROOT = path.resolve(__dirname, '..', '..');
/** Bench-only node types, such as `bench-raw-read` (see the files there); never shipped. */
export const BENCH_NODES = path.join(__dirname, 'nodes');
const BUILT_NODE = path.join(PROJECT_ROOT, 'dist', 'nodes', 'conference-audio-zones', 'runtime.js');
/** The hook is named so that only this module's hook is ever removed. */
const HOOK = 'onReceive.embedded-bench';

let running = false;

/** Node-RED does not start flows that use an unknown node type, and says so only in its log. */
function within<T>(work: Promise<T>, what: string, timeoutMs = 30_000): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    work,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`waited ${timeoutMs} ms for ${what}`)), timeoutMs);
    }),
  ]).finally(() => clearTimeout(timer));
}

function newestModification(directory: string): number {
  let newest = 0;
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    const entryPath = path.join(directory, entry.name);
    const time = entry.isDirectory() ? newestModification(entryPath) : statSync(entryPath).mtimeMs;
    newest = Math.max(newest, time);
  }
  return newest;
}

/** The benchmarks measure the built package: refuse a missing build and say so when it looks stale. */
function checkBuild(): void {
  let builtAt: number;
  try {
    builtAt = statSync(BUILT_NODE).mtimeMs;
  } catch {
    throw new Error(`${path.relative(PROJECT_ROOT, BUILT_NODE)} is missing: run npm run build first`);
  }
  if (newestModification(path.join(PROJECT_ROOT, 'src')) > builtAt) {
    console.warn('  note: src/ changed after the last build; run npm run build to measure the current code');
  }
}

export async function startEmbeddedNodeRed(
  options: { settings?: Record<string, unknown> } = {},
): Promise<EmbeddedNodeRed> {
  if (running) throw new Error('an embedded Node-RED is already running in this process: stop it first');
  checkBuild();
  running = true;
  const userDir = mkdtempSync(path.join(tmpdir(), 'bench-node-red-'));
  const RED = require(benchNodeRedPackage) as NodeRedModule;
  const listeners = new Map<string, Set<(msg: FlowMessage) => void>>();
  try {
    RED.init(
      withOfflineSettings({
        userDir,
        flowFile: 'flows.json',
        credentialSecret: 'bench-only-credential-secret',
        httpAdminRoot: false,
        httpNodeRoot: false,
        nodesDir: [PROJECT_ROOT, BENCH_NODES],
        logging: { console: { level: 'error', metrics: false, audit: false } },
        editorTheme: { projects: { enabled: false } },
        ...options.settings,
      }),
    );
    // The runtime starts its (empty) flows after start() resolves; a deploy racing that start would lose
    // its credentials to the initial credential load.
    const flowsStarted = within(once(RED.events, 'flows:started'), 'the initial (empty) flows to start');
    // Awaited below; if start() fails first, this must not end as an unhandled rejection.
    flowsStarted.catch(() => undefined);
    await RED.start();
    await flowsStarted;
    RED.hooks.add(HOOK, (event) => {
      const forNode = listeners.get(event.destination.id);
      if (forNode === undefined) return;
      for (const listener of forNode) listener(event.msg);
    });
  } catch (error) {
    running = false;
    rmSync(userDir, { recursive: true, force: true });
    throw error;
  }

  const onMessage = (nodeId: string, listener: (msg: FlowMessage) => void): (() => void) => {
    let forNode = listeners.get(nodeId);
    if (forNode === undefined) {
      forNode = new Set();
      listeners.set(nodeId, forNode);
    }
    forNode.add(listener);
    return () => {
      forNode.delete(listener);
      if (forNode.size === 0 && listeners.get(nodeId) === forNode) listeners.delete(nodeId);
    };
  };

  let stopped = false;
  return {
    // RED.version() says 4.1.15-git whenever a .git folder is four levels above the runtime, as here.
    version: benchNodeRedVersion(),
    async deploy(flows) {
      const start = performance.now();
      const started = within(
        new Promise<number>((resolve) => {
          RED.events.once('flows:started', () => resolve(performance.now()));
        }),
        'the deployed flows to start (a node type missing?)',
      );
      started.catch(() => undefined);
      await RED.runtime.flows.setFlows({ flows: { flows }, deploymentType: 'full' });
      const savedAt = performance.now();
      const startedAt = await started;
      return { savedMs: savedAt - start, startedMs: startedAt - start };
    },
    trigger(nodeId, msg = {}) {
      const node = RED.nodes.getNode(nodeId);
      if (node === null) throw new Error(`no node ${nodeId} is running`);
      node.receive(msg);
    },
    onMessage,
    nextMessage(nodeId, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          remove();
          reject(new Error(`no message reached node ${nodeId} within ${timeoutMs} ms`));
        }, timeoutMs);
        const remove = onMessage(nodeId, (msg) => {
          clearTimeout(timer);
          remove();
          resolve(msg);
        });
      });
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      listeners.clear();
      RED.hooks.remove(HOOK);
      try {
        await RED.stop();
      } finally {
        running = false;
        rmSync(userDir, { recursive: true, force: true });
      }
    },
  };
}
