/**
 * The package against the do-it-yourself flow: the same HTTP triggers, in one real Node-RED (a child
 * process), each flow against its own fresh simulator (a child process too) with the same settings.
 *
 * - package: `http in` -> room zones (output all) -> `http response` (bench/flows/package-flow.json)
 * - diy: `http in` -> function (log in unless a token is stored) -> `http request` login -> function
 *   (store the token, set Authorization and client headers) -> `http request` GET zones -> switch on 401
 *   -> function (forget the token, retry once) -> function (answer) -> `http response`
 *   (bench/flows/diy-flow.json)
 * - diy+queue: the same with a delay node after `http in` that lets 9 requests a second through and
 *   queues the rest, as a careful user who read about the device's limit might add
 *   (bench/flows/diy-queue-flow.json)
 *
 * Loads: a steady 5 triggers a second, a burst of 1,000 triggers at once right after the deploy (no
 * token yet), and the same burst after one trigger has logged in (the flow's best case). Every run
 * starts from an empty deploy, so no token or connection is left from the previous one.
 *
 * Counted: triggers answered 2xx with the device's zones, the device's own counters (requests, logins,
 * 429s), the most device requests within any one minute, the flow's node count (config nodes included)
 * and Node-RED's CPU time per trigger. A trigger not answered within a minute counts as unanswered (its
 * caller has given up); the device's counters are read when the last trigger was answered or gave up.
 *
 * Overridable: DIY_STEADY_PER_SECOND=5  DIY_STEADY_SECONDS=20  DIY_BURST=1000
 * DIY_FLOWS=package,diy,diy+queue  DIY_OVERLOAD_SECONDS=45 (adds a steady 10/s for that long; off by default)
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Agent, request } from 'undici';
import type { SimulatorCounters } from '../src/simulator/types';
import { delay } from '../test/support/wait';
import { stopAll } from './lib/cleanup';
import {
  closeCounterAgent,
  peakPerMinute,
  readRequests,
  readState,
  totalRequests,
} from './lib/device-counters';
import { type BenchNodeRed, type FlowNode, startBenchNodeRed } from './lib/node-red-child';
import { type HostedSimulator, startSimulatorProcess } from './lib/simulator-process';
import { envNumber, formatTable, machineLine, median } from './lib/table';

const STEADY_PER_SECOND = envNumber('DIY_STEADY_PER_SECOND', 5);
const STEADY_SECONDS = envNumber('DIY_STEADY_SECONDS', 20);
const BURST = envNumber('DIY_BURST', 1000);
const OVERLOAD_PER_SECOND = 10;
const OVERLOAD_SECONDS = process.env.DIY_OVERLOAD_SECONDS ? envNumber('DIY_OVERLOAD_SECONDS', 45) : 0;
/** The device's limit per client and minute (the simulator's default). */
const DEVICE_LIMIT_PER_MINUTE = 600;
/** Between a deploy and the start of a row. */
const SETTLE_MS = 1000;
/** A trigger not answered within this counts as unanswered. */
const TRIGGER_TIMEOUT_MS = 60_000;

interface FlowUnderTest {
  name: 'package' | 'diy' | 'diy+queue';
  file: string;
  path: string;
  /** The flow JSON pointed at one simulator. */
  flows(simulator: HostedSimulator): FlowNode[];
}

interface Outcome {
  ok: boolean;
  status: number;
  ms: number;
}

interface Load {
  name: string;
  triggers: string;
  drive(trigger: () => Promise<Outcome>): Promise<Outcome[]>;
  /** Flows this load is not run for. */
  skip?: FlowUnderTest['name'][];
}

interface Result {
  load: string;
  flow: FlowUnderTest['name'];
  triggers: string;
  outcomes: Outcome[];
  counters: SimulatorCounters;
  peakPerMinute: number;
  nodes: number;
  cpuMs: number;
  wallMs: number;
}

function readFlow(file: string): FlowNode[] {
  return JSON.parse(readFileSync(path.join(__dirname, 'flows', file), 'utf8')) as FlowNode[];
}

/** A do-it-yourself flow: its device address is the tab's DEVICE_URL variable. */
function diyFlow(name: FlowUnderTest['name'], file: string, urlPath: string): FlowUnderTest {
  return {
    name,
    file,
    path: urlPath,
    flows(simulator) {
      return readFlow(file).map((node) => {
        if (node.type !== 'tab' || !Array.isArray(node.env)) return node;
        const env = (node.env as Array<{ name: string; value: string; type: string }>).map((entry) =>
          entry.name === 'DEVICE_URL' ? { ...entry, value: simulator.url } : entry,
        );
        return { ...node, env };
      });
    },
  };
}

const FLOWS: FlowUnderTest[] = [
  {
    name: 'package',
    file: 'package-flow.json',
    path: '/package/zones',
    flows(simulator) {
      const url = new URL(simulator.url);
      return readFlow(this.file).map((node) =>
        node.type === 'conference-audio-device'
          ? { ...node, host: url.hostname, port: Number(url.port) }
          : node,
      );
    },
  },
  diyFlow('diy', 'diy-flow.json', '/diy/zones'),
  diyFlow('diy+queue', 'diy-queue-flow.json', '/diy-queue/zones'),
];

const SELECTED_FLOWS = (process.env.DIY_FLOWS ?? '').split(',').filter((name) => name.trim() !== '');
const RUN_FLOWS = FLOWS.filter((flow) => SELECTED_FLOWS.length === 0 || SELECTED_FLOWS.includes(flow.name));

/** Nodes a user places and configures: everything but the tab itself. */
function nodeCount(flows: FlowNode[]): number {
  return flows.filter((node) => node.type !== 'tab').length;
}

function burst(count: number): (trigger: () => Promise<Outcome>) => Promise<Outcome[]> {
  return (trigger) => Promise.all(Array.from({ length: count }, () => trigger()));
}

function steady(perSecond: number, seconds: number): (trigger: () => Promise<Outcome>) => Promise<Outcome[]> {
  return async (trigger) => {
    const count = Math.round(perSecond * seconds);
    const spacingMs = 1000 / perSecond;
    const start = performance.now();
    const pending: Promise<Outcome>[] = [];
    for (let index = 0; index < count; index++) {
      // Against the schedule, not the previous wait, so the rate holds even when a timer fires late.
      const wait = start + index * spacingMs - performance.now();
      if (wait > 0) await delay(wait);
      pending.push(trigger());
    }
    return Promise.all(pending);
  };
}

const LOADS: Load[] = [
  {
    name: `steady ${STEADY_PER_SECOND}/s`,
    triggers: String(Math.round(STEADY_PER_SECOND * STEADY_SECONDS)),
    drive: steady(STEADY_PER_SECOND, STEADY_SECONDS),
  },
  { name: `burst ${BURST}, cold`, triggers: String(BURST), drive: burst(BURST) },
  {
    name: `burst ${BURST}, warm`,
    triggers: `1+${BURST}`,
    async drive(trigger) {
      // One trigger first, answered before the burst: the token is stored, the connection open.
      const first = await trigger();
      return [first, ...(await burst(BURST)(trigger))];
    },
    // The queue, not the login, sets its pace: the cold burst already shows it, and this would add a minute.
    skip: ['diy+queue'],
  },
  // Opt-in: twice the package's ceiling of 300 requests a minute, long enough to reach it.
  ...(OVERLOAD_SECONDS > 0
    ? [
        {
          name: `steady ${OVERLOAD_PER_SECOND}/s`,
          triggers: String(OVERLOAD_PER_SECOND * OVERLOAD_SECONDS),
          drive: steady(OVERLOAD_PER_SECOND, OVERLOAD_SECONDS),
          skip: ['diy+queue'],
        } satisfies Load,
      ]
    : []),
];

const WARM_UP: Load = {
  name: 'warm-up',
  triggers: '100',
  async drive(trigger) {
    const outcomes: Outcome[] = [];
    for (let round = 0; round < 10; round++) outcomes.push(...(await burst(10)(trigger)));
    return outcomes;
  },
};

async function runOne(
  nodeRed: BenchNodeRed,
  driver: Agent,
  load: Load,
  flow: FlowUnderTest,
  simulator: HostedSimulator,
): Promise<Result> {
  const state = await readState(simulator.url);
  const zoneCount = Array.isArray(state.zones) ? state.zones.length : -1;
  const flows = flow.flows(simulator);
  // An empty deploy first: the flow context (the diy token) and the package's client start afresh.
  await nodeRed.deploy([]);
  await nodeRed.deploy(flows);

  const trigger = async (): Promise<Outcome> => {
    const start = performance.now();
    try {
      const response = await request(`${nodeRed.url}${flow.path}`, {
        dispatcher: driver,
        signal: AbortSignal.timeout(TRIGGER_TIMEOUT_MS),
      });
      const text = await response.body.text();
      const ms = performance.now() - start;
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        body = undefined;
      }
      const ok =
        response.statusCode >= 200 &&
        response.statusCode < 300 &&
        Array.isArray(body) &&
        body.length === zoneCount;
      return { ok, status: response.statusCode, ms };
    } catch {
      return { ok: false, status: 0, ms: performance.now() - start };
    }
  };

  // The deploy's garbage collected and its after-work done before the row's CPU is counted.
  await nodeRed.stats({ gc: true });
  await delay(SETTLE_MS);
  const before = await nodeRed.stats();
  const started = performance.now();
  const outcomes = await load.drive(trigger);
  const wallMs = performance.now() - started;
  const after = await nodeRed.stats();
  const [counters, requests] = await Promise.all([
    readState(simulator.url).then((read) => read.counters),
    readRequests(simulator.url),
  ]);
  return {
    load: load.name,
    flow: flow.name,
    triggers: load.triggers,
    outcomes,
    counters,
    peakPerMinute: peakPerMinute(requests),
    nodes: nodeCount(flows),
    cpuMs: (after.cpuMicros - before.cpuMicros) / 1000,
    wallMs,
  };
}

function ratio(diy: number, pkg: number): string {
  if (pkg === 0) return diy === 0 ? '1x' : `${diy}/0`;
  return `${(diy / pkg).toFixed(diy / pkg >= 10 ? 0 : 1)}x`;
}

function report(results: Result[]): string {
  const rows = results.map((result) => {
    const answered = result.outcomes.filter((outcome) => outcome.ok).length;
    const device = totalRequests(result.counters);
    return [
      result.load,
      result.flow,
      result.triggers,
      `${answered}`,
      `${device}`,
      `${result.peakPerMinute}`,
      `${result.counters.logins}`,
      `${result.counters.rateLimited}`,
      `${result.nodes}`,
      (result.cpuMs / result.outcomes.length).toFixed(2),
      `${Math.round(median(result.outcomes.map((outcome) => outcome.ms)))}`,
      `${Math.round(Math.max(...result.outcomes.map((outcome) => outcome.ms)))}`,
      `${(result.wallMs / 1000).toFixed(1)}`,
    ];
  });
  const ratios: string[][] = [];
  for (const load of LOADS) {
    const pkg = results.find((result) => result.load === load.name && result.flow === 'package');
    if (pkg === undefined) continue;
    for (const diy of results.filter((result) => result.load === load.name && result.flow !== 'package')) {
      ratios.push([
        load.name,
        diy.flow,
        ratio(totalRequests(diy.counters), totalRequests(pkg.counters)),
        ratio(diy.counters.logins, pkg.counters.logins),
        `${diy.outcomes.filter((o) => o.ok).length}/${pkg.outcomes.filter((o) => o.ok).length}`,
        ratio(diy.cpuMs, pkg.cpuMs),
        ratio(median(diy.outcomes.map((o) => o.ms)), median(pkg.outcomes.map((o) => o.ms))),
        ratio(diy.nodes, pkg.nodes),
      ]);
    }
  }
  const goals = results
    .filter((result) => result.flow === 'package')
    .map((result) => {
      const answered = result.outcomes.filter((outcome) => outcome.ok).length;
      const met =
        answered === result.outcomes.length &&
        result.peakPerMinute <= DEVICE_LIMIT_PER_MINUTE &&
        result.counters.rateLimited === 0 &&
        result.counters.logins === 1;
      return `  goal (${result.load}): every trigger answered, within the rate limit, one login: ${met ? 'met' : 'MISSED'}`;
    });
  return [
    formatTable(
      [
        'load',
        'flow',
        'triggers',
        'answered',
        'device req',
        'peak/min',
        'logins',
        '429s',
        'nodes',
        'NR cpu ms/trigger',
        'median ms',
        'max ms',
        'wall s',
      ],
      rows,
    ),
    '',
    formatTable(
      ['load', 'flow / package', 'device req', 'logins', 'answered', 'NR cpu', 'median ms', 'nodes'],
      ratios,
    ),
    '',
    ...goals,
  ].join('\n');
}

export async function run(): Promise<void> {
  // One simulator per row, and one per flow for the warm-up.
  const simulatorCount = (LOADS.length + 1) * RUN_FLOWS.length;
  const simulators = await startSimulatorProcess(simulatorCount);
  const driver = new Agent({ connections: null });
  let nodeRed: BenchNodeRed | undefined;
  try {
    nodeRed = await startBenchNodeRed();
    console.log(
      `diy-flow: the package's room zones node against a do-it-yourself flow of core nodes, ` +
        `both behind http in, one Node-RED child process, a fresh simulator (limit ` +
        `${DEVICE_LIMIT_PER_MINUTE}/min) per row`,
    );
    let next = 0;
    // Warm-up, not reported: Node-RED's and the package's code paths compiled before the first row.
    for (const flow of RUN_FLOWS) {
      const simulator = simulators.simulators[next++] as HostedSimulator;
      await runOne(nodeRed, driver, WARM_UP, flow, simulator);
    }
    const results: Result[] = [];
    for (const load of LOADS) {
      for (const flow of RUN_FLOWS.filter((candidate) => !load.skip?.includes(candidate.name))) {
        const simulator = simulators.simulators[next++] as HostedSimulator;
        results.push(await runOne(nodeRed, driver, load, flow, simulator));
      }
    }
    await nodeRed.deploy([]);
    console.log(report(results));
    console.log(
      "  NR cpu = Node-RED's CPU time (user + system) from the first trigger to the last answer, per trigger",
    );
    console.log(`  ${machineLine()}`);
    console.log('  reproduce: npm run build && node --require tsx/cjs bench/run.ts diy-flow');
  } finally {
    await stopAll([() => nodeRed?.stop(), () => driver.close(), closeCounterAgent, () => simulators.stop()]);
  }
}
