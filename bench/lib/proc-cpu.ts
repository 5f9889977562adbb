/** CPU time of a process or one of its threads, from Linux's /proc, for processes the bench did not start itself. */
import { readFileSync } from 'node:fs';

/** Clock ticks a second in /proc's stat files (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

/**
 * CPU seconds (user + system) so far of process `pid`, or of its thread `thread` (the main thread's id is
 * the process id); NaN where /proc cannot be read (not Linux, or the process has ended).
 */
export function procCpuSeconds(pid: number, thread?: number): number {
  const file = thread === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${thread}/stat`;
  try {
    const stat = readFileSync(file, 'utf8');
    // Fields after the command name, which is in parentheses and may contain spaces.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return Number.NaN;
  }
}
