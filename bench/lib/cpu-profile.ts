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
import type { CpuProfile } from './node-red-child';
import { formatTable } from './table';

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

export interface ProfileSummary {
  /** µs of the JavaScript thread per category, idle left out. */
  micros: Map<Category, number>;
  /** The sum of `micros`. */
  busyMicros: number;
  /** Self time per function (`name url:line`), for the hot spots behind a category. */
  selfMicros: Map<string, { micros: number; category: Category }>;
}

/** Sums a profile's sampled time into CATEGORIES (see the module comment); idle time is left out. */
export function summariseProfile(profile: CpuProfile): ProfileSummary {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
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

  const micros = new Map<Category, number>(CATEGORIES.map((category) => [category, 0]));
  const selfMicros: ProfileSummary['selfMicros'] = new Map();
  let busyMicros = 0;
  profile.samples.forEach((id, index) => {
    const node = byId.get(id);
    if (node === undefined || node.callFrame.functionName === IDLE) return;
    // A sample stands for the time until the next one.
    const duration = profile.timeDeltas[index + 1] ?? 0;
    const category = classify(id);
    micros.set(category, (micros.get(category) ?? 0) + duration);
    busyMicros += duration;
    const { functionName, url, lineNumber } = node.callFrame;
    const name = `${functionName || '(anonymous)'} ${url.replace(/^.*\/node_modules\//, '')}:${lineNumber + 1}`;
    // A general-purpose function is listed once per category its callers give it.
    const key = `${name} [${category}]`;
    const self = selfMicros.get(key) ?? { micros: 0, category };
    self.micros += duration;
    selfMicros.set(key, self);
  });
  return { micros, busyMicros, selfMicros };
}

const share = (part: number, whole: number) => `${((part / whole) * 100).toFixed(1)}%`;

/** The categories as µs per event and share of the busy time, and the `top` functions by self time. */
export function profileReport(summary: ProfileSummary, events: number, top = 15): string {
  const perEvent = (micros: number) => (micros / events).toFixed(2);
  const rows = CATEGORIES.map((category) => {
    const micros = summary.micros.get(category) ?? 0;
    return [category, perEvent(micros), share(micros, summary.busyMicros)];
  });
  rows.push(['all (idle left out)', perEvent(summary.busyMicros), '100%']);
  const hottest = [...summary.selfMicros.entries()]
    .sort(([, a], [, b]) => b.micros - a.micros)
    .slice(0, top)
    .map(([name, self]) => [name, perEvent(self.micros), share(self.micros, summary.busyMicros)]);
  const json = summary.micros.get('JSON (JSON.parse, JSON.stringify)') ?? 0;
  return [
    formatTable(['where the time goes', 'µs/event', 'share'], rows),
    ...(json < summary.busyMicros / 1000
      ? ["  (JSON.parse showed no frame of its own: V8 counts it in its caller's self time, see below)"]
      : []),
    '',
    formatTable([`the ${top} functions with the most self time`, 'µs/event', 'share'], hottest),
  ].join('\n');
}
