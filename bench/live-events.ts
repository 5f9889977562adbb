/**
 * The live side: how long an event takes from the device to a message, and what holding many devices'
 * streams costs one Node-RED.
 *
 * 1. Latency. Simulators and Node-RED 4.1 in this process (one clock): a simulator writes a change event
 *    carrying `performance.now()`; a device events node (events: changes, every event) sends it on; the
 *    time until that message reaches the next node is one sample. Baseline in the same run: the same
 *    events read by undici and eventsource-parser alone (what a hand-written client would do), on a
 *    stream of its own. Two ways (see `LatencyMode`): in turn, each side with its own simulator and the
 *    probes alternating between them, and on the same event, one simulator writing each probe to both
 *    streams. 50 probes a second a side; p50 and p99 of each, and their ratio.
 * 2. Many devices. One Node-RED in a child process with N device config nodes, each with a device events
 *    node (soundLocation, rate 5, wired to nothing), against N simulators in child processes of their own
 *    (50 per process) whose talkers send a reading every 200 ms. After settling: the share of one core
 *    Node-RED used over a window and its heap after a full garbage collection, against size 0 (only the
 *    bench's stats tab); per device = (size N - size 0) / N. Goal: under 20% of a core and under 100 KiB
 *    per device at 200.
 *
 * Reproduce: npm run build && node --require tsx/cjs bench/run.ts live-events
 * Overridable: LIVE_PROBES=2000 LIVE_SIZES=50,200 LIVE_SETTLE_SECONDS=10 LIVE_WINDOW_SECONDS=20
 */
import { createParser } from 'eventsource-parser';
import { Agent, request } from 'undici';
import { type DeviceSimulator, startSimulator } from '../src/simulator';
import { delay } from '../test/support/wait';
import { startEmbeddedNodeRed } from './lib/embedded-node-red';
import { inactiveDebug, pinnedDevice } from './lib/flows';
import { type BenchNodeRed, type FlowNode, measureUsage, startBenchNodeRed } from './lib/node-red-child';
import { type HostedSimulator, startSimulatorProcesses } from './lib/simulator-process';
import {
  envNumber,
  envSizes,
  formatTable,
  machineLine,
  percentile,
  USAGE_HEADER,
  type UsageSample,
  usageCells,
} from './lib/table';

const PROBES = envNumber('LIVE_PROBES', 2000);
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
  onProbe: (sentAt: number) => void,
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
    onEvent: (event) => {
      if (event.event === PROBE_EVENT) onProbe((JSON.parse(event.data) as { sentAt: number }).sentAt);
    },
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
 * How the two sides meet the probes. `in turn`: each side has a simulator of its own and the probes
 * alternate between them, so each event is read while nothing else runs. `same event`: one simulator
 * writes each probe to both streams at once; whichever side's socket is read second waits for the
 * first, and the package's message, delivered by Node-RED in a later turn of the event loop, also waits
 * for the raw side's reading.
 */
type LatencyMode = 'in turn' | 'same event';

interface LatencyResult {
  mode: LatencyMode;
  packageMs: number[];
  rawMs: number[];
}

async function latency(mode: LatencyMode): Promise<LatencyResult> {
  const options = { port: 0, passwords: { general: PASSWORD }, talker: 'off' } as const;
  const simulator = await startSimulator(options);
  const rawSimulator = mode === 'in turn' ? await startSimulator(options) : simulator;
  const nodeRed = await startEmbeddedNodeRed();
  const packageLatencies: number[] = [];
  const rawLatencies: number[] = [];
  let stopRaw: (() => Promise<void>) | undefined;
  try {
    const tab = 'live-latency-tab';
    await nodeRed.deploy([
      { id: tab, type: 'tab', label: 'latency' },
      pinnedDevice(
        'live-device',
        { url: simulator.url, fingerprint256: simulator.fingerprint256 },
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
    ]);
    nodeRed.onMessage('live-sink', (msg) => {
      if (msg.event !== PROBE_EVENT) return;
      packageLatencies.push(performance.now() - (msg.payload as { sentAt: number }).sentAt);
    });
    stopRaw = await rawStream(rawSimulator, (sentAt) => rawLatencies.push(performance.now() - sentAt));
    const deadline = Date.now() + 10_000;
    const streams = () =>
      mode === 'in turn' ? simulator.openStreams + rawSimulator.openStreams : simulator.openStreams;
    while (streams() < 2 && Date.now() < deadline) await delay(20);
    const gapMs = 1000 / PROBES_PER_SECOND / (mode === 'in turn' ? 2 : 1);
    const probe = async (index: number) => {
      simulator.emitChange(PROBE_EVENT, { sentAt: performance.now(), probe: index });
      await delay(gapMs);
      if (mode !== 'in turn') return;
      rawSimulator.emitChange(PROBE_EVENT, { sentAt: performance.now(), probe: index });
      await delay(gapMs);
    };
    // A warm-up the results leave out.
    for (let warm = 0; warm < 100; warm++) await probe(warm);
    await delay(200);
    packageLatencies.length = 0;
    rawLatencies.length = 0;
    for (let index = 0; index < PROBES; index++) await probe(index);
    await delay(500);
  } finally {
    await stopRaw?.();
    await nodeRed.stop();
    await simulator.close();
    if (rawSimulator !== simulator) await rawSimulator.close();
  }
  return { mode, packageMs: packageLatencies, rawMs: rawLatencies };
}

function latencyLines(results: readonly LatencyResult[]): string[] {
  const rows: string[][] = [];
  const ratios: string[] = [];
  for (const { mode, packageMs, rawMs } of results) {
    const [p50, p99] = [percentile(packageMs, 0.5), percentile(packageMs, 0.99)];
    const [rawP50, rawP99] = [percentile(rawMs, 0.5), percentile(rawMs, 0.99)];
    rows.push(
      [mode, 'package (device events node)', String(packageMs.length), ms(p50), ms(p99)],
      [mode, 'raw (undici + eventsource-parser)', String(rawMs.length), ms(rawP50), ms(rawP99)],
    );
    const goal = mode === 'in turn' ? ` (goal p99 <= 1.3x: ${p99 / rawP99 <= 1.3 ? 'met' : 'missed'})` : '';
    ratios.push(
      `  package/raw, ${mode}: p50 ${(p50 / rawP50).toFixed(2)}x, p99 ${(p99 / rawP99).toFixed(2)}x${goal}`,
    );
  }
  return [
    `latency: device writes an event -> the device events node's message reaches the next node (${PROBES} probes a side, ${PROBES_PER_SECOND}/s a side)`,
    formatTable(['probes', 'side', 'events', 'p50', 'p99'], rows),
    ...ratios,
  ];
}

function fleetFlow(simulators: readonly HostedSimulator[]): FlowNode[] {
  const tab = 'live-fleet-tab';
  const flows: FlowNode[] = [{ id: tab, type: 'tab', label: `live fleet of ${simulators.length}` }];
  simulators.forEach((simulator, index) => {
    const device = `live-device-${index}`;
    flows.push(
      pinnedDevice(device, simulator, { name: `device ${index}`, credentials: { password: PASSWORD } }),
      {
        id: `live-events-${index}`,
        type: 'conference-audio-events',
        z: tab,
        device,
        events: ['soundLocation'],
        rate: 5,
        topic: '',
        wires: [[]],
      },
    );
  });
  return flows;
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
  const latencies = [await latency('in turn'), await latency('same event')];
  const lines = [...latencyLines(latencies), '', ...(await fleet())];
  lines.push(
    `  ${machineLine()}`,
    '  reproduce: npm run build && node --require tsx/cjs bench/run.ts live-events',
  );
  console.log(lines.join('\n'));
}
