/**
 * Many devices per Node-RED process: one real Node-RED (a child process) with N device config nodes, each
 * with a room zones node reading every 2 s (output all, wired to nothing, so only the package and
 * Node-RED's own send are measured), against N simulators in child processes of their own (50 per process
 * by default).
 *
 * Per size, after a settling time: the share of one core Node-RED used over the window, its heap and RSS
 * after a full garbage collection, and per device its requests a minute, its zone reads answered 200 a
 * minute (from the simulator's request record), and the device's 429s, failed logins and logins. Size 0 (only the bench's stats tab) is the baseline: CPU and memory per
 * device are (size N - size 0) / N.
 *
 * Overridable: FLEET_SIZES=50,100,200  FLEET_INTERVAL_SECONDS=2  FLEET_SETTLE_SECONDS=15
 * FLEET_WINDOW_SECONDS=30  FLEET_PER_PROCESS=50
 */

import type { RecordedRequest, SimulatorCounters } from '../src/simulator/types';
import { delay } from '../test/support/wait';
import { stopAll } from './lib/cleanup';
import {
  closeCounterAgent,
  mapLimited,
  readCounters,
  readRequests,
  resetCounters,
} from './lib/device-counters';
import { deviceFleet, zonesReader } from './lib/flows';
import {
  type BenchNodeRed,
  cpuShare,
  type FlowNode,
  type NodeRedStats,
  startBenchNodeRed,
} from './lib/node-red-child';
import {
  type HostedSimulator,
  type SimulatorProcess,
  simulatorsCpuSeconds,
  startSimulatorProcess,
} from './lib/simulator-process';
import { envNumber, formatTable, machineLine } from './lib/table';

const SIZES = (process.env.FLEET_SIZES ?? '50,100,200')
  .split(',')
  .map((size) => Number(size.trim()))
  .filter((size) => Number.isInteger(size) && size > 0);
const INTERVAL_SECONDS = envNumber('FLEET_INTERVAL_SECONDS', 2);
const SETTLE_SECONDS = envNumber('FLEET_SETTLE_SECONDS', 15);
const WINDOW_SECONDS = envNumber('FLEET_WINDOW_SECONDS', 30);
/** Rounded to whole poll periods. */
const SLICE_SECONDS = 4;
const PER_PROCESS = envNumber('FLEET_PER_PROCESS', 50);
const DEVICE_LIMIT_PER_MINUTE = 600;
const TAB = 'fleet-tab';
const ZONES_PATH = '/api/v1/room/zones';

interface Sample {
  size: number;
  /** Share of one core over the whole window. */
  cpu: number;
  /** The same per slice of the window. */
  cpuSlices: number[];
  simulatorCpu: number;
  heapUsed: number;
  rss: number;
  /** Per device over the window. */
  requestsPerMinute: number[];
  /** Zone reads the device answered 200, per device over the window. */
  readsPerMinute: number[];
  rateLimited: number;
  failedLogins: number;
  logins: number;
}

function fleetFlow(simulators: readonly HostedSimulator[]): FlowNode[] {
  const fleet = {
    tab: TAB,
    label: `fleet of ${simulators.length}`,
    devicePrefix: 'fleet-device',
    deviceName: 'device',
  };
  return deviceFleet(simulators, fleet, (device, index) =>
    zonesReader(`fleet-zones-${index}`, TAB, device, {
      interval: INTERVAL_SECONDS,
      onStart: true,
      topic: `device-${index}`,
    }),
  );
}

async function measure(
  nodeRed: BenchNodeRed,
  processes: readonly SimulatorProcess[],
  simulators: readonly HostedSimulator[],
): Promise<Sample> {
  const urls = simulators.map((simulator) => simulator.url);
  await resetCounters(urls);
  await nodeRed.deploy(simulators.length === 0 ? [] : fleetFlow(simulators));
  await delay(SETTLE_SECONDS * 1000);
  // What the previous size left behind (its nodes, clients and sockets) is collected before the window.
  await nodeRed.stats({ gc: true });

  // Slices of whole poll periods, each comparable with the others: their range shows how steady the
  // load is (garbage collection comes in bursts); the whole window's share is the result.
  const sliceMs = Math.max(1, Math.round(SLICE_SECONDS / INTERVAL_SECONDS)) * INTERVAL_SECONDS * 1000;
  const slices = Math.max(1, Math.round((WINDOW_SECONDS * 1000) / sliceMs));
  const startEpoch = Date.now();
  const startSimulatorCpu = simulatorsCpuSeconds(processes);
  const readings: NodeRedStats[] = [await nodeRed.stats()];
  for (let slice = 0; slice < slices; slice++) {
    await delay(sliceMs);
    readings.push(await nodeRed.stats());
  }
  const endEpoch = Date.now();
  const first = readings[0] as NodeRedStats;
  const last = readings[readings.length - 1] as NodeRedStats;
  const simulatorCpu =
    (simulatorsCpuSeconds(processes) - startSimulatorCpu) / ((last.atMs - first.atMs) / 1000);
  const memory = await nodeRed.stats({ gc: true });
  const [counters, records] = await Promise.all([readCounters(urls), mapLimited(urls, 20, readRequests)]);

  const minutes = (endEpoch - startEpoch) / 60_000;
  const inWindow = (requests: readonly RecordedRequest[]) =>
    requests.filter((recorded) => recorded.time >= startEpoch && recorded.time < endEpoch);
  const sum = (pick: (counters: SimulatorCounters) => number) =>
    counters.reduce((total, each) => total + pick(each), 0);
  return {
    size: simulators.length,
    cpu: cpuShare(first, last),
    cpuSlices: readings.slice(1).map((reading, index) => cpuShare(readings[index] as NodeRedStats, reading)),
    simulatorCpu,
    heapUsed: memory.heapUsed,
    rss: memory.rss,
    requestsPerMinute: records.map((requests) => inWindow(requests).length / minutes),
    readsPerMinute: records.map(
      (requests) =>
        inWindow(requests).filter((recorded) => recorded.path === ZONES_PATH && recorded.status === 200)
          .length / minutes,
    ),
    // Since the reset before the deploy, settling included.
    rateLimited: sum((each) => each.rateLimited),
    failedLogins: sum((each) => each.failedLogins),
    logins: sum((each) => each.logins),
  };
}

const mib = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
const kib = (bytes: number) => (bytes / 1024).toFixed(0);
const percent = (share: number) => `${(share * 100).toFixed(1)}%`;

function report(samples: Sample[]): string {
  const base = samples[0] as Sample;
  const baseCpu = base.cpu;
  const rows = samples.map((sample) => {
    const cpu = sample.cpu;
    const requests = sample.requestsPerMinute;
    const reads = sample.readsPerMinute;
    const readsPerSecond = reads.reduce((total, each) => total + each, 0) / 60;
    const perDevice = (value: number, baseValue: number, format: (perDevice: number) => string) =>
      sample.size === 0 ? '-' : format((value - baseValue) / sample.size);
    return [
      String(sample.size),
      percent(cpu),
      `${percent(Math.min(...sample.cpuSlices))}-${percent(Math.max(...sample.cpuSlices))}`,
      perDevice(cpu, baseCpu, (share) => `${(share * 100).toFixed(3)}%`),
      sample.size === 0 ? '-' : (((cpu - baseCpu) * 1000) / readsPerSecond).toFixed(2),
      mib(sample.heapUsed),
      perDevice(sample.heapUsed, base.heapUsed, kib),
      mib(sample.rss),
      perDevice(sample.rss, base.rss, kib),
      requests.length === 0 ? '-' : Math.max(...requests).toFixed(1),
      reads.length === 0 ? '-' : Math.min(...reads).toFixed(1),
      String(sample.rateLimited),
      String(sample.failedLogins),
      String(sample.logins),
      percent(sample.simulatorCpu),
    ];
  });
  const goals = samples
    .filter((sample) => sample.size > 0)
    .map((sample) => {
      const maxRate = Math.max(...sample.requestsPerMinute);
      const met =
        maxRate <= DEVICE_LIMIT_PER_MINUTE &&
        sample.rateLimited === 0 &&
        sample.failedLogins === 0 &&
        sample.logins === sample.size;
      return `  goal (${sample.size} devices): no device over its rate limit, no 429, no failed login, one login each: ${met ? 'met' : 'MISSED'}`;
    });
  return [
    formatTable(
      [
        'devices',
        'NR cpu',
        'slices',
        'cpu/device',
        'cpu ms/read',
        'heap MiB',
        'KiB/device',
        'rss MiB',
        'KiB/device',
        'max req/min',
        'min ok/min',
        '429s',
        'failed logins',
        'logins',
        'simulators cpu',
      ],
      rows,
    ),
    '',
    '  NR cpu = share of one core over the window (its slices ranged as beside it); cpu/device and ms/read',
    '  are over size 0; heap and rss after a full GC; max req/min = the busiest device, min ok/min = the',
    '  device with the fewest zone reads answered 200; 429s, failed logins and logins since the deploy',
    ...goals,
  ].join('\n');
}

export async function run(): Promise<void> {
  const largest = Math.max(...SIZES);
  const processCount = Math.ceil(largest / PER_PROCESS);
  const processes = await Promise.all(
    Array.from({ length: processCount }, (_, index) =>
      startSimulatorProcess(Math.min(PER_PROCESS, largest - index * PER_PROCESS)),
    ),
  );
  const simulators = processes.flatMap((child) => child.simulators);
  let nodeRed: BenchNodeRed | undefined;
  try {
    // Node-RED's own floor of 5 s between reads is lowered for the fleet's 2 s.
    nodeRed = await startBenchNodeRed({ conferenceAudioZonesMinInterval: INTERVAL_SECONDS });
    console.log(
      `fleet: one Node-RED child process, N devices each read every ${INTERVAL_SECONDS} s by a room zones ` +
        `node (output all), simulators in ${processCount} child process(es); settle ${SETTLE_SECONDS} s, ` +
        `measure ${WINDOW_SECONDS} s in slices of ${SLICE_SECONDS} s; memory after a full GC; ` +
        'per device = (size N - size 0) / N',
    );
    // Warm-up, not reported, with the largest fleet: the read path optimised by V8 (which counts calls,
    // not time) and Node-RED's heap grown to its working size before size 0, so the first sizes measured
    // do not pay for either.
    await nodeRed.deploy(fleetFlow(simulators));
    await delay(SETTLE_SECONDS * 1000);
    const samples: Sample[] = [];
    for (const size of [0, ...SIZES]) {
      samples.push(await measure(nodeRed, processes, simulators.slice(0, size)));
    }
    await nodeRed.deploy([]);
    console.log(report(samples));
    console.log(
      `  expected per device: ${(60 / INTERVAL_SECONDS).toFixed(0)} requests and reads a minute; ` +
        `device limit ${DEVICE_LIMIT_PER_MINUTE}/min, client ceiling 300/min`,
    );
    console.log(`  ${machineLine()}`);
    console.log('  reproduce: npm run build && node --require tsx/cjs bench/run.ts fleet');
  } finally {
    await stopAll([
      () => nodeRed?.stop(),
      closeCounterAgent,
      () => Promise.all(processes.map((child) => child.stop())),
    ]);
  }
}
