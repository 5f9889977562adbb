/** Device simulators in a child process of their own, for benchmarks (see simulator-host.ts). */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { SimulatorOptions } from '../../src/simulator';
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

/** Children still running, killed if the bench ends without stopping them (one listener for all). */
const running = new Set<ChildProcess>();

function killRunning(): void {
  for (const child of running) child.kill('SIGKILL');
}

/** Starts `count` simulators (sharing one certificate) in one child process; resolves when all listen. */
export async function startSimulatorProcess(
  count = 1,
  options: SimulatorOptions = {},
): Promise<SimulatorProcess> {
  const host = path.join(__dirname, 'simulator-host.ts');
  const child: ChildProcess = spawn(
    process.execPath,
    ['--require', 'tsx/cjs', host, String(count), JSON.stringify(options)],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  if (running.size === 0) process.once('exit', killRunning);
  running.add(child);
  const exited = once(child, 'exit');
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  const first = await Promise.race([
    once(lines, 'line').then(([line]) => String(line)),
    exited.then(([code]) => {
      throw new Error(`simulator process ended with ${String(code)} before it listened`);
    }),
  ]);
  const { simulators } = JSON.parse(first) as { simulators: HostedSimulator[] };
  // The host answers its queries in order, one line each.
  const waiting: Array<(line: string) => void> = [];
  lines.on('line', (line) => waiting.shift()?.(line));
  const query = (name: 'stats' | 'reset') =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      waiting.push((line) => {
        const answer = JSON.parse(line) as Record<string, unknown>;
        if (typeof answer.error === 'string') reject(new Error(answer.error));
        else resolve(answer);
      });
      child.stdin?.write(`${name}\n`);
    });
  return {
    simulators,
    pid: child.pid ?? 0,
    async stats() {
      return (await query('stats')).stats as HostedStats[];
    },
    async reset() {
      await query('reset');
    },
    cpuSeconds: () => procCpuSeconds(child.pid ?? 0),
    async stop() {
      running.delete(child);
      if (running.size === 0) process.off('exit', killRunning);
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      await exited;
    },
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
