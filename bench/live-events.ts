/**
 * The live side: how long an event takes from the device to a message, and what holding many devices'
 * streams costs one Node-RED.
 *
 * 1. Latency. Simulators and Node-RED 4.1 in this process (one clock): a simulator writes a change event
 *    carrying `performance.now()`; a device events node (events: changes, every event) sends it on; the
 *    time until that message reaches the next node is one sample. Baselines in the same run: the same
 *    events read by undici and eventsource-parser alone (what a hand-written client would do), on a
 *    stream of its own, and that reader inside Node-RED, sending each event through a bench-only node
 *    (bench/lib/nodes/bench-raw-events.js): what Node-RED's delivery costs any node. Two ways (see
 *    `LatencyMode`): in turn, each side with its own simulator and the probes going to one after the
 *    other, and on the same event (package and raw), one simulator writing each probe to both streams.
 *    50 probes a second a side; p50 and p99 of each, and their ratios.
 * 2. Many devices. One Node-RED in a child process with N device config nodes, each with a device events
 *    node (soundLocation, rate 5, wired to nothing), against N simulators in child processes of their own
 *    (50 per process) whose talkers send a reading every 200 ms. After settling: the share of one core
 *    Node-RED used over a window and its heap after a full garbage collection, against size 0 (only the
 *    bench's stats tab); per device = (size N - size 0) / N. Goal: under 20% of a core and under 100 KiB
 *    per device at 200.
 *
 * Reproduce: npm run build && node --require tsx/cjs bench/run.ts live-events
 * Overridable: LIVE_PROBES=2000 LIVE_ROUNDS=1 LIVE_SIZES=50,200 LIVE_SETTLE_SECONDS=10 LIVE_WINDOW_SECONDS=20
 * LIVE_ROUNDS=N measures in turn N times, each with a Node-RED and simulators of its own, and adds each
 * round's ratios and the p99 of all rounds' probes together; an empty LIVE_SIZES leaves part 2 out.
 */
import { createParser } from 'eventsource-parser';
import { Agent, request } from 'undici';
import { type DeviceSimulator, startSimulator } from '../src/simulator';
import { delay } from '../test/support/wait';
import { startEmbeddedNodeRed } from './lib/embedded-node-red';
import { deviceFleet, inactiveDebug, pinnedDevice } from './lib/flows';
import { type BenchNodeRed, type FlowNode, measureUsage, startBenchNodeRed } from './lib/node-red-child';
import { type HostedSimulator, startSimulatorProcesses } from './lib/simulator-process';
import {
  envNumber,
  envSizes,
  formatTable,
  machineLine,
  median,
  percentile,
  USAGE_HEADER,
  type UsageSample,
  usageCells,
} from './lib/table';

const PROBES = envNumber('LIVE_PROBES', 2000);
const ROUNDS = Math.floor(envNumber('LIVE_ROUNDS', 1));
const PROBES_PER_SECOND = 50;
const SIZES = envSizes('LIVE_SIZES', '50,200');
const SETTLE_SECONDS = envNumber('LIVE_SETTLE_SECONDS', 10);
const WINDOW_SECONDS = envNumber('LIVE_WINDOW_SECONDS', 20);
const PER_PROCESS = 50;
const PASSWORD = 'bench-live-password';
const PROBE_EVENT = 'benchProbe';

const ms = (value: number) => `${value.toFixed(3)} ms`;

/** The baseline reader: one SSE stream read by undici and eventsource-parser, nothing else. */
async function rawStream(
  simulator: DeviceSimulator,
  onEvent: (name: string, data: unknown) => void,
): Promise<() => Promise<void>> {
  const agent = new Agent({ connect: { rejectUnauthorized: false } });
  const headers = { 'Vendor-Client-Id': 'bench-raw', 'Vendor-Client-Version': '1.0.0' };
  const login = await request(`${simulator.url}/api/v1/auth/login`, {
    method: 'POST',
    dispatcher: agent,
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ account: 'general', password: PASSWORD }),
  });
  const { authParameters } = (await login.body.json()) as { authParameters: string };
  const abort = new AbortController();
  const answer = await request(`${simulator.url}/api/v1/events`, {
    dispatcher: agent,
    signal: abort.signal,
    headers: { ...headers, accept: 'text/event-stream', authorization: `Vendor ${authParameters}` },
  });
  const parser = createParser({
    onEvent: (event) => onEvent(event.event ?? 'message', JSON.parse(event.data)),
  });
  const reading = (async () => {
    try {
      for await (const chunk of answer.body) parser.feed((chunk as Buffer).toString('utf8'));
    } catch {
      // Aborted at the end of the benchmark.
    }
  })();
  return async () => {
    abort.abort();
    await reading;
    await agent.close();
  };
}

/**
 * How the sides meet the probes. `in turn`: each side has a simulator of its own and the probes go to
 * one after the other, so each event is read while nothing else runs. `same event`: one simulator writes
 * each probe to the package's and the raw stream at once; whichever side's socket is read second waits
 * for the first, and the package's message, delivered by Node-RED in a later turn of the event loop,
 * also waits for the raw side's reading.
 */
type LatencyMode = 'in turn' | 'same event';

/** The sides: the package, the raw reader sending through a bench-only node, and the raw reader alone. */
type Side = 'package' | 'raw in Node-RED' | 'raw';

const SIDE_LABELS: Readonly<Record<Side, string>> = {
  package: 'package (device events node)',
  'raw in Node-RED': 'raw in Node-RED (bench-only node)',
  raw: 'raw (undici + eventsource-parser)',
};

interface LatencyResult {
  mode: LatencyMode;
  latencies: Map<Side, number[]>;
}

const sentAtOf = (name: string, data: unknown): number | undefined =>
  name === PROBE_EVENT ? (data as { sentAt: number }).sentAt : undefined;

async function latency(mode: LatencyMode): Promise<LatencyResult> {
  const options = { port: 0, passwords: { general: PASSWORD }, talker: 'off' } as const;
  const shared = await startSimulator(options);
  const sides: Side[] = mode === 'in turn' ? ['package', 'raw in Node-RED', 'raw'] : ['package', 'raw'];
  const simulators = new Map<Side, DeviceSimulator>([['package', shared]]);
  for (const side of sides.slice(1)) {
    simulators.set(side, mode === 'in turn' ? await startSimulator(options) : shared);
  }
  const latencies = new Map<Side, number[]>(sides.map((side) => [side, []]));
  const record = (side: Side, sentAt: number | undefined) => {
    if (sentAt !== undefined) latencies.get(side)?.push(performance.now() - sentAt);
  };
  const stops: Array<() => Promise<void>> = [];
  const inNodeRed = simulators.get('raw in Node-RED');
  const nodeRed = await startEmbeddedNodeRed({
    settings: {
      benchRawEvents: (send: (name: string, data: unknown) => void) => {
        if (inNodeRed !== undefined) void rawStream(inNodeRed, send).then((stop) => stops.push(stop));
      },
    },
  });
  try {
    const tab = 'live-latency-tab';
    const packageSimulator = simulators.get('package') as DeviceSimulator;
    await nodeRed.deploy([
      { id: tab, type: 'tab', label: 'latency' },
      pinnedDevice(
        'live-device',
        { url: packageSimulator.url, fingerprint256: packageSimulator.fingerprint256 },
        { credentials: { password: PASSWORD } },
      ),
      {
        id: 'live-events',
        type: 'conference-audio-events',
        z: tab,
        device: 'live-device',
        events: ['changes'],
        rate: 0,
        topic: '',
        wires: [['live-sink']],
      },
      inactiveDebug('live-sink', tab),
      ...(inNodeRed === undefined
        ? []
        : [
            { id: 'raw-events', type: 'bench-raw-events', z: tab, wires: [['raw-sink']] },
            inactiveDebug('raw-sink', tab),
          ]),
    ]);
    nodeRed.onMessage('live-sink', (msg) => record('package', sentAtOf(String(msg.event), msg.payload)));
    nodeRed.onMessage('raw-sink', (msg) =>
      record('raw in Node-RED', sentAtOf(String(msg.event), msg.payload)),
    );
    stops.push(
      await rawStream(simulators.get('raw') as DeviceSimulator, (name, data) =>
        record('raw', sentAtOf(name, data)),
      ),
    );
    const distinct = [...new Set(simulators.values())];
    const deadline = Date.now() + 10_000;
    const open = () => distinct.reduce((sum, simulator) => sum + simulator.openStreams, 0);
    while (open() < sides.length && Date.now() < deadline) await delay(20);
    const gapMs = 1000 / PROBES_PER_SECOND / distinct.length;
    const probe = async (index: number) => {
      for (const simulator of distinct) {
        simulator.emitChange(PROBE_EVENT, { sentAt: performance.now(), probe: index });
        await delay(gapMs);
      }
    };
    // A warm-up the results leave out.
    for (let warm = 0; warm < 100; warm++) await probe(warm);
    await delay(200);
    for (const values of latencies.values()) values.length = 0;
    for (let index = 0; index < PROBES; index++) await probe(index);
    await delay(500);
  } finally {
    for (const stop of stops) await stop();
    await nodeRed.stop();
    for (const simulator of new Set(simulators.values())) await simulator.close();
  }
  return { mode, latencies };
}

const ratioOf = (
  latencies: ReadonlyMap<Side, readonly number[]>,
  side: Side,
  share: number,
  against: Side = 'raw',
): number => percentile(latencies.get(side) ?? [], share) / percentile(latencies.get(against) ?? [], share);

function latencyLines(results: readonly LatencyResult[]): string[] {
  const rows: string[][] = [];
  const ratios: string[] = [];
  for (const { mode, latencies } of results) {
    const p = (side: Side, share: number) => percentile(latencies.get(side) ?? [], share);
    for (const [side, values] of latencies) {
      rows.push([mode, SIDE_LABELS[side], String(values.length), ms(p(side, 0.5)), ms(p(side, 0.99))]);
    }
    const ratio = (side: Side, share: number) => ratioOf(latencies, side, share).toFixed(2);
    const goal =
      mode === 'in turn'
        ? ` (goal p99 <= 1.3x: ${ratioOf(latencies, 'package', 0.99) <= 1.3 ? 'met' : 'missed'})`
        : '';
    ratios.push(
      `  package/raw, ${mode}: p50 ${ratio('package', 0.5)}x, p99 ${ratio('package', 0.99)}x${goal}`,
    );
    if (latencies.has('raw in Node-RED')) {
      ratios.push(
        `  raw in Node-RED/raw, ${mode}: p50 ${ratio('raw in Node-RED', 0.5)}x, p99 ${ratio('raw in Node-RED', 0.99)}x (what Node-RED's delivery costs any node)`,
      );
    }
  }
  return [
    `latency: device writes an event -> the node's message reaches the next node (${PROBES} probes a side, ${PROBES_PER_SECOND}/s a side)`,
    formatTable(['probes', 'side', 'events', 'p50', 'p99'], rows),
    ...ratios,
  ];
}

/** `values` drawn again at random, as many, with replacement: one bootstrap sample. */
function resample(values: readonly number[]): number[] {
  return Array.from(values, () => values[Math.floor(Math.random() * values.length)] as number);
}

/**
 * Several rounds in turn: the probes of all rounds pooled per side, each round's p99 ratios (runs of the
 * same code lie far apart, which one round cannot show), and the pooled p99 ratio with a 95% bootstrap
 * interval. The interval counts the probes' spread only, not the rounds': the rounds' own ratios show that.
 */
function roundLines(rounds: readonly LatencyResult[]): string[] {
  const sides = [...(rounds[0]?.latencies.keys() ?? [])];
  const pooled = new Map<Side, number[]>(
    sides.map((side) => [side, rounds.flatMap((round) => round.latencies.get(side) ?? [])]),
  );
  const rows = sides.map((side) => {
    const values = pooled.get(side) ?? [];
    return [
      SIDE_LABELS[side],
      String(values.length),
      ms(percentile(values, 0.5)),
      ms(percentile(values, 0.99)),
    ];
  });
  const pairs: Array<[Side, Side]> = [
    ['package', 'raw'],
    ['raw in Node-RED', 'raw'],
    ['package', 'raw in Node-RED'],
  ];
  const lines = [
    `in turn, ${rounds.length} rounds of ${PROBES} probes a side, each with a Node-RED and simulators of its own; all probes pooled:`,
    formatTable(['side', 'events', 'p50', 'p99'], rows),
  ];
  for (const [side, against] of pairs) {
    if (!pooled.has(side) || !pooled.has(against)) continue;
    const each = rounds.map((round) => ratioOf(round.latencies, side, 0.99, against));
    const draws = Array.from({ length: 1000 }, () => {
      const drawn = new Map<Side, number[]>([
        [side, resample(pooled.get(side) ?? [])],
        [against, resample(pooled.get(against) ?? [])],
      ]);
      return ratioOf(drawn, side, 0.99, against);
    });
    lines.push(
      `  ${side}/${against}: p99 ${ratioOf(pooled, side, 0.99, against).toFixed(2)}x ` +
        `(95% interval ${percentile(draws, 0.025).toFixed(2)}x to ${percentile(draws, 0.975).toFixed(2)}x), ` +
        `p50 ${ratioOf(pooled, side, 0.5, against).toFixed(2)}x; p99 per round ` +
        `${each.map((ratio) => `${ratio.toFixed(2)}x`).join(', ')} (median ${median(each).toFixed(2)}x)`,
    );
  }
  return lines;
}

function fleetFlow(simulators: readonly HostedSimulator[]): FlowNode[] {
  const tab = 'live-fleet-tab';
  const fleet = {
    tab,
    label: `live fleet of ${simulators.length}`,
    devicePrefix: 'live-device',
    deviceName: 'device',
    password: PASSWORD,
  };
  return deviceFleet(simulators, fleet, (device, index) => ({
    id: `live-events-${index}`,
    type: 'conference-audio-events',
    z: tab,
    device,
    events: ['soundLocation'],
    rate: 5,
    topic: '',
    wires: [[]],
  }));
}

async function fleetSample(
  nodeRed: BenchNodeRed,
  simulators: readonly HostedSimulator[],
): Promise<UsageSample> {
  const flows = simulators.length === 0 ? [] : fleetFlow(simulators);
  const { cpu, heapUsed } = await measureUsage(nodeRed, flows, SETTLE_SECONDS, WINDOW_SECONDS);
  return { size: simulators.length, cpu, heapUsed };
}

async function fleet(): Promise<string[]> {
  const largest = Math.max(...SIZES);
  const processes = await startSimulatorProcesses(largest, PER_PROCESS, {
    passwords: { general: PASSWORD },
    soundLocationIntervalMs: 200,
    metricsIntervalMs: 5000,
  });
  const simulators = processes.flatMap((child) => child.simulators);
  const nodeRed = await startBenchNodeRed();
  const samples: UsageSample[] = [];
  try {
    samples.push(await fleetSample(nodeRed, []));
    for (const size of SIZES) samples.push(await fleetSample(nodeRed, simulators.slice(0, size)));
  } finally {
    await nodeRed.stop();
    await Promise.all(processes.map((child) => child.stop()));
  }
  const base = samples[0] as UsageSample;
  const rows = samples.map((sample) => usageCells(sample, base));
  const top = samples.find((sample) => sample.size === 200);
  const goal =
    top === undefined
      ? '  (size 200 not measured)'
      : `  at 200 devices: ${(top.cpu * 100).toFixed(1)}% of a core (goal < 20%: ${top.cpu < 0.2 ? 'met' : 'missed'}), ` +
        `${((top.heapUsed - base.heapUsed) / 200 / 1024).toFixed(0)} KiB per device (goal < 100 KiB: ` +
        `${(top.heapUsed - base.heapUsed) / 200 / 1024 < 100 ? 'met' : 'missed'})`;
  return [
    `many devices: one Node-RED holding N devices' data streams, 5 soundLocation events a second each (settle ${SETTLE_SECONDS} s, window ${WINDOW_SECONDS} s)`,
    formatTable(USAGE_HEADER, rows),
    goal,
  ];
}

export async function run(): Promise<void> {
  const rounds: LatencyResult[] = [];
  for (let round = 0; round < ROUNDS; round++) rounds.push(await latency('in turn'));
  const latencies = [rounds[0] as LatencyResult, await latency('same event')];
  const lines = [...latencyLines(latencies)];
  if (ROUNDS > 1) lines.push('', ...roundLines(rounds));
  if (SIZES.length > 0) lines.push('', ...(await fleet()));
  lines.push(
    `  ${machineLine()}`,
    '  reproduce: npm run build && node --require tsx/cjs bench/run.ts live-events',
  );
  console.log(lines.join('\n'));
}
