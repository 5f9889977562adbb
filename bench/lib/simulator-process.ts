/** Device simulators in a child process of their own, for benchmarks (see simulator-host.ts). */
import path from 'node:path';
import type { SimulatorOptions } from '../../src/simulator';
import { startLineChild } from './line-child';
import { procCpuSeconds } from './proc-cpu';

export interface HostedSimulator {
  url: string;
  fingerprint256: string;
}

/** One hosted simulator as `SimulatorProcess.stats()` reads it; records and counters since the last reset. */
export interface HostedStats {
  /** When the host read it (epoch ms), to divide by the simulators' own time. */
  atMs: number;
  openStreams: number;
  /** Since the simulator started (a reset leaves it): compare two readings. */
  soundLocationsWritten: number;
  logins: number;
  failedLogins: number;
  rateLimited: number;
  streamConnections: number;
  /** Device requests since the last reset (streams included), by path without the query. */
  requestsByPath: Record<string, number>;
  /** TCP connections accepted since the simulator started (a reset leaves it). */
  connections: number;
  /** Arrival (epoch ms) of every login answered 200. */
  loginTimes: number[];
  /** Arrival (epoch ms) of every data stream accepted. */
  dataStreamTimes: number[];
}

export interface SimulatorProcess {
  readonly simulators: HostedSimulator[];
  readonly pid: number;
  /** Every simulator of the process, in the order of `simulators`. */
  stats(): Promise<HostedStats[]>;
  /** Records and counters of every simulator back to empty. */
  reset(): Promise<void>;
  /** CPU seconds (user + system) the process used so far, from /proc (Linux), or NaN elsewhere. */
  cpuSeconds(): number;
  stop(): Promise<void>;
}

/** Starts `count` simulators (sharing one certificate) in one child process; resolves when all listen. */
export async function startSimulatorProcess(
  count = 1,
  options: SimulatorOptions = {},
): Promise<SimulatorProcess> {
  const host = path.join(__dirname, 'simulator-host.ts');
  const child = await startLineChild(host, [String(count), JSON.stringify(options)], 'simulator process');
  const simulators = child.ready.simulators as HostedSimulator[];
  return {
    simulators,
    pid: child.pid,
    async stats() {
      return (await child.query('stats')).stats as HostedStats[];
    },
    async reset() {
      await child.query('reset');
    },
    cpuSeconds: () => procCpuSeconds(child.pid),
    stop: () => child.stop(),
  };
}

/** Starts `total` simulators, `perProcess` to a child process, one process after the other. */
export async function startSimulatorProcesses(
  total: number,
  perProcess: number,
  options: SimulatorOptions = {},
): Promise<SimulatorProcess[]> {
  const processes: SimulatorProcess[] = [];
  for (let started = 0; started < total; started += perProcess) {
    processes.push(await startSimulatorProcess(Math.min(perProcess, total - started), options));
  }
  return processes;
}

/** CPU seconds all of `processes` used so far (see `SimulatorProcess.cpuSeconds`). */
export function simulatorsCpuSeconds(processes: readonly SimulatorProcess[]): number {
  return processes.reduce((sum, child) => sum + child.cpuSeconds(), 0);
}

/** Every hosted simulator's stats, in the order of the processes and their simulators. */
export async function readAllStats(processes: readonly SimulatorProcess[]): Promise<HostedStats[]> {
  return (await Promise.all(processes.map((child) => child.stats()))).flat();
}

/** Requests the simulators answered between two readings of the same simulators, by path, over all. */
export function requestsBetween(
  before: readonly HostedStats[],
  after: readonly HostedStats[],
): Map<string, number> {
  const byPath = new Map<string, number>();
  after.forEach((each, index) => {
    for (const [path, count] of Object.entries(each.requestsByPath)) {
      const earlier = before[index]?.requestsByPath[path] ?? 0;
      if (count > earlier) byPath.set(path, (byPath.get(path) ?? 0) + count - earlier);
    }
  });
  return byPath;
}
