/**
 * Many rooms in one Node-RED: N device config nodes (pinned TLS), each with an active
 * zone node (the node's defaults: zone type Switching, hold 1000 ms, release 5000 ms) wired to nothing,
 * in one Node-RED 4.1 child process, against N simulators in child processes of their own (50 each) whose
 * talkers walk between the zones and send a soundLocation reading every 200 ms.
 *
 * Per size, after a full deploy: how long until every device streams (its data stream accepted, from the
 * simulators' request records) and the most logins in any one second; then, after settling, the share of
 * one core Node-RED used over a window, its heap after a full garbage collection, and the events the
 * simulators wrote in the window (per device: none missing, no reconnect). Size 0 (only the bench's stats
 * tab) is the baseline: per device = (size N - size 0) / N. CPU per event = the window's CPU / events.
 * Goals at 1,000 devices: at most 1.15x the CPU of the bare reader inside the same Node-RED (below), under
 * 64 KiB of heap per device.
 *
 * Baseline, after each size: Node-RED lets go of the devices and a process of its own holds the same
 * devices' data streams with undici and eventsource-parser alone (bench/lib/raw-streams-host.ts); its CPU
 * per event over the same window, beside the package's, tells the package's share from what TLS, HTTP and
 * SSE cost any client on this machine. Then the same reader inside the same Node-RED, in a bench-only node
 * per device that sends nothing (bench/lib/nodes/bench-bare-stream.js), measured as the package is: what
 * Node-RED's process costs any node that reads the streams (not while a profiler runs).
 *
 * ROOMS_PROFILE=1 measures one size (ROOMS_PROFILE_SIZE, 200) with V8's CPU profiler running in Node-RED
 * through the window, and prints where the time goes per event (bench/lib/cpu-profile.ts), then the same
 * for the baseline's process over its window, and the two side by side (unless ROOMS_BASELINE=0);
 * ROOMS_PROFILE=heap runs V8's sampling heap profiler from the deploy to the end of settling instead, and
 * prints which code allocated what each device still holds.
 *
 * Reproduce: npm run build && node --require tsx/cjs bench/run.ts many-rooms
 * Overridable: ROOMS_SIZES=200,500,1000 ROOMS_SETTLE_SECONDS=10 ROOMS_WINDOW_SECONDS=60 ROOMS_BASELINE=0
 * ROOMS_WARMUP_SECONDS=10 ROOMS_STREAMING_TIMEOUT_SECONDS=180 ROOMS_PROFILE=1 ROOMS_PROFILE_SIZE=200
 * ROOMS_BARE_READING=data (the baseline reads the body with `data` events; the package takes each chunk
 * from undici's dispatcher; `tls`: on a bare TLS socket, its chunked answer taken apart by hand, with no
 * HTTP library)
 * ROOMS_ROUNDS=2 (per size, the package's window and the bare reader's in Node-RED take turns this many
 * times; the goal's ratio is pooled over the rounds, so that a spell of contention on a shared machine falls
 * on both sides rather than on one)
 * ROOMS_PROFILE_FILE=/tmp/rooms.cpuprofile (keeps the profile; .heapprofile for heap)
 * ROOMS_STATE_RESYNC_SECONDS=300 (settings.js conferenceAudioDeviceStateResync; give a window as long)
 * ROOMS_STREAM_IDLE_SECONDS=15 (settings.js conferenceAudioDeviceStreamIdleTimeout: the silent change
 * stream is reopened after 18 times as long, 270 s, so that a five-minute window holds one reopen per device)
 * ROOMS_WINDOW_SECONDS=540 at the defaults: the window holds exactly one reopen of each device's silent change
 * stream (every 9 minutes) and nothing else, as a fleet's steady state does
 */
import { writeFileSync } from 'node:fs';
import { DEVICE_PATHS } from '../src/api/protocol';
import { CHANGE_STREAM_IDLE_FACTOR } from '../src/device/connection';
import { DEFAULT_RESYNC_SECONDS, STEADY_RESYNC_INTERVAL_MS } from '../src/device/state-settings';
import { ACTIVE_ZONE_DEFAULTS } from '../src/nodes/conference-audio-active-zone/definition';
import { delay } from '../test/support/wait';
import { type BareReading, READINGS } from './lib/bare-stream';
import { stopAll } from './lib/cleanup';
import {
  type CpuProfile,
  type HeapProfileNode,
  PROFILE_SAMPLING_MICROS,
  profileComparison,
  profileReport,
  summariseHeapProfile,
  summariseProfile,
} from './lib/cpu-profile';
import { mostWithin } from './lib/device-counters';
import { deviceFleet } from './lib/flows';
import { type BenchNodeRed, cpuShare, type FlowNode, startBenchNodeRed } from './lib/node-red-child';
import { type ProcCpu, procCpuSeconds } from './lib/proc-cpu';
import { startRawStreams } from './lib/raw-streams';
import {
  type FleetSample,
  fleetReport,
  GOAL_CPU_RATIO,
  GOAL_DEVICES,
  metOrMissed,
  type StartupReading,
} from './lib/rooms-report';
import {
  type HostedSimulator,
  type HostedStats,
  readAllStats as readAll,
  requestsBetween as requestsInWindow,
  type SimulatorProcess,
  simulatorsCpuSeconds,
  startSimulatorProcess,
} from './lib/simulator-process';
import { envNumber, envSizes, formatTable, machineLine } from './lib/table';

/** `1` or `cpu`: the CPU profiler through the window; `heap`: the sampling heap profiler from the deploy. */
const PROFILE_KINDS: Partial<Record<string, 'cpu' | 'heap'>> = { '1': 'cpu', cpu: 'cpu', heap: 'heap' };
const PROFILE_KIND = PROFILE_KINDS[process.env.ROOMS_PROFILE ?? ''];
const PROFILE = PROFILE_KIND !== undefined;
const PROFILE_SIZE = envNumber('ROOMS_PROFILE_SIZE', 200);
const SIZES = PROFILE ? [PROFILE_SIZE] : envSizes('ROOMS_SIZES', '200,500,1000');
const SETTLE_SECONDS = envNumber('ROOMS_SETTLE_SECONDS', 10);
/** 60 s: each device's state is read again once a minute (a TLS connection each), once per window. */
const WINDOW_SECONDS = envNumber('ROOMS_WINDOW_SECONDS', 60);
const WARMUP_SECONDS = envNumber('ROOMS_WARMUP_SECONDS', 10);
const STREAMING_TIMEOUT_SECONDS = envNumber('ROOMS_STREAMING_TIMEOUT_SECONDS', 180);
/**
 * Rounds per size of the package's window and the bare reader's in Node-RED, one after the other: a shared
 * machine's spells of contention fall on both sides alike, and the goal's ratio is pooled over them.
 */
const ROUNDS = envNumber('ROOMS_ROUNDS', 1);
const PER_PROCESS = 50;
/** ROOMS_BASELINE=0 leaves the raw baseline out (it doubles the run). */
const NO_BASELINE = process.env.ROOMS_BASELINE === '0';
/**
 * How the baseline's bare reader reads the body: `for await` (default), `data` events,
 * or `tls`, on a bare TLS socket with no HTTP library.
 */
const BARE_READING = bareReading(process.env.ROOMS_BARE_READING ?? 'for-await');
/**
 * The state's resync in seconds (settings.js `conferenceAudioDeviceStateResync`; the package's default of
 * 60 when not given). A window that is not a whole number of resyncs long holds more or fewer of them
 * than the steady state does: the run says so.
 */
const STATE_RESYNC_SECONDS = envNumber('ROOMS_STATE_RESYNC_SECONDS', DEFAULT_RESYNC_SECONDS);
const READING_INTERVAL_MS = 200;
/** settings.js `conferenceAudioDeviceStreamIdleTimeout` when given; the package's default otherwise. */
const STREAM_IDLE_SECONDS = process.env.ROOMS_STREAM_IDLE_SECONDS
  ? envNumber('ROOMS_STREAM_IDLE_SECONDS', 0)
  : undefined;

const BARE_READING_WORDS: Readonly<Record<BareReading, string>> = {
  'for-await': 'the body read with for await',
  data: "the body read with 'data' events",
  tls: 'the stream on a bare TLS socket with no HTTP library',
};

function bareReading(value: string): BareReading {
  const reading = READINGS.find((each) => each === value);
  if (reading === undefined)
    throw new Error(`ROOMS_BARE_READING: one of ${READINGS.join(', ')}, not '${value}'`);
  return reading;
}
const PASSWORD = 'bench-rooms-password';
const TAB = 'rooms-tab';
const POLL_MS = 250;

function roomsFlow(simulators: readonly HostedSimulator[]): FlowNode[] {
  const fleet = {
    tab: TAB,
    label: `${simulators.length} rooms`,
    devicePrefix: 'room-device',
    deviceName: 'room',
    password: PASSWORD,
  };
  return deviceFleet(simulators, fleet, (device, index) => ({
    id: `room-active-zone-${index}`,
    type: 'conference-audio-active-zone',
    z: TAB,
    device,
    // As the editor saves a new node.
    zoneType: ACTIVE_ZONE_DEFAULTS.zoneType,
    timing: ACTIVE_ZONE_DEFAULTS.timing,
    hold: ACTIVE_ZONE_DEFAULTS.holdMs,
    release: ACTIVE_ZONE_DEFAULTS.releaseMs,
    topic: '',
    wires: [[]],
  }));
}

/**
 * Resets the simulators' records, deploys `flows` (whose nodes open the data streams of `simulators`) and
 * waits until each of those devices has a data stream accepted; answers when each did, from the deploy.
 */
async function deployUntilStreaming(
  nodeRed: BenchNodeRed,
  processes: readonly SimulatorProcess[],
  simulators: readonly HostedSimulator[],
  flows: FlowNode[],
): Promise<{ deployedAt: number; startedMs: number; stats: HostedStats[]; firstStreams: number[] }> {
  await Promise.all(processes.map((child) => child.reset()));
  const deployedAt = Date.now();
  await nodeRed.deploy(flows);
  const startedMs = Date.now() - deployedAt;
  const deadline = deployedAt + STREAMING_TIMEOUT_SECONDS * 1000;
  let stats = (await readAll(processes)).slice(0, simulators.length);
  while (stats.some((each) => each.dataStreamTimes.length === 0) && Date.now() < deadline) {
    await delay(POLL_MS);
    stats = (await readAll(processes)).slice(0, simulators.length);
  }
  return {
    deployedAt,
    startedMs,
    stats,
    firstStreams: stats.map((each) => Math.min(...each.dataStreamTimes)),
  };
}

/** Deploys `size` rooms and waits until each of their devices has a data stream accepted. */
async function deployAndStream(
  nodeRed: BenchNodeRed,
  processes: readonly SimulatorProcess[],
  simulators: readonly HostedSimulator[],
): Promise<StartupReading> {
  const flows = simulators.length === 0 ? [] : roomsFlow(simulators);
  const { deployedAt, startedMs, stats, firstStreams } = await deployUntilStreaming(
    nodeRed,
    processes,
    simulators,
    flows,
  );
  const loginTimes = stats.flatMap((each) => each.loginTimes);
  return {
    startedMs,
    streaming: firstStreams.filter(Number.isFinite).length,
    allStreamingMs: simulators.length === 0 ? 0 : Math.max(...firstStreams) - deployedAt,
    logins: loginTimes.length,
    mostLoginsInASecond: mostWithin(loginTimes, 1000),
    loginSpreadMs: loginTimes.length === 0 ? 0 : Math.max(...loginTimes) - Math.min(...loginTimes),
    failedLogins: stats.reduce((sum, each) => sum + each.failedLogins, 0),
    rateLimited: stats.reduce((sum, each) => sum + each.rateLimited, 0),
  };
}

/** What one Node-RED used over the measuring window, and what the devices wrote meanwhile. */
type NodeRedWindow = Omit<FleetSample, 'size' | 'startup'> & { profile?: CpuProfile };

/**
 * After settling and a full garbage collection (then `afterSettling`), the window: Node-RED's CPU (all
 * threads, its main thread, the kernel's part) and the events the first `size` devices wrote, with the CPU
 * profiler on through it when `cpuProfile` says so; then the heap after a full collection.
 */
async function measureWindow(
  nodeRed: BenchNodeRed,
  processes: readonly SimulatorProcess[],
  size: number,
  { cpuProfile = false, afterSettling }: { cpuProfile?: boolean; afterSettling?: () => Promise<void> } = {},
): Promise<NodeRedWindow> {
  await delay(SETTLE_SECONDS * 1000);
  // What the previous size left behind is collected before the window.
  await nodeRed.stats({ gc: true });
  await afterSettling?.();
  // The simulators and Node-RED read at the same moment, so events and CPU cover the same window.
  const [before, first] = await Promise.all([readAll(processes), nodeRed.stats()]);
  const mainThreadBefore = procCpuSeconds(first.pid, first.pid);
  const simulatorCpuBefore = simulatorsCpuSeconds(processes);
  if (cpuProfile) await nodeRed.startProfile();
  await delay(WINDOW_SECONDS * 1000);
  const [after, last] = await Promise.all([readAll(processes), nodeRed.stats()]);
  const mainThreadAfter = procCpuSeconds(last.pid, last.pid);
  const simulatorCpuAfter = simulatorsCpuSeconds(processes);
  const profile = cpuProfile ? await nodeRed.stopProfile() : undefined;
  const memory = await nodeRed.stats({ gc: true });
  const seconds = (last.atMs - first.atMs) / 1000;
  const change = (pick: (stats: HostedStats) => number) =>
    after.slice(0, size).map((each, index) => pick(each) - pick(before[index] as HostedStats));
  const sum = (values: number[]) => values.reduce((total, each) => total + each, 0);
  const eventsPerDevice = change((each) => each.soundLocationsWritten);
  return {
    cpu: cpuShare(first, last),
    mainThreadCpu: (mainThreadAfter - mainThreadBefore) / seconds,
    systemCpu: (last.systemMicros - first.systemMicros) / 1e6 / seconds,
    heapUsed: memory.heapUsed,
    events: sum(eventsPerDevice),
    // Over each simulator's own window: Node-RED's stats may answer late when it is busy.
    eventsPerSecond: sum(
      change((each) => each.atMs).map((ms, index) => ((eventsPerDevice[index] as number) * 1000) / ms),
    ),
    eventsPerDevice,
    // The data streams: the change stream, silent here, is reopened every 9 minutes by design (its reads
    // show in the requests).
    reconnected: change((each) => each.requestsByPath[DEVICE_PATHS.data] ?? 0).filter((count) => count > 0)
      .length,
    requestsByPath: requestsInWindow(before.slice(0, size), after.slice(0, size)),
    connections: sum(change((each) => each.connections)),
    simulatorCores: (simulatorCpuAfter - simulatorCpuBefore) / seconds,
    ...(profile && { profile }),
  };
}

async function measureSize(
  nodeRed: BenchNodeRed,
  processes: readonly SimulatorProcess[],
  simulators: readonly HostedSimulator[],
): Promise<{ sample: FleetSample; profile?: CpuProfile; heap?: HeapProfileNode }> {
  const size = simulators.length;
  if (PROFILE_KIND === 'heap') await nodeRed.startHeapSampling();
  const startup = await deployAndStream(nodeRed, processes, simulators);
  let heap: HeapProfileNode | undefined;
  const { profile, ...window } = await measureWindow(nodeRed, processes, size, {
    cpuProfile: PROFILE_KIND === 'cpu',
    ...(PROFILE_KIND === 'heap' && {
      afterSettling: async () => {
        heap = await nodeRed.stopHeapSampling();
      },
    }),
  });
  const sample: FleetSample = { size, startup, ...window };
  return { sample, ...(profile && { profile }), ...(heap && { heap }) };
}

/** The baseline at one size: undici and eventsource-parser alone holding the same devices' data streams. */
interface RawSample {
  size: number;
  cpu: number;
  /** Shares of one core, as the package's: its main thread alone, and the kernel's part of all threads. */
  mainThreadCpu: number;
  systemCpu: number;
  events: number;
  broken: number;
  /** Its process's CPU profile over the window, when the CPU profiler is on. */
  profile?: CpuProfile;
}

/** One round at one size: the package's window, then the bare reader's inside the same Node-RED. */
interface Round {
  size: number;
  package: FleetSample;
  bare: NodeRedWindow;
}

async function measureRaw(
  nodeRed: BenchNodeRed,
  processes: readonly SimulatorProcess[],
  simulators: readonly HostedSimulator[],
): Promise<RawSample> {
  // Node-RED lets go of every device first, so that the simulators serve the baseline alone.
  await nodeRed.deploy([]);
  const raw = await startRawStreams(
    simulators.map((simulator) => simulator.url),
    PASSWORD,
    BARE_READING,
  );
  try {
    await delay(SETTLE_SECONDS * 1000);
    const [before, first] = await Promise.all([readAll(processes), raw.stats()]);
    const [allBefore, mainBefore] = [raw.cpu(), raw.cpu('main')];
    const startedAt = Date.now();
    if (PROFILE_KIND === 'cpu') await raw.startProfile();
    await delay(WINDOW_SECONDS * 1000);
    const [after, last] = await Promise.all([readAll(processes), raw.stats()]);
    const [allAfter, mainAfter] = [raw.cpu(), raw.cpu('main')];
    // Before the profile is fetched: sending it is not part of the window.
    const seconds = (Date.now() - startedAt) / 1000;
    const profile = PROFILE_KIND === 'cpu' ? await raw.stopProfile() : undefined;
    const share = (from: ProcCpu, to: ProcCpu) => (to.user + to.system - from.user - from.system) / seconds;
    const written = after
      .slice(0, simulators.length)
      .reduce(
        (sum, each, index) =>
          sum + each.soundLocationsWritten - (before[index] as HostedStats).soundLocationsWritten,
        0,
      );
    return {
      size: simulators.length,
      cpu: share(allBefore, allAfter),
      mainThreadCpu: share(mainBefore, mainAfter),
      systemCpu: (allAfter.system - allBefore.system) / seconds,
      events: written,
      broken: last.broken - first.broken,
      ...(profile && { profile }),
    };
  } finally {
    await raw.stop();
  }
}

/** Microseconds of CPU per event: a share of one core over the window, and the events written in it. */
function perEvent(cpu: number, events: number): number {
  return (cpu * WINDOW_SECONDS * 1e6) / events;
}

const BARE_TAB = 'bare-tab';

/** The baseline's bare reader in Node-RED: a bench-only node per device that holds its stream, wired to nothing. */
function bareFlow(simulators: readonly HostedSimulator[]): FlowNode[] {
  return [
    { id: BARE_TAB, type: 'tab', label: `${simulators.length} bare streams` },
    ...simulators.map((simulator, index) => ({
      id: `bare-stream-${index}`,
      type: 'bench-bare-stream',
      z: BARE_TAB,
      url: simulator.url,
      wires: [],
    })),
  ];
}

/**
 * The baseline's bare reader inside the same Node-RED (bench/lib/nodes/bench-bare-stream.js: it sends
 * nothing), measured as the package is: what Node-RED's process costs any node that reads the streams
 * (its heap, its collector, its event loop), before the node does anything with a reading.
 */
async function measureBareInNodeRed(
  nodeRed: BenchNodeRed,
  processes: readonly SimulatorProcess[],
  simulators: readonly HostedSimulator[],
): Promise<NodeRedWindow> {
  try {
    const { firstStreams } = await deployUntilStreaming(nodeRed, processes, simulators, bareFlow(simulators));
    const open = firstStreams.filter(Number.isFinite).length;
    if (open < simulators.length) {
      throw new Error(
        `only ${open} of ${simulators.length} bare streams opened in Node-RED:\n${nodeRed.output()}`,
      );
    }
    return await measureWindow(nodeRed, processes, simulators.length);
  } finally {
    await nodeRed.deploy([]);
  }
}

/**
 * The bare reader inside Node-RED beside the same reader alone and the package, per size and round; at the
 * goal's size, the ratio pooled over the rounds (all the package's CPU per event over all the bare
 * reader's), which a shared machine's spells of contention sway less than any one round.
 */
function bareInNodeRedReport(
  samples: readonly FleetSample[],
  raws: readonly RawSample[],
  rounds: readonly Round[],
): string {
  const base = samples.find((sample) => sample.size === 0);
  const goalRounds = rounds.filter((round) => round.size === GOAL_DEVICES);
  const goalLines: string[] = [];
  if (goalRounds.length > 0) {
    const sum = (pick: (round: Round) => number) => goalRounds.reduce((total, each) => total + pick(each), 0);
    const ratio =
      perEvent(
        sum((round) => round.package.cpu),
        sum((round) => round.package.events),
      ) /
      perEvent(
        sum((round) => round.bare.cpu),
        sum((round) => round.bare.events),
      );
    goalLines.push(
      `  goal at ${GOAL_DEVICES} devices: at most ${GOAL_CPU_RATIO}x the bare reader inside Node-RED: ` +
        `${ratio.toFixed(2)}x${goalRounds.length > 1 ? ` pooled over ${goalRounds.length} rounds` : ''}, ` +
        metOrMissed(ratio <= GOAL_CPU_RATIO),
    );
  }
  const rows = rounds.map((round, index) => {
    const { bare, package: sample } = round;
    const raw = raws.find((each) => each.size === round.size);
    const barePerEvent = perEvent(bare.cpu, bare.events);
    const packagePerEvent = perEvent(sample.cpu, sample.events);
    const ratio = packagePerEvent / barePerEvent;
    const number = rounds.slice(0, index + 1).filter((each) => each.size === round.size).length;
    return [
      String(round.size),
      String(number),
      `${(bare.cpu * 100).toFixed(1)}%`,
      `${(bare.mainThreadCpu * 100).toFixed(1)}%`,
      `${(bare.systemCpu * 100).toFixed(1)}%`,
      base === undefined ? '-' : `${((bare.heapUsed - base.heapUsed) / round.size / 1024).toFixed(0)} KiB`,
      `${barePerEvent.toFixed(1)} µs`,
      raw === undefined ? '-' : `${(barePerEvent / perEvent(raw.cpu, raw.events)).toFixed(2)}x`,
      `${(sample.cpu * 100).toFixed(1)}%`,
      `${ratio.toFixed(2)}x`,
      String(bare.reconnected),
    ];
  });
  return [
    '',
    '  the same bare reader inside Node-RED: a bench-only node per device holding its stream, sending nothing',
    "  (bench/lib/nodes/bench-bare-stream.js): what Node-RED's process costs any node that reads the streams",
    formatTable(
      [
        'devices',
        'round',
        'cpu',
        'main thread',
        'kernel',
        'heap per device',
        'cpu/event',
        'in Node-RED/alone',
        'package cpu',
        'package/in Node-RED',
        'streams reopened',
      ],
      rows,
    ),
    ...goalLines,
  ].join('\n');
}

function rawReport(samples: readonly FleetSample[], raws: readonly RawSample[]): string {
  const rows = raws.map((raw) => {
    const sample = samples.find((each) => each.size === raw.size);
    const rawPerEvent = perEvent(raw.cpu, raw.events);
    const packagePerEvent = sample === undefined ? Number.NaN : perEvent(sample.cpu, sample.events);
    return [
      String(raw.size),
      `${(raw.cpu * 100).toFixed(1)}%`,
      `${(raw.mainThreadCpu * 100).toFixed(1)}%`,
      `${(raw.systemCpu * 100).toFixed(1)}%`,
      `${rawPerEvent.toFixed(1)} µs`,
      sample === undefined ? '-' : `${(sample.cpu * 100).toFixed(1)}%`,
      `${packagePerEvent.toFixed(1)} µs`,
      `${(packagePerEvent / rawPerEvent).toFixed(2)}x`,
      String(raw.broken),
    ];
  });
  return [
    '',
    `  baseline: the same devices' data streams held by ${BARE_READING === 'tls' ? 'a bare TLS socket + eventsource-parser' : 'undici + eventsource-parser'} alone in a process of its own`,
    `  (a login and a stream per device, ${BARE_READING_WORDS[BARE_READING]}, ` +
      'JSON.parse of every reading; no Node-RED, no change stream, no zones)',
    formatTable(
      [
        'devices',
        'raw cpu',
        'main thread',
        'kernel',
        'raw cpu/event',
        'package cpu',
        'package cpu/event',
        'package/raw',
        'raw streams ended',
      ],
      rows,
    ),
  ].join('\n');
}

async function startSimulators(count: number): Promise<SimulatorProcess[]> {
  const options = { passwords: { general: PASSWORD }, soundLocationIntervalMs: READING_INTERVAL_MS };
  return Promise.all(
    Array.from({ length: Math.ceil(count / PER_PROCESS) }, (_, index) =>
      startSimulatorProcess(Math.min(PER_PROCESS, count - index * PER_PROCESS), options),
    ),
  );
}

function printProfiles(
  { sample, profile, heap }: Awaited<ReturnType<typeof measureSize>>,
  raw: RawSample | undefined,
): void {
  const file = process.env.ROOMS_PROFILE_FILE;
  if (profile !== undefined) {
    console.log(
      `\n  CPU profile of Node-RED's JavaScript thread over the window (${sample.events} events; sampling ` +
        `every ${PROFILE_SAMPLING_MICROS} µs, so the CPU above includes the profiler's own cost)`,
    );
    const summary = summariseProfile(profile);
    console.log(profileReport(summary, sample.events, 'µs/event'));
    if ((summary.byCategory.get('JSON (JSON.parse, JSON.stringify)') ?? 0) === 0) {
      console.log("  JSON.parse showed no frame of its own: V8 counts it in its caller's self time.");
    }
    if (raw?.profile !== undefined) {
      const bare = summariseProfile(raw.profile);
      console.log(
        `\n  CPU profile of the baseline's thread (undici + eventsource-parser alone) over its window ` +
          `(${raw.events} events, sampled the same way)`,
      );
      console.log(profileReport(bare, raw.events, 'µs/event'));
      console.log(
        '\n  side by side, per event: what the package costs beyond a bare reader, by where it goes',
      );
      console.log(
        profileComparison(
          { label: 'package', summary, per: sample.events },
          { label: 'bare', summary: bare, per: raw.events },
        ),
      );
    }
  }
  if (heap !== undefined) {
    console.log(
      `\n  heap profile: what the deploy of ${sample.size} rooms allocated and still holds after settling ` +
        'and a full GC, by where it was allocated (sampled), per device',
    );
    console.log(profileReport(summariseHeapProfile(heap), sample.size, 'KiB/device', { scale: 1024 }));
  }
  if (file !== undefined && (profile ?? heap) !== undefined) {
    writeFileSync(file, JSON.stringify(profile ?? { head: heap, samples: [] }));
    console.log(`  profile written to ${file} (open it in Chrome DevTools or VS Code)`);
  }
}

export async function run(): Promise<void> {
  const largest = Math.max(...SIZES);
  const processes = await startSimulators(largest);
  const simulators = processes.flatMap((child) => child.simulators);
  let nodeRed: BenchNodeRed | undefined;
  try {
    nodeRed = await startBenchNodeRed({
      benchBarePassword: PASSWORD,
      benchBareReading: BARE_READING,
      conferenceAudioDeviceStateResync: STATE_RESYNC_SECONDS,
      ...(STREAM_IDLE_SECONDS === undefined
        ? {}
        : { conferenceAudioDeviceStreamIdleTimeout: STREAM_IDLE_SECONDS }),
    });
    console.log(
      `many-rooms: one Node-RED child process, N devices each with an active zone node (hold ` +
        `${ACTIVE_ZONE_DEFAULTS.holdMs} ms, release ${ACTIVE_ZONE_DEFAULTS.releaseMs} ms), a soundLocation ` +
        `reading every ${READING_INTERVAL_MS} ms per device, simulators in ${processes.length} child ` +
        `process(es); settle ${SETTLE_SECONDS} s, window ${WINDOW_SECONDS} s; the state read again every ` +
        `${STATE_RESYNC_SECONDS} s, stretched to ${Math.max(STATE_RESYNC_SECONDS, STEADY_RESYNC_INTERVAL_MS / 1000)} s ` +
        'while its change stream streams without a break' +
        (STREAM_IDLE_SECONDS === undefined
          ? ''
          : `; data streams idle after ${STREAM_IDLE_SECONDS} s, silent change streams reopened after ${STREAM_IDLE_SECONDS * CHANGE_STREAM_IDLE_FACTOR} s`) +
        (PROFILE_KIND === undefined ? '' : `, ${PROFILE_KIND} profiler on`),
    );
    if (WINDOW_SECONDS % STATE_RESYNC_SECONDS !== 0)
      console.log(
        `  note: the window (${WINDOW_SECONDS} s) is not a whole number of state resyncs ` +
          `(${STATE_RESYNC_SECONDS} s): it holds more or fewer of them than the steady state`,
      );
    // Warm-up, not reported: V8 optimises the event path by how often it runs, so the first size
    // measured does not pay for compiling it.
    await nodeRed.deploy(roomsFlow(simulators.slice(0, Math.min(...SIZES))));
    await delay(WARMUP_SECONDS * 1000);
    const samples: FleetSample[] = [];
    let last: Awaited<ReturnType<typeof measureSize>> | undefined;
    const raws: RawSample[] = [];
    const rounds: Round[] = [];
    for (const size of PROFILE ? SIZES : [0, ...SIZES]) {
      const devices = simulators.slice(0, size);
      const baseline = PROFILE_KIND !== 'heap' && !NO_BASELINE && size > 0;
      for (let round = 1; round <= (baseline && !PROFILE ? ROUNDS : 1); round++) {
        last = await measureSize(nodeRed, processes, devices);
        samples.push(last.sample);
        if (!baseline) continue;
        if (round === 1) raws.push(await measureRaw(nodeRed, processes, devices));
        // Not under a profiler: the profile compares the package with the reader alone.
        if (!PROFILE) {
          rounds.push({
            size,
            package: last.sample,
            bare: await measureBareInNodeRed(nodeRed, processes, devices),
          });
        }
      }
    }
    await nodeRed.deploy([]);
    console.log(fleetReport(samples, READING_INTERVAL_MS));
    if (raws.length > 0) console.log(rawReport(samples, raws));
    if (rounds.length > 0) console.log(bareInNodeRedReport(samples, raws, rounds));
    if (last !== undefined) printProfiles(last, raws.at(-1));
    console.log(`  ${machineLine()}`);
    console.log('  reproduce: npm run build && node --require tsx/cjs bench/run.ts many-rooms');
  } finally {
    await stopAll([() => nodeRed?.stop(), () => Promise.all(processes.map((child) => child.stop()))]);
  }
}
