/**
 * Where a V8 CPU profile's time goes: each sample is given to a category by its frames, leaf first, so a
 * sample in a general-purpose frame (a stream's push, an event emitter, a builtin) counts for the nearest
 * caller that says whose work it is: undici's parser calling `emit` is HTTP, the package's code calling
 * `JSON.parse` is JSON. A sample with no such frame on its stack is "other JS".
 *
 * V8 samples the JavaScript thread only: work on other threads (parallel garbage collection helpers,
 * libuv's pool) is not in the profile, and native work with no JavaScript frame on the stack (OpenSSL
 * decrypting a record before its bytes reach JavaScript, libuv polling) is V8's `(program)`.
 */
import { formatTable } from './table';

/**
 * Between two samples of the CPU profiler, in µs. V8's default (1000) leaves few samples of a few µs per
 * event; sampling faster costs Node-RED much more CPU (every 200 µs nearly tripled it).
 */
export const PROFILE_SAMPLING_MICROS = 500;

/** A V8 CPU profile, as `Profiler.stop` answers it and `--cpu-prof` writes it (`.cpuprofile`). */
export interface CpuProfile {
  nodes: Array<{
    id: number;
    callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
    children?: number[];
  }>;
  startTime: number;
  endTime: number;
  samples: number[];
  /** µs since the previous sample, one per sample. */
  timeDeltas: number[];
}

export const CATEGORIES = [
  'TLS and sockets (node:tls, _tls_wrap, net, stream reads)',
  'HTTP (undici)',
  'SSE parsing (eventsource-parser, dist/api/sse-reader)',
  'JSON (JSON.parse, JSON.stringify)',
  'package: dist/api (client, streams)',
  'package: dist/device (connection, stream hub)',
  'package: dist/zones (readings, active zone tracker)',
  'package: dist/nodes (node runtimes, glue)',
  'Node-RED (send, routing, cloning: @node-red/*)',
  'timers (node:timers)',
  'garbage collector',
  '(program): native, no JavaScript on the stack',
  "Node's stream and promise plumbing (a body's Readable, for await, microtasks)",
  'other JavaScript',
] as const;
export type Category = (typeof CATEGORIES)[number];

type Frame = CpuProfile['nodes'][number]['callFrame'];

const IDLE = '(idle)';

/** The category a frame alone names, or undefined when it is general-purpose and its caller decides. */
function ownCategory(frame: Frame): Category | undefined {
  const { functionName, url } = frame;
  if (functionName === '(garbage collector)') return 'garbage collector';
  if (functionName === '(program)') return '(program): native, no JavaScript on the stack';
  if (url === '') {
    // Builtins have no url; JSON.parse and JSON.stringify are named by their method alone.
    return functionName === 'parse' || functionName === 'stringify'
      ? 'JSON (JSON.parse, JSON.stringify)'
      : undefined;
  }
  const path = url.replace(/\\/g, '/');
  if (path.includes('/node_modules/')) {
    if (path.includes('/eventsource-parser/')) return 'SSE parsing (eventsource-parser, dist/api/sse-reader)';
    if (path.includes('/undici/')) return 'HTTP (undici)';
    if (/\/node_modules\/(@node-red\/|node-red\/|lodash\.clonedeep\/)/.test(path)) {
      return 'Node-RED (send, routing, cloning: @node-red/*)';
    }
    return undefined;
  }
  if (path.includes('/dist/api/sse-reader')) return 'SSE parsing (eventsource-parser, dist/api/sse-reader)';
  if (path.includes('/dist/api/')) return 'package: dist/api (client, streams)';
  if (path.includes('/dist/device/')) return 'package: dist/device (connection, stream hub)';
  if (path.includes('/dist/zones/')) return 'package: dist/zones (readings, active zone tracker)';
  if (path.includes('/dist/')) return 'package: dist/nodes (node runtimes, glue)';
  if (/^node:(_tls_|tls$|internal\/tls\/|net$|internal\/stream_base_commons$)/.test(path)) {
    return 'TLS and sockets (node:tls, _tls_wrap, net, stream reads)';
  }
  if (/^node:(timers$|internal\/timers$)/.test(path)) return 'timers (node:timers)';
  return undefined;
}

/**
 * Node's own machinery that runs on behalf of whoever is on the stack; only when nothing on the stack
 * names its owner (an async iterator resumed from the microtask queue) is it counted for itself.
 */
function isPlumbing(frame: Frame): boolean {
  return (
    frame.functionName === 'runMicrotasks' ||
    /^node:(events$|internal\/streams\/|internal\/process\/(task_queues|promises)$|internal\/per_context\/primordials$)/.test(
      frame.url,
    )
  );
}

/** A node of a profile's call tree: a frame, its children's ids, and what was measured in the frame itself. */
interface TreeNode {
  id: number;
  callFrame: Frame;
  children?: number[];
}

export interface ProfileSummary {
  /** Per category: µs of the JavaScript thread (CPU, idle left out), or bytes still live (heap). */
  byCategory: Map<Category, number>;
  /** The sum of `byCategory`. */
  total: number;
  /** Self amount per function (`name url:line [category]`), for the hot spots behind a category. */
  self: Map<string, number>;
}

/** Sums `weights` (per tree node id) into CATEGORIES, each node counted for its nearest owner (see above). */
function summariseTree(nodes: readonly TreeNode[], weights: ReadonlyMap<number, number>): ProfileSummary {
  const byId = new Map(nodes.map((node) => [node.id, node]));
  const parentOf = new Map<number, number>();
  for (const node of nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  // Memoised per node: the nearest frame from it to the root that names a category, if any.
  const ownerOf = new Map<number, Category | undefined>();
  const owner = (id: number): Category | undefined => {
    if (ownerOf.has(id)) return ownerOf.get(id);
    const node = byId.get(id);
    const parent = parentOf.get(id);
    const found =
      (node === undefined ? undefined : ownCategory(node.callFrame)) ??
      (parent === undefined ? undefined : owner(parent));
    ownerOf.set(id, found);
    return found;
  };
  const hasPlumbing = (id: number | undefined): boolean => {
    if (id === undefined) return false;
    const node = byId.get(id);
    return node !== undefined && (isPlumbing(node.callFrame) || hasPlumbing(parentOf.get(id)));
  };
  const classify = (id: number): Category =>
    owner(id) ??
    (hasPlumbing(id)
      ? "Node's stream and promise plumbing (a body's Readable, for await, microtasks)"
      : 'other JavaScript');

  const byCategory = new Map<Category, number>(CATEGORIES.map((category) => [category, 0]));
  const self = new Map<string, number>();
  let total = 0;
  for (const [id, weight] of weights) {
    const node = byId.get(id);
    if (node === undefined || weight === 0) continue;
    const category = classify(id);
    byCategory.set(category, (byCategory.get(category) ?? 0) + weight);
    total += weight;
    const { functionName, url, lineNumber } = node.callFrame;
    const name = `${functionName || '(anonymous)'} ${url.replace(/^.*\/node_modules\//, '')}:${lineNumber + 1}`;
    // A general-purpose function is listed once per category its callers give it.
    const key = `${name} [${category}]`;
    self.set(key, (self.get(key) ?? 0) + weight);
  }
  return { byCategory, total, self };
}

/** Sums a CPU profile's sampled time into CATEGORIES (see the module comment); idle time is left out. */
export function summariseProfile(profile: CpuProfile): ProfileSummary {
  const idle = new Set(
    profile.nodes.filter((node) => node.callFrame.functionName === IDLE).map((node) => node.id),
  );
  const weights = new Map<number, number>();
  profile.samples.forEach((id, index) => {
    if (idle.has(id)) return;
    // A sample stands for the time until the next one.
    weights.set(id, (weights.get(id) ?? 0) + (profile.timeDeltas[index + 1] ?? 0));
  });
  return summariseTree(profile.nodes, weights);
}

/** A sampling heap profile, as `HeapProfiler.getSamplingProfile` answers it: a nested call tree. */
export interface HeapProfileNode {
  callFrame: Frame;
  /** Bytes of the sampled allocations made in this frame itself that are still live. */
  selfSize: number;
  id: number;
  children: HeapProfileNode[];
}

/** Sums the live bytes of a sampling heap profile into CATEGORIES, by the frame that allocated them. */
export function summariseHeapProfile(head: HeapProfileNode): ProfileSummary {
  const nodes: TreeNode[] = [];
  const weights = new Map<number, number>();
  const visit = (node: HeapProfileNode) => {
    nodes.push({ id: node.id, callFrame: node.callFrame, children: node.children.map((child) => child.id) });
    weights.set(node.id, node.selfSize);
    for (const child of node.children) visit(child);
  };
  visit(head);
  return summariseTree(nodes, weights);
}

const share = (part: number, whole: number) => `${((part / whole) * 100).toFixed(1)}%`;

/**
 * The categories per `per` (events, or devices) and as a share of the total, and the `top` functions by
 * self amount; `unit` names the amount per `per` and `scale` converts it (µs, or bytes to KiB).
 */
export function profileReport(
  summary: ProfileSummary,
  per: number,
  unit: string,
  { scale = 1, top = 15 }: { scale?: number; top?: number } = {},
): string {
  const amount = (value: number) => (value / scale / per).toFixed(2);
  const rows = CATEGORIES.map((category) => {
    const value = summary.byCategory.get(category) ?? 0;
    return [category, amount(value), share(value, summary.total)];
  });
  rows.push(['all', amount(summary.total), '100%']);
  const hottest = [...summary.self.entries()]
    .sort(([, a], [, b]) => b - a)
    .slice(0, top)
    .map(([name, value]) => [name, amount(value), share(value, summary.total)]);
  return [
    formatTable(['where it goes', unit, 'share'], rows),
    '',
    formatTable([`the ${top} functions with the most of it in themselves`, unit, 'share'], hottest),
  ].join('\n');
}

export interface ProfileSide {
  label: string;
  summary: ProfileSummary;
  /** What the amounts are divided by: events, devices. */
  per: number;
}

/** Two profiles' categories side by side, per `per` each, and what the first costs beyond the second. */
export function profileComparison(first: ProfileSide, second: ProfileSide, unit = 'µs/event'): string {
  const amount = (side: ProfileSide, category: Category | 'all') =>
    (category === 'all' ? side.summary.total : (side.summary.byCategory.get(category) ?? 0)) / side.per;
  const rows = [...CATEGORIES, 'all' as const].map((category) => {
    const [a, b] = [amount(first, category), amount(second, category)];
    return [category, a.toFixed(2), b.toFixed(2), `${a - b >= 0 ? '+' : ''}${(a - b).toFixed(2)}`];
  });
  return formatTable(
    [`where it goes (${unit})`, first.label, second.label, `${first.label} - ${second.label}`],
    rows,
  );
}
