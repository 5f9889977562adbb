/** The many-rooms baseline in a child process of its own (see raw-streams-host.ts). */
import path from 'node:path';
import type { BareReading } from './bare-stream';
import type { CpuProfile } from './cpu-profile';
import { startLineChild } from './line-child';
import { type ProcCpu, procCpu } from './proc-cpu';

export interface RawStreams {
  readonly pid: number;
  /** soundLocation readings parsed so far, and streams that ended. */
  stats(): Promise<{ events: number; broken: number }>;
  /** V8's CPU profiler in the process's thread, from `startProfile` until `stopProfile`. */
  startProfile(): Promise<void>;
  stopProfile(): Promise<CpuProfile>;
  /** CPU seconds the process used so far (all threads, or its main thread), from /proc. */
  cpu(thread?: 'main'): ProcCpu;
  stop(): Promise<void>;
}

/** Opens one raw data stream per device URL, read as `reading` says; resolves once every one is open. */
export async function startRawStreams(
  urls: readonly string[],
  password: string,
  reading: BareReading,
): Promise<RawStreams> {
  const host = path.join(__dirname, 'raw-streams-host.ts');
  const child = await startLineChild(
    host,
    [JSON.stringify({ urls, password, reading })],
    'raw streams process',
  );
  return {
    pid: child.pid,
    stats: async () => (await child.query('stats')) as { events: number; broken: number },
    startProfile: async () => {
      await child.query('profile-start');
    },
    stopProfile: async () => (await child.query('profile-stop')) as unknown as CpuProfile,
    cpu: (thread) => procCpu(child.pid, thread === 'main' ? child.pid : undefined),
    stop: () => child.stop(),
  };
}
