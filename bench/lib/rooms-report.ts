/** The many-rooms benchmark's samples and how they are printed: the table, the startup, the goals. */
import os from 'node:os';
import { formatTable } from './table';

/** From a full deploy until every device streams, read from the simulators' request records. */
export interface StartupReading {
  /** Until Node-RED had started the flows (the deploy's POST answered and the stats tab answering). */
  startedMs: number;
  /** Devices with a data stream accepted since the deploy. */
  streaming: number;
  /** Until the last device's first data stream was accepted; not finite when some never streamed. */
  allStreamingMs: number;
  logins: number;
  /** The most logins answered within any one second (sliding). */
  mostLoginsInASecond: number;
  /** From the first login to the last. */
  loginSpreadMs: number;
  failedLogins: number;
  rateLimited: number;
}

export interface FleetSample {
  size: number;
  startup: StartupReading;
  /** Share of one core Node-RED used over the window (every thread, user and kernel). */
  cpu: number;
  /** The same of its main thread alone (JavaScript, and what it calls: TLS, system calls). */
  mainThreadCpu: number;
  /** The kernel's part of `cpu` (system calls: sockets, memory). */
  systemCpu: number;
  /** Heap after a full garbage collection at the end of the window, bytes. */
  heapUsed: number;
  /** soundLocation events the simulators wrote in the window. */
  events: number;
  /** The same a second, over the simulators' own clock. */
  eventsPerSecond: number;
  eventsPerDevice: number[];
  /** Devices whose simulator accepted a stream connection during the window. */
  reconnected: number;
  /** Device requests the simulators answered in the window (streams included), by path. */
  requestsByPath: Map<string, number>;
  /** TCP connections the simulators accepted in the window. */
  connections: number;
  /** Cores the simulator processes used over the window. */
  simulatorCores: number;
}

/**
 * The goals at 1,000 devices. A share of a core differs threefold between machines, so the CPU goal is the
 * ratio to the bare reader inside the same Node-RED in the same run; the share is reported beside it.
 */
export const GOAL_DEVICES = 1000;
export const GOAL_CPU_RATIO = 1.15;
const GOAL_HEAP_PER_DEVICE = 64 * 1024;
/** Below this share of the simulators' pace, the machine (not Node-RED) set the pace. */
const PACE_KEPT = 0.95;

const percent = (share: number) => `${(share * 100).toFixed(1)}%`;
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const kib = (bytes: number) => `${(bytes / 1024).toFixed(0)} KiB`;
const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
export const metOrMissed = (met: boolean) => (met ? 'met' : 'MISSED');

function requestCount(sample: FleetSample): number {
  return [...sample.requestsByPath.values()].reduce((sum, count) => sum + count, 0);
}

function perDevice(sample: FleetSample, base: FleetSample, value: (each: FleetSample) => number): number {
  return (value(sample) - value(base)) / sample.size;
}

/** The whole printout: results table, startup table, checks and goals. */
export function fleetReport(samples: readonly FleetSample[], intervalMs: number): string {
  const base = samples.find((sample) => sample.size === 0);
  const measured = samples.filter((sample) => sample.size > 0);
  const rows = samples.map((sample) => {
    const devices = sample.size > 0;
    const events = sample.eventsPerDevice;
    return [
      String(sample.size),
      percent(sample.cpu),
      percent(sample.mainThreadCpu),
      percent(sample.systemCpu),
      devices && base ? `${(perDevice(sample, base, (each) => each.cpu) * 100).toFixed(4)}%` : '-',
      devices ? `${((sample.cpu * 1e6) / sample.eventsPerSecond).toFixed(1)} µs` : '-',
      mib(sample.heapUsed),
      devices && base ? kib(perDevice(sample, base, (each) => each.heapUsed)) : '-',
      devices ? sample.eventsPerSecond.toFixed(0) : '-',
      devices ? `${Math.min(...events)}-${Math.max(...events)}` : '-',
      String(sample.reconnected),
      devices ? `${requestCount(sample)}/${sample.connections}` : '-',
      sample.simulatorCores.toFixed(2),
    ];
  });
  const startupRows = measured.map(({ size, startup }) => [
    String(size),
    seconds(startup.startedMs),
    `${startup.streaming}/${size}`,
    Number.isFinite(startup.allStreamingMs) ? seconds(startup.allStreamingMs) : 'not all',
    String(startup.logins),
    String(startup.mostLoginsInASecond),
    seconds(startup.loginSpreadMs),
    String(startup.failedLogins),
    String(startup.rateLimited),
  ]);
  const lines = [
    formatTable(
      [
        'devices',
        'NR cpu',
        'main thread',
        'kernel',
        'cpu/device',
        'cpu/event',
        'heap after GC',
        'heap/device',
        'events/s',
        'events/device',
        'reconnects',
        'requests/TLS connections',
        'simulators (cores)',
      ],
      rows,
    ),
    '',
    '  NR cpu = share of one core over the window, all threads (main thread alone, and the kernel part',
    "  of all, beside it); per device = (size N - size 0) / N; cpu/event = the window's CPU / the",
    '  soundLocation events the simulators wrote in it; events/device = fewest-most in the window;',
    '  reconnects = devices whose data stream was connected again in the window; requests/TLS connections =',
    '  device requests and new connections the simulators accepted in the window (zone re-reads and the',
    '  like, beside the events)',
    '',
    formatTable(
      [
        'devices',
        'flows started',
        'streaming',
        'all streaming',
        'logins',
        'most logins in 1 s',
        'logins spread over',
        'failed logins',
        '429s',
      ],
      startupRows,
    ),
    '',
    '  from the full deploy: the flows started, then every device with a data stream accepted by its',
    '  simulator; logins answered 200 since the deploy, the most within any one second',
    '',
  ];
  for (const sample of measured) {
    const expected = (sample.size * 1000) / intervalMs;
    const pace = sample.eventsPerSecond / expected;
    const streamedThrough =
      sample.startup.streaming === sample.size &&
      sample.reconnected === 0 &&
      Math.min(...sample.eventsPerDevice) > 0;
    lines.push(
      `  ${sample.size} devices: every device streamed through the window (no reconnect, events from ` +
        `each): ${streamedThrough ? 'yes' : 'NO'}; simulators kept ${percent(pace)} of their pace ` +
        `(${expected.toFixed(0)} events/s)` +
        (pace < PACE_KEPT
          ? ' - they fell behind: at this size the machine, not Node-RED alone, set the pace'
          : '') +
        `; machine: Node-RED ${sample.cpu.toFixed(2)} + simulators ${sample.simulatorCores.toFixed(2)} ` +
        `of ${os.cpus().length} cores`,
      `    requests in the window: ${
        [...sample.requestsByPath.entries()]
          .sort(([, a], [, b]) => b - a)
          .map(([path, count]) => `${path} ${count}`)
          .join(', ') || 'none'
      }`,
    );
  }
  // With several rounds, the one that held the most heap answers for the heap goal.
  const goal = measured
    .filter((sample) => sample.size === GOAL_DEVICES)
    .reduce<FleetSample | undefined>(
      (most, each) => (most && most.heapUsed >= each.heapUsed ? most : each),
      undefined,
    );
  if (goal === undefined || base === undefined) {
    lines.push(`  goals at ${GOAL_DEVICES} devices: not measured in this run`);
  } else {
    const heap = perDevice(goal, base, (each) => each.heapUsed);
    lines.push(
      `  goal at ${GOAL_DEVICES} devices: under ${kib(GOAL_HEAP_PER_DEVICE)} of heap per device: ` +
        `${kib(heap)}, ${metOrMissed(heap < GOAL_HEAP_PER_DEVICE)}; ${percent(goal.cpu)} of one core, whose ` +
        `goal is at most ${GOAL_CPU_RATIO}x the bare reader inside Node-RED (below, unless ROOMS_BASELINE=0)`,
    );
  }
  return lines.join('\n');
}
