/**
 * A real Node-RED in a child process of its own, with this package loaded from the project folder
 * (`nodesDir`, as the browser test does) and the bench-only node types beside it, for the benchmarks
 * that compare whole flows or count what one Node-RED process costs: its CPU and memory are its own, not
 * the bench's or the simulators'.
 *
 * Every deployment gets a small stats tab beside the benchmark's flows: `GET /_bench/stats` answers
 * Node-RED's own `process.cpuUsage()` and `process.memoryUsage()` (after a full garbage collection with
 * `?gc=1`); `GET /_bench/profile?action=start|stop` starts V8's sampling CPU profiler in Node-RED's own
 * thread (through an inspector session, so only the window between the two is profiled, not the start
 * or the deploy) and stops it, answering the `.cpuprofile` JSON; `action=heap-start|heap-stop` does the
 * same with V8's sampling heap profiler, answering the allocations still live, by where they were made.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { launchNodeRed, type NodeRedProcess } from '../../test/support/node-red-process';
import { delay, probeUntil } from '../../test/support/wait';
import { type CpuProfile, type HeapProfileNode, PROFILE_SAMPLING_MICROS } from './cpu-profile';
import { BENCH_NODES } from './embedded-node-red';
import { benchRedJs } from './node-red-choice';

const projectRoot = path.resolve(__dirname, '..', '..');

/** Node-RED flow JSON: one object per node, as the admin API takes it. */
export type FlowNode = Record<string, unknown> & { id: string; type: string };

export interface NodeRedStats {
  /** Microseconds of CPU since Node-RED started (user + system), as `process.cpuUsage()`. */
  cpuMicros: number;
  /** The part of `cpuMicros` spent in the kernel (system calls: sockets, memory). */
  systemMicros: number;
  /** Node-RED's process id: its main (JavaScript) thread has the same id (see proc-cpu.ts). */
  pid: number;
  /** `process.hrtime` in ms, to divide CPU by the same clock. */
  atMs: number;
  rss: number;
  heapUsed: number;
  heapTotal: number;
  external: number;
}

export interface BenchNodeRed {
  readonly url: string;
  /**
   * Full deployment of `flows` plus the stats tab; resolves once Node-RED has started them.
   */
  deploy(flows: FlowNode[]): Promise<void>;
  stats(options?: { gc?: boolean }): Promise<NodeRedStats>;
  /** Starts the CPU profiler in Node-RED's thread; `stopProfile` ends it and answers the profile. */
  startProfile(): Promise<void>;
  stopProfile(): Promise<CpuProfile>;
  /** Starts the sampling heap profiler; `stopHeapSampling` answers what is still live of the sampled. */
  startHeapSampling(): Promise<void>;
  stopHeapSampling(): Promise<HeapProfileNode>;
  output(): string;
  stop(): Promise<void>;
}

const STATS_TAB = 'bench-stats-tab';

/** Between two samples of the heap profiler, in bytes allocated on average (V8's default is 32 KiB). */
const HEAP_SAMPLING_BYTES = 4096;

/** The stats endpoint: built-in modules through the function node's `libs`, as a user could load them. */
function statsFlow(): FlowNode[] {
  const stats = [
    "if (msg.req.query.gc === '1') {",
    "  if (!context.get('gc')) {",
    "    v8.setFlagsFromString('--expose-gc');",
    "    context.set('gc', vm.runInNewContext('gc'));",
    '  }',
    "  context.get('gc')();",
    '}',
    'const cpu = proc.cpuUsage();',
    'const memory = proc.memoryUsage();',
    'const [seconds, nanos] = proc.hrtime();',
    'msg.payload = {',
    '  cpuMicros: cpu.user + cpu.system,',
    '  systemMicros: cpu.system,',
    '  pid: proc.pid,',
    '  atMs: seconds * 1e3 + nanos / 1e6,',
    '  rss: memory.rss, heapUsed: memory.heapUsed, heapTotal: memory.heapTotal, external: memory.external,',
    '};',
    'return msg;',
  ].join('\n');
  const profile = [
    "let session = context.get('session');",
    'if (!session) {',
    '  session = new inspector.Session();',
    '  session.connect();',
    "  context.set('session', session);",
    '}',
    'const post = (method, params) => new Promise((resolve, reject) =>',
    '  session.post(method, params || {}, (error, result) => (error ? reject(error) : resolve(result))));',
    'const action = msg.req.query.action;',
    'msg.payload = {};',
    "if (action === 'start') {",
    "  await post('Profiler.enable');",
    `  await post('Profiler.setSamplingInterval', { interval: ${PROFILE_SAMPLING_MICROS} });`,
    "  await post('Profiler.start');",
    "} else if (action === 'stop') {",
    "  msg.payload = JSON.stringify((await post('Profiler.stop')).profile);",
    "  await post('Profiler.disable');",
    "} else if (action === 'heap-start') {",
    "  await post('HeapProfiler.enable');",
    `  await post('HeapProfiler.startSampling', { samplingInterval: ${HEAP_SAMPLING_BYTES} });`,
    "} else if (action === 'heap-stop') {",
    "  msg.payload = JSON.stringify((await post('HeapProfiler.getSamplingProfile')).profile.head);",
    "  await post('HeapProfiler.stopSampling');",
    "  await post('HeapProfiler.disable');",
    '}',
    'return msg;',
  ].join('\n');
  return [
    { id: STATS_TAB, type: 'tab', label: 'bench stats', disabled: false, info: '' },
    {
      id: 'bench-stats-in',
      type: 'http in',
      z: STATS_TAB,
      url: '/_bench/stats',
      method: 'get',
      upload: false,
      wires: [['bench-stats-read']],
    },
    {
      id: 'bench-stats-read',
      type: 'function',
      z: STATS_TAB,
      name: 'process stats',
      func: stats,
      outputs: 1,
      libs: [
        { var: 'proc', module: 'process' },
        { var: 'v8', module: 'v8' },
        { var: 'vm', module: 'vm' },
      ],
      wires: [['bench-stats-out']],
    },
    { id: 'bench-stats-out', type: 'http response', z: STATS_TAB, statusCode: '', headers: {}, wires: [] },
    {
      id: 'bench-profile-in',
      type: 'http in',
      z: STATS_TAB,
      url: '/_bench/profile',
      method: 'get',
      upload: false,
      wires: [['bench-profile-run']],
    },
    {
      id: 'bench-profile-run',
      type: 'function',
      z: STATS_TAB,
      name: 'cpu profile',
      func: profile,
      outputs: 1,
      libs: [{ var: 'inspector', module: 'inspector' }],
      wires: [['bench-stats-out']],
    },
  ];
}

async function listedTypes(nodeRed: NodeRedProcess): Promise<Set<string>> {
  const response = await nodeRed.request('/nodes', { headers: { Accept: 'application/json' } });
  if (!response.ok) return new Set();
  const sets = (await response.json()) as Array<{ types?: unknown }>;
  return new Set(sets.flatMap((set) => (Array.isArray(set.types) ? (set.types as string[]) : [])));
}

/**
 * Starts Node-RED 4 from this project's node_modules (or `BENCH_RED_JS`) on this process's Node (or
 * `BENCH_NODE_BINARY`) with the package from `dist/` (build it first: `npm install` does, or
 * `npm run build`). `settings` is merged into settings.js.
 */
export async function startBenchNodeRed(settings: Record<string, unknown> = {}): Promise<BenchNodeRed> {
  if (!existsSync(path.join(projectRoot, 'dist', 'nodes', 'conference-audio-zones', 'runtime.js'))) {
    throw new Error('dist/ is missing: run `npm run build` before the benchmarks');
  }
  const userDir = mkdtempSync(path.join(os.tmpdir(), 'ca-bench-node-red-'));
  writeFileSync(path.join(userDir, 'flows.json'), '[]\n');
  let nodeRed: NodeRedProcess;
  try {
    nodeRed = await launchNodeRed({
      // To profile Node-RED, point this at a wrapper such as `exec node --cpu-prof "$@"`.
      ...(process.env.BENCH_NODE_BINARY ? { nodeBinary: process.env.BENCH_NODE_BINARY } : {}),
      redJs: benchRedJs,
      userDir,
      settings: {
        nodesDir: [projectRoot, BENCH_NODES],
        logging: { console: { level: 'warn', metrics: false, audit: false } },
        ...settings,
      },
      isReady: async (started) => (await listedTypes(started)).has('conference-audio-zones'),
    });
  } catch (error) {
    rmSync(userDir, { recursive: true, force: true });
    throw error;
  }

  const getJson = async (urlPath: string): Promise<unknown> => {
    const response = await nodeRed.request(urlPath);
    if (!response.ok) throw new Error(`${urlPath} answered ${response.status}: ${await response.text()}`);
    return response.json();
  };

  return {
    url: nodeRed.url,
    output: () => nodeRed.output(),
    async deploy(flows) {
      const response = await nodeRed.request('/flows', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'Node-RED-Deployment-Type': 'full' },
        body: JSON.stringify([...flows, ...statsFlow()]),
      });
      if (!response.ok) throw new Error(`POST /flows answered ${response.status}: ${await response.text()}`);
      // Node-RED answers the deploy before it starts the flows, and starts the tabs in order: once the
      // stats tab (the last one) answers, the benchmark's tabs have started too.
      await probeUntil(
        'the flows to start after the deploy',
        async () => {
          const probe = await nodeRed.request('/_bench/stats');
          await probe.arrayBuffer();
          return probe.ok ? true : undefined;
        },
        30_000,
        20,
      );
    },
    async stats(options = {}) {
      return (await getJson(`/_bench/stats${options.gc === true ? '?gc=1' : ''}`)) as NodeRedStats;
    },
    async startProfile() {
      await getJson('/_bench/profile?action=start');
    },
    async stopProfile() {
      return (await getJson('/_bench/profile?action=stop')) as CpuProfile;
    },
    async startHeapSampling() {
      await getJson('/_bench/profile?action=heap-start');
    },
    async stopHeapSampling() {
      return (await getJson('/_bench/profile?action=heap-stop')) as HeapProfileNode;
    },
    async stop() {
      try {
        await nodeRed.stop();
      } finally {
        rmSync(userDir, { recursive: true, force: true });
      }
    },
  };
}

/** Share of one core used between two stats readings (1 = one core busy all the time). */
export function cpuShare(before: NodeRedStats, after: NodeRedStats): number {
  return (after.cpuMicros - before.cpuMicros) / 1000 / (after.atMs - before.atMs);
}

/** What Node-RED used over one measuring window, and when the window was (epoch ms). */
export interface UsageWindow {
  cpu: number;
  heapUsed: number;
  startEpoch: number;
  endEpoch: number;
}

/**
 * Deploys `flows`, lets them settle, then measures the share of one core over a window and the heap after
 * a full garbage collection.
 */
export async function measureUsage(
  nodeRed: BenchNodeRed,
  flows: FlowNode[],
  settleSeconds: number,
  windowSeconds: number,
): Promise<UsageWindow> {
  await nodeRed.deploy(flows);
  await delay(settleSeconds * 1000);
  await nodeRed.stats({ gc: true });
  const startEpoch = Date.now();
  const first = await nodeRed.stats();
  await delay(windowSeconds * 1000);
  const last = await nodeRed.stats();
  const endEpoch = Date.now();
  const memory = await nodeRed.stats({ gc: true });
  return { cpu: cpuShare(first, last), heapUsed: memory.heapUsed, startEpoch, endEpoch };
}
