/**
 * A child process a test owns (a Node-RED, the demo): what it writes is kept, its end can be awaited, and
 * it never outlives the test process, even one that ends without its after hooks (an uncaught error).
 */
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';

export interface WatchedChild {
  /** Everything it wrote to stdout and stderr so far. */
  output(): string;
  exited(): boolean;
  /** SIGINT, as Ctrl-C; SIGKILL if it is still there after `forceAfterMs`. Resolves once it has ended. */
  interrupt(forceAfterMs: number): Promise<void>;
  /** SIGKILL, as a crash or a power cut: none of its own shutdown runs. Resolves once it has ended. */
  kill(): Promise<void>;
}

export function watchChild(child: ChildProcess): WatchedChild {
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  const exit = once(child, 'exit').finally(() => process.off('exit', killOnExit));
  const exited = () => child.exitCode !== null || child.signalCode !== null;
  let output = '';
  const keep = (chunk: string) => {
    output += chunk;
  };
  child.stdout?.setEncoding('utf8').on('data', keep);
  child.stderr?.setEncoding('utf8').on('data', keep);
  return {
    output: () => output,
    exited,
    async interrupt(forceAfterMs) {
      if (exited()) return;
      child.kill('SIGINT');
      const force = setTimeout(() => child.kill('SIGKILL'), forceAfterMs);
      await exit;
      clearTimeout(force);
    },
    async kill() {
      if (exited()) return;
      child.kill('SIGKILL');
      await exit;
    },
  };
}
