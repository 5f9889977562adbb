/** CPU time of a process or one of its threads, from Linux's /proc, for processes the bench did not start itself. */
import { readFileSync } from 'node:fs';

/** Clock ticks a second in /proc's stat files (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

/** CPU seconds so far in user space and in the kernel; NaN each where /proc cannot be read. */
export interface ProcCpu {
  user: number;
  system: number;
}

/**
 * CPU seconds so far of process `pid`, or of its thread `thread` (the main thread's id is the process id),
 * in user space and in the kernel; NaN where /proc cannot be read (not Linux, or the process has ended).
 */
export function procCpu(pid: number, thread?: number): ProcCpu {
  const file = thread === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${thread}/stat`;
  try {
    const stat = readFileSync(file, 'utf8');
    // Fields after the command name, which is in parentheses and may contain spaces.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { user: Number(fields[11]) / TICKS_PER_SECOND, system: Number(fields[12]) / TICKS_PER_SECOND };
  } catch {
    return { user: Number.NaN, system: Number.NaN };
  }
}

/** CPU seconds (user + system) so far of process `pid` or of its thread `thread` (see `procCpu`). */
export function procCpuSeconds(pid: number, thread?: number): number {
  const { user, system } = procCpu(pid, thread);
  return user + system;
}
