/** Device simulators in a child process of their own, for benchmarks (see simulator-host.ts). */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { SimulatorOptions } from '../../src/simulator';

export interface HostedSimulator {
  url: string;
  fingerprint256: string;
}

export interface SimulatorProcess {
  readonly simulators: HostedSimulator[];
  readonly pid: number;
  stop(): Promise<void>;
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
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  const exited = once(child, 'exit');
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  const first = await Promise.race([
    once(lines, 'line').then(([line]) => String(line)),
    exited.then(([code]) => {
      throw new Error(`simulator process ended with ${String(code)} before it listened`);
    }),
  ]);
  lines.close();
  const { simulators } = JSON.parse(first) as { simulators: HostedSimulator[] };
  return {
    simulators,
    pid: child.pid ?? 0,
    async stop() {
      process.off('exit', killOnExit);
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
