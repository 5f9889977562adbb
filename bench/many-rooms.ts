/**
 * Many rooms in one Node-RED (issue 20, item 2): N device config nodes (pinned TLS), each with an active
 * zone node (the node's defaults: zone type Switching, hold 1000 ms, release 5000 ms) wired to nothing,
 * in one Node-RED 4.1 child process, against N simulators in child processes of their own (50 each) whose
 * talkers walk between the zones and send a soundLocation reading every 200 ms.
 *
 * Per size, after a full deploy: how long until every device streams (its data stream accepted, from the
 * simulators' request records) and the most logins in any one second; then, after settling, the share of
 * one core Node-RED used over a window, its heap after a full garbage collection, and the events the
 * simulators wrote in the window (per device: none missing, no reconnect). Size 0 (only the bench's stats
 * tab) is the baseline: per device = (size N - size 0) / N. CPU per event = the window's CPU / events.
 * Goals at 1,000 devices: under 25% of one core, under 64 KiB of heap per device.
 *
 * Baseline, after each size: Node-RED lets go of the devices and a process of its own holds the same
 * devices' data streams with undici and eventsource-parser alone (bench/lib/raw-streams-host.ts); its CPU
 * per event over the same window, beside the package's, tells the package's share from what TLS, HTTP and
 * SSE cost any client on this machine.
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
 * ROOMS_PROFILE_FILE=/tmp/rooms.cpuprofile (keeps the profile; .heapprofile for heap)
 */
import { writeFileSync } from 'node:fs';
import { ACTIVE_ZONE_DEFAULTS } from '../src/nodes/conference-audio-active-zone/definition';
import { delay } from '../test/support/wait';
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
import { pinnedDevice } from './lib/flows';
import { type BenchNodeRed, cpuShare, type FlowNode, startBenchNodeRed } from './lib/node-red-child';
import { type ProcCpu, procCpuSeconds } from './lib/proc-cpu';
import { startRawStreams } from './lib/raw-streams';
import { type FleetSample, fleetReport, type StartupReading } from './lib/rooms-report';
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
const PER_PROCESS = 50;
/** ROOMS_BASELINE=0 leaves the raw baseline out (it doubles the run). */
const NO_BASELINE = process.env.ROOMS_BASELINE === '0';
const READING_INTERVAL_MS = 200;
const PASSWORD = 'bench-rooms-password';
const TAB = 'rooms-tab';
const POLL_MS = 250;

function roomsFlow(simulators: readonly HostedSimulator[]): FlowNode[] {
  const flows: FlowNode[] = [{ id: TAB, type: 'tab', label: `${simulators.length} rooms` }];
  simulators.forEach((simulator, index) => {
    const device = `room-device-${index}`;
    flows.push(
      pinnedDevice(device, simulator, { name: `room ${index}`, credentials: { password: PASSWORD } }),
      {
        id: `room-active-zone-${index}`,
        type: 'conference-audio-active-zone',
        z: TAB,
        device,
        // As the editor saves a new node.
        zoneType: ACTIVE_ZONE_DEFAULTS.zoneType,
        timing: ACTIVE_ZONE_DEFAULTS.timing,
        hold: ACTIVE_ZONE_DEFAULTS.holdMs,
        release: ACTIVE_ZONE_DEFAULTS.releaseMs,
        releaseUnit: ACTIVE_ZONE_DEFAULTS.releaseUnit,
        topic: '',
        wires: [[]],
      },
    );
  });
  return flows;
}

/** Deploys `size` rooms and waits until each of their devices has a data stream accepted. */
async function deployAndStream(
  nodeRed: BenchNodeRed,
  processes: readonly SimulatorProcess[],
  simulators: readonly HostedSimulator[],
): Promise<StartupReading> {
  await Promise.all(processes.map((child) => child.reset()));
  const deployedAt = Date.now();
  await nodeRed.deploy(simulators.length === 0 ? [] : roomsFlow(simulators));
  const startedMs = Date.now() - deployedAt;
  const deadline = deployedAt + STREAMING_TIMEOUT_SECONDS * 1000;
  let stats = (await readAll(processes)).slice(0, simulators.length);
  while (stats.some((each) => each.dataStreamTimes.length === 0) && Date.now() < deadline) {
    await delay(POLL_MS);
    stats = (await readAll(processes)).slice(0, simulators.length);
  }
  const firstStreams = stats.map((each) => Math.min(...each.dataStreamTimes));
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

async function measureSize(
  nodeRed: BenchNodeRed,
  processes: readonly SimulatorProcess[],
  simulators: readonly HostedSimulator[],
): Promise<{ sample: FleetSample; profile?: CpuProfile; heap?: HeapProfileNode }> {
  const size = simulators.length;
  if (PROFILE_KIND === 'heap') await nodeRed.startHeapSampling();
  const startup = await deployAndStream(nodeRed, processes, simulators);
  await delay(SETTLE_SECONDS * 1000);
  // What the previous size left behind is collected before the window.
  await nodeRed.stats({ gc: true });
  const heap = PROFILE_KIND === 'heap' ? await nodeRed.stopHeapSampling() : undefined;
  // The simulators and Node-RED read at the same moment, so events and CPU cover the same window.
  const [before, first] = await Promise.all([readAll(processes), nodeRed.stats()]);
  const mainThreadBefore = procCpuSeconds(first.pid, first.pid);
  const simulatorCpuBefore = simulatorsCpuSeconds(processes);
  if (PROFILE_KIND === 'cpu') await nodeRed.startProfile();
  await delay(WINDOW_SECONDS * 1000);
  const [after, last] = await Promise.all([readAll(processes), nodeRed.stats()]);
  const mainThreadAfter = procCpuSeconds(last.pid, last.pid);
  const simulatorCpuAfter = simulatorsCpuSeconds(processes);
  const profile = PROFILE_KIND === 'cpu' ? await nodeRed.stopProfile() : undefined;
  const memory = await nodeRed.stats({ gc: true });
  const seconds = (last.atMs - first.atMs) / 1000;
  const change = (pick: (stats: HostedStats) => number) =>
    after.slice(0, size).map((each, index) => pick(each) - pick(before[index] as HostedStats));
  const sum = (values: number[]) => values.reduce((total, each) => total + each, 0);
  const eventsPerDevice = change((each) => each.soundLocationsWritten);
  // Over each simulator's own window: Node-RED's stats may answer late when it is busy.
  const eventsPerSecond = sum(
    change((each) => each.atMs).map((ms, index) => ((eventsPerDevice[index] as number) * 1000) / ms),
  );
  const sample: FleetSample = {
    size,
    startup,
    cpu: cpuShare(first, last),
    mainThreadCpu: (mainThreadAfter - mainThreadBefore) / seconds,
    systemCpu: (last.systemMicros - first.systemMicros) / 1e6 / seconds,
    heapUsed: memory.heapUsed,
    events: sum(eventsPerDevice),
    eventsPerSecond,
    eventsPerDevice,
    reconnected: change((each) => each.streamConnections).filter((count) => count > 0).length,
    requestsByPath: requestsInWindow(before.slice(0, size), after.slice(0, size)),
    connections: sum(change((each) => each.connections)),
    simulatorCores: (simulatorCpuAfter - simulatorCpuBefore) / seconds,
  };
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

function rawReport(samples: readonly FleetSample[], raws: readonly RawSample[]): string {
  const rows = raws.map((raw) => {
    const sample = samples.find((each) => each.size === raw.size);
    const rawPerEvent = (raw.cpu * WINDOW_SECONDS * 1e6) / raw.events;
    const packagePerEvent =
      sample === undefined ? Number.NaN : (sample.cpu * WINDOW_SECONDS * 1e6) / sample.events;
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
    "  baseline: the same devices' data streams held by undici + eventsource-parser alone in a process of its own",
    '  (a login and a stream per device, JSON.parse of every reading; no Node-RED, no change stream, no zones)',
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
    nodeRed = await startBenchNodeRed();
    console.log(
      `many-rooms: one Node-RED child process, N devices each with an active zone node (hold ` +
        `${ACTIVE_ZONE_DEFAULTS.holdMs} ms, release ${ACTIVE_ZONE_DEFAULTS.releaseMs} ms), a soundLocation ` +
        `reading every ${READING_INTERVAL_MS} ms per device, simulators in ${processes.length} child ` +
        `process(es); settle ${SETTLE_SECONDS} s, window ${WINDOW_SECONDS} s` +
        (PROFILE_KIND === undefined ? '' : `, ${PROFILE_KIND} profiler on`),
    );
    // Warm-up, not reported: V8 optimises the event path by how often it runs, so the first size
    // measured does not pay for compiling it.
    await nodeRed.deploy(roomsFlow(simulators.slice(0, Math.min(...SIZES))));
    await delay(WARMUP_SECONDS * 1000);
    const samples: FleetSample[] = [];
    let last: Awaited<ReturnType<typeof measureSize>> | undefined;
    const raws: RawSample[] = [];
    for (const size of PROFILE ? SIZES : [0, ...SIZES]) {
      last = await measureSize(nodeRed, processes, simulators.slice(0, size));
      samples.push(last.sample);
      if (PROFILE_KIND !== 'heap' && !NO_BASELINE && size > 0)
        raws.push(await measureRaw(nodeRed, processes, simulators.slice(0, size)));
    }
    await nodeRed.deploy([]);
    console.log(fleetReport(samples, READING_INTERVAL_MS));
    if (raws.length > 0) console.log(rawReport(samples, raws));
    if (last !== undefined) printProfiles(last, raws.at(-1));
    console.log(`  ${machineLine()}`);
    console.log('  reproduce: npm run build && node --require tsx/cjs bench/run.ts many-rooms');
  } finally {
    await stopAll([() => nodeRed?.stop(), () => Promise.all(processes.map((child) => child.stop()))]);
  }
}
