/**
 * Device control and state: how fast a write shows up as state, what following many devices'
 * state costs one Node-RED, and what the same use costs as a hand-written request flow.
 *
 * 1. Latency. A simulator and Node-RED in this process (one clock), one device config node (default
 *    audioInterval, 2 s) with a device control node (set by msg) and a device state node (audio, changes).
 *    A probe sends `microphoneMute` true or false (alternating) to the control node; the time until the
 *    state node's message carrying the new value reaches the next node is one sample; the control node's
 *    own read-back message is timed too. Probes are paced below the client's ceiling of 300 requests a
 *    minute (the state node's audio poll shares it), so no sample waits for the ceiling. p50 and p99.
 * 2. One use, counted: a mute toggle with its state read back, through the control and state nodes, and
 *    through a flow written by hand with the device request node (read, flip, write, read back, compare).
 *    Nodes in each flow and requests the simulator received per use (median of the repetitions).
 * 3. Many devices. One Node-RED in a child process with N device config nodes, each with a device state
 *    node (every group, changes, wired to nothing) at the default audioInterval (2 s), against N
 *    simulators in child processes of their own (50 per process). After settling: the share of one core
 *    Node-RED used over a window and its heap after a full garbage collection, against size 0 (only the
 *    bench's stats tab); per device = (size N - size 0) / N.
 *
 * Baseline of 1: a bare undici client doing the same write and read-back on the same simulator, its probes
 *    taking turns with the package's; and where the package's time goes, from undici's diagnostics channels.
 *
 * Goals: p99 under 20 ms, and at most 2x the bare client's; 200 devices under 10% of a core.
 * CONTROL_SIZES= (empty) leaves part 3 out.
 * Reproduce: npm run build && node --require tsx/cjs bench/run.ts control-state
 * Overridable: CONTROL_PROBES=120 CONTROL_PROBE_MS=600 CONTROL_USES=9 CONTROL_SIZES=200
 * CONTROL_SETTLE_SECONDS=15 CONTROL_WINDOW_SECONDS=30
 */

import { Session } from 'node:inspector/promises';
import { DEVICE_PATHS } from '../src/api/protocol';
import { type DeviceSimulator, startSimulator } from '../src/simulator';
import { delay } from '../test/support/wait';
import { phaseTable, RequestTimeline, rawWriteAndReadBack } from './lib/control-timeline';
import { type CpuProfile, PROFILE_SAMPLING_MICROS, profileReport, summariseProfile } from './lib/cpu-profile';
import { closeCounterAgent, mapLimited, readRequests } from './lib/device-counters';
import { type EmbeddedNodeRed, type FlowMessage, startEmbeddedNodeRed } from './lib/embedded-node-red';
import { deviceFleet, inactiveDebug, pinnedDevice } from './lib/flows';
import { type BenchNodeRed, type FlowNode, measureUsage, startBenchNodeRed } from './lib/node-red-child';
import { pinnedPool, rawLogin } from './lib/raw-device';
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

const PROBES = envNumber('CONTROL_PROBES', 120);
/** CONTROL_PROFILE=1: V8's CPU profiler over the measured probes (this process: Node-RED, simulator, bench). */
const PROFILE = process.env.CONTROL_PROFILE === '1';
const PROBE_SPACING_MS = envNumber('CONTROL_PROBE_MS', 600);
const USES = envNumber('CONTROL_USES', 9);
const SIZES = envSizes('CONTROL_SIZES', '200');
const SETTLE_SECONDS = envNumber('CONTROL_SETTLE_SECONDS', 15);
const WINDOW_SECONDS = envNumber('CONTROL_WINDOW_SECONDS', 30);
const PER_PROCESS = 50;
const PASSWORD = 'bench-control-password';
const TAB = 'control-tab';
const DEVICE = 'control-device';
const GOAL_P99_MS = 20;
const GOAL_CPU_SHARE = 0.1;
/** The state message with the new value at most this many times the bare client's write and read-back, at p99. */
const GOAL_RAW_RATIO = 2;

const ms = (value: number) => `${value.toFixed(2)} ms`;

/** The control and state nodes of one room, each wired to a sink whose arrivals are timed. */
function packageFlow(): FlowNode[] {
  return [
    {
      id: 'control',
      type: 'conference-audio-control',
      z: TAB,
      device: DEVICE,
      action: 'msg',
      value: '',
      valueType: 'str',
      wires: [['control-sink']],
    },
    inactiveDebug('control-sink', TAB),
    {
      id: 'state',
      type: 'conference-audio-state',
      z: TAB,
      device: DEVICE,
      groups: ['audio'],
      output: 'changes',
      topic: 'room',
      wires: [['state-sink']],
    },
    inactiveDebug('state-sink', TAB),
  ];
}

/**
 * The same use written by hand with the device request node: read the audio, flip the mute, write it,
 * read it back, and shape a state message (previous and changed) from the two reads.
 */
function handWrittenFlow(): FlowNode[] {
  const request = (id: string, method: string, next: string): FlowNode => ({
    id,
    type: 'conference-audio-request',
    z: TAB,
    device: DEVICE,
    method,
    path: DEVICE_PATHS.audio,
    wires: [[next]],
  });
  const fn = (id: string, func: string, next: string): FlowNode => ({
    id,
    type: 'function',
    z: TAB,
    func,
    outputs: 1,
    wires: [[next]],
  });
  return [
    request('diy-read', 'GET', 'diy-flip'),
    fn(
      'diy-flip',
      'msg.previous = msg.payload; msg.payload = { microphoneMute: !msg.payload.microphoneMute }; return msg;',
      'diy-write',
    ),
    request('diy-write', 'PATCH', 'diy-read-back'),
    request('diy-read-back', 'GET', 'diy-shape'),
    fn(
      'diy-shape',
      'msg.changed = Object.keys(msg.payload).filter((key) => msg.payload[key] !== msg.previous[key]); return msg;',
      'diy-sink',
    ),
    inactiveDebug('diy-sink', TAB),
  ];
}

function roomFlows(simulator: DeviceSimulator): FlowNode[] {
  return [
    { id: TAB, type: 'tab', label: 'control and state' },
    pinnedDevice(
      DEVICE,
      { url: simulator.url, fingerprint256: simulator.fingerprint256 },
      { credentials: { password: PASSWORD } },
    ),
    ...packageFlow(),
    ...handWrittenFlow(),
  ];
}

/** Resolves with the first message reaching `nodeId` that `wanted` accepts. */
function messageWhere(
  nodeRed: EmbeddedNodeRed,
  nodeId: string,
  wanted: (msg: FlowMessage) => boolean,
  timeoutMs = 10_000,
): Promise<FlowMessage> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      remove();
      reject(new Error(`no wanted message reached ${nodeId} within ${timeoutMs} ms`));
    }, timeoutMs);
    const remove = nodeRed.onMessage(nodeId, (msg) => {
      if (!wanted(msg)) return;
      clearTimeout(timer);
      remove();
      resolve(msg);
    });
  });
}

const mutedIn = (msg: FlowMessage) =>
  (msg.payload as { microphoneMute?: unknown } | undefined)?.microphoneMute;

interface Latencies {
  state: number[];
  control: number[];
  /** The bare undici client's write and read-back on the same simulator, probes taking turns with the package's. */
  raw: number[];
  /** Each package probe's phases (./lib/control-timeline.ts), when all its requests were seen. */
  phases: number[][];
  profile?: CpuProfile;
}

/** Starts V8's CPU profiler in this process; the function returned stops it and answers the profile. */
async function startProfiler(): Promise<() => Promise<CpuProfile>> {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: PROFILE_SAMPLING_MICROS });
  await session.post('Profiler.start');
  return async () => {
    const { profile } = await session.post('Profiler.stop');
    session.disconnect();
    return profile as unknown as CpuProfile;
  };
}

async function probeLatency(nodeRed: EmbeddedNodeRed, simulator: DeviceSimulator): Promise<Latencies> {
  const result: Latencies = { state: [], control: [], raw: [], phases: [] };
  const warmUp = Math.min(20, Math.ceil(PROBES / 5));
  const pool = pinnedPool(simulator.url, simulator.fingerprint256);
  const token = await rawLogin(pool, PASSWORD);
  const timeline = new RequestTimeline();
  let muted = simulator.getState().audio.microphoneMute === true;
  let stopProfiler: (() => Promise<CpuProfile>) | undefined;
  try {
    for (let probe = 0; probe < warmUp + PROBES; probe++) {
      if (PROFILE && probe === warmUp) stopProfiler = await startProfiler();
      muted = !muted;
      const target = muted;
      const stateSeen = messageWhere(nodeRed, 'state-sink', (msg) => mutedIn(msg) === target);
      const controlSeen = messageWhere(nodeRed, 'control-sink', (msg) => mutedIn(msg) === target);
      timeline.reset();
      const sentAt = performance.now();
      nodeRed.trigger('control', { action: 'microphoneMute', payload: target });
      const [stateAt, controlAt] = await Promise.all([
        stateSeen.then(() => performance.now()),
        controlSeen.then(() => performance.now()),
      ]);
      const phases = timeline.phases(sentAt, stateAt);
      // Half a spacing later, the bare client writes the same value on its own connection: the device
      // does the same work, and the state the package follows stays what the package wrote.
      await delay(PROBE_SPACING_MS / 2);
      const rawAt = performance.now();
      await rawWriteAndReadBack(pool, token, target);
      const rawMs = performance.now() - rawAt;
      if (probe >= warmUp) {
        result.state.push(stateAt - sentAt);
        result.control.push(controlAt - sentAt);
        result.raw.push(rawMs);
        if (phases !== undefined) result.phases.push(phases);
      }
      await delay(Math.max(0, PROBE_SPACING_MS - (performance.now() - sentAt)));
    }
    if (stopProfiler !== undefined) result.profile = await stopProfiler();
  } finally {
    timeline.close();
    await pool.close();
  }
  return result;
}

/** Requests the simulator received while `use` ran, per use; the median of USES repetitions. */
async function requestsPerUse(simulator: DeviceSimulator, use: () => Promise<unknown>): Promise<number> {
  const counts: number[] = [];
  for (let repetition = 0; repetition < USES; repetition++) {
    const before = simulator.requests.length;
    await use();
    counts.push(simulator.requests.length - before);
    await delay(PROBE_SPACING_MS);
  }
  return median(counts);
}

async function latencyAndCounts(): Promise<string[]> {
  const simulator = await startSimulator({ port: 0, passwords: { general: PASSWORD }, talker: 'off' });
  const nodeRed = await startEmbeddedNodeRed();
  try {
    const firstReading = messageWhere(nodeRed, 'state-sink', () => true);
    await nodeRed.deploy(roomFlows(simulator));
    await firstReading;
    const latencies = await probeLatency(nodeRed, simulator);

    const packageRequests = await requestsPerUse(simulator, () => {
      const target = simulator.getState().audio.microphoneMute !== true;
      const seen = messageWhere(nodeRed, 'state-sink', (msg) => mutedIn(msg) === target);
      nodeRed.trigger('control', { action: 'microphoneMute', payload: 'toggle' });
      return seen;
    });
    const handWrittenRequests = await requestsPerUse(simulator, () => {
      const seen = nodeRed.nextMessage('diy-sink');
      nodeRed.trigger('diy-read', {});
      return seen;
    });
    const packageNodes = packageFlow().filter((node) => node.type !== 'debug').length;
    const handWrittenNodes = handWrittenFlow().filter((node) => node.type !== 'debug').length;

    const p99 = percentile(latencies.state, 0.99);
    return [
      `latency: control message (microphoneMute) -> message reaches the next node; ${PROBES} probes, one every ${PROBE_SPACING_MS} ms, default audioInterval (2 s)`,
      formatTable(
        ['message', 'samples', 'p50', 'p99', 'max'],
        [
          [
            "device state node's message with the new value",
            String(latencies.state.length),
            ms(percentile(latencies.state, 0.5)),
            ms(p99),
            ms(Math.max(...latencies.state)),
          ],
          [
            "device control node's read-back",
            String(latencies.control.length),
            ms(percentile(latencies.control, 0.5)),
            ms(percentile(latencies.control, 0.99)),
            ms(Math.max(...latencies.control)),
          ],
          [
            'bare undici client: PATCH + GET, parsed',
            String(latencies.raw.length),
            ms(percentile(latencies.raw, 0.5)),
            ms(percentile(latencies.raw, 0.99)),
            ms(Math.max(...latencies.raw)),
          ],
        ],
      ),
      `  goal p99 < ${GOAL_P99_MS} ms: ${p99 < GOAL_P99_MS ? 'met' : 'MISSED'}`,
      `  package/bare client: p50 ${(percentile(latencies.state, 0.5) / percentile(latencies.raw, 0.5)).toFixed(2)}x, ` +
        `p99 ${(p99 / percentile(latencies.raw, 0.99)).toFixed(2)}x (goal p99 <= ${GOAL_RAW_RATIO}x: ` +
        `${p99 <= GOAL_RAW_RATIO * percentile(latencies.raw, 0.99) ? 'met' : 'MISSED'})`,
      '',
      `where the package's time goes (${latencies.phases.length} probes, undici's diagnostics channels):`,
      phaseTable(latencies.phases),
      ...(latencies.profile === undefined
        ? []
        : [
            '',
            'CPU profile over the measured probes (this process: Node-RED, the simulator, the bare client, the bench):',
            profileReport(summariseProfile(latencies.profile), latencies.state.length, 'µs/probe'),
          ]),
      '',
      `one use: mute toggle + its state read back (requests: median of ${USES} uses, counted at the simulator)`,
      formatTable(
        ['flow', 'nodes (config node aside)', 'requests per use'],
        [
          ['device control + device state', String(packageNodes), String(packageRequests)],
          [
            'hand-written: 3 device request + 2 function',
            String(handWrittenNodes),
            String(handWrittenRequests),
          ],
        ],
      ),
    ];
  } finally {
    await nodeRed.stop();
    await simulator.close();
  }
}

function fleetFlow(simulators: readonly HostedSimulator[]): FlowNode[] {
  const tab = 'control-fleet-tab';
  const fleet = {
    tab,
    label: `state fleet of ${simulators.length}`,
    devicePrefix: 'fleet-device',
    deviceName: 'device',
    password: PASSWORD,
  };
  return deviceFleet(simulators, fleet, (device, index) => ({
    id: `fleet-state-${index}`,
    type: 'conference-audio-state',
    z: tab,
    device,
    output: 'changes',
    topic: '',
    wires: [[]],
  }));
}

interface FleetSample extends UsageSample {
  /** Audio reads each device answered 200 in the window, a minute: proof that every state node polls. */
  audioReadsPerMinute: number[];
}

async function fleetSample(
  nodeRed: BenchNodeRed,
  simulators: readonly HostedSimulator[],
): Promise<FleetSample> {
  const flows = simulators.length === 0 ? [] : fleetFlow(simulators);
  const { cpu, heapUsed, startEpoch, endEpoch } = await measureUsage(
    nodeRed,
    flows,
    SETTLE_SECONDS,
    WINDOW_SECONDS,
  );
  const records = await mapLimited(
    simulators.map((simulator) => simulator.url),
    20,
    readRequests,
  );
  const minutes = (endEpoch - startEpoch) / 60_000;
  const audioReadsPerMinute = records.map(
    (requests) =>
      requests.filter(
        (recorded) =>
          recorded.path === DEVICE_PATHS.audio &&
          recorded.status === 200 &&
          recorded.time >= startEpoch &&
          recorded.time < endEpoch,
      ).length / minutes,
  );
  return {
    size: simulators.length,
    cpu,
    heapUsed,
    audioReadsPerMinute,
  };
}

async function fleet(): Promise<string[]> {
  const largest = Math.max(...SIZES);
  const processes = await startSimulatorProcesses(largest, PER_PROCESS, {
    passwords: { general: PASSWORD },
    talker: 'off',
  });
  const simulators = processes.flatMap((child) => child.simulators);
  const nodeRed = await startBenchNodeRed();
  const samples: FleetSample[] = [];
  try {
    samples.push(await fleetSample(nodeRed, []));
    for (const size of SIZES) samples.push(await fleetSample(nodeRed, simulators.slice(0, size)));
  } finally {
    await nodeRed.stop();
    await closeCounterAgent();
    await Promise.all(processes.map((child) => child.stop()));
  }
  const base = samples[0] as FleetSample;
  const rows = samples.map((sample) => [
    ...usageCells(sample, base),
    sample.size === 0 ? '-' : Math.min(...sample.audioReadsPerMinute).toFixed(1),
  ]);
  const top = samples.find((sample) => sample.size === 200);
  const goal =
    top === undefined
      ? '  (size 200 not measured)'
      : `  at 200 devices: ${(top.cpu * 100).toFixed(1)}% of a core (goal < ${GOAL_CPU_SHARE * 100}%: ${top.cpu < GOAL_CPU_SHARE ? 'met' : 'MISSED'})`;
  return [
    `many devices: one Node-RED, N devices with a device state node each (every group), audio read every 2 s (settle ${SETTLE_SECONDS} s, window ${WINDOW_SECONDS} s)`,
    formatTable([...USAGE_HEADER, 'audio reads/min (fewest)'], rows),
    goal,
    '  audio reads/min: GET /api/v1/audio answered 200 in the window, at the device that had the fewest (30 = every 2 s)',
  ];
}

export async function run(): Promise<void> {
  const lines = [...(await latencyAndCounts()), '', ...(SIZES.length === 0 ? [] : await fleet())];
  lines.push(
    `  ${machineLine()}`,
    '  reproduce: npm run build && node --require tsx/cjs bench/run.ts control-state',
  );
  console.log(lines.join('\n'));
}
