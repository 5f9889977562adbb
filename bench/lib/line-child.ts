/**
 * A helper process of a benchmark (simulators, a raw client), spoken to in lines: it prints one JSON line
 * when it is ready, then answers each query line on its stdin with one JSON line, in order. It ends on
 * SIGTERM, or when its stdin closes because the benchmark died; one exit listener kills every one still
 * running if the benchmark ends without stopping them.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';

export interface LineChild {
  /** What the child printed when it was ready. */
  readonly ready: Record<string, unknown>;
  readonly pid: number;
  query(name: string): Promise<Record<string, unknown>>;
  stop(): Promise<void>;
}

const running = new Set<ChildProcess>();

function killRunning(): void {
  for (const child of running) child.kill('SIGKILL');
}

/** Runs `script` (TypeScript, through tsx) with `args`; resolves when its first line came. */
export async function startLineChild(
  script: string,
  args: readonly string[],
  what: string,
): Promise<LineChild> {
  const child: ChildProcess = spawn(process.execPath, ['--require', 'tsx/cjs', script, ...args], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  if (running.size === 0) process.once('exit', killRunning);
  running.add(child);
  const exited = once(child, 'exit');
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  const first = await Promise.race([
    once(lines, 'line').then(([line]) => String(line)),
    exited.then(([code]) => {
      throw new Error(`${what} ended with ${String(code)} before it was ready`);
    }),
  ]);
  const waiting: Array<(line: string) => void> = [];
  lines.on('line', (line) => waiting.shift()?.(line));
  return {
    ready: JSON.parse(first) as Record<string, unknown>,
    pid: child.pid ?? 0,
    query: (name) =>
      new Promise((resolve, reject) => {
        waiting.push((line) => {
          const answer = JSON.parse(line) as Record<string, unknown>;
          if (typeof answer.error === 'string') reject(new Error(answer.error));
          else resolve(answer);
        });
        child.stdin?.write(`${name}\n`);
      }),
    async stop() {
      running.delete(child);
      if (running.size === 0) process.off('exit', killRunning);
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/**
 * The child's side: prints `ready` as its first line, then answers each query line with what `answers`
 * holds for it (an unknown one with an error; an answer may be a promise, and answers keep the order of
 * the queries), and ends through `stop` on SIGTERM or when stdin closes (the benchmark died).
 */
export function serveQueries(
  ready: unknown,
  answers: Readonly<Record<string, () => unknown>>,
  stop: () => Promise<unknown>,
): void {
  const end = () => {
    void stop().finally(() => process.exit(0));
  };
  process.once('SIGTERM', end);
  const queries = createInterface({ input: process.stdin });
  queries.on('close', end);
  let answered: Promise<void> = Promise.resolve();
  queries.on('line', (query) => {
    answered = answered.then(async () => {
      let answer: unknown;
      try {
        answer = Object.hasOwn(answers, query)
          ? await (answers[query] as () => unknown)()
          : { error: `unknown query ${JSON.stringify(query)}` };
      } catch (error) {
        answer = { error: `${query} failed: ${String(error)}` };
      }
      process.stdout.write(`${JSON.stringify(answer)}\n`);
    });
  });
  process.stdout.write(`${JSON.stringify(ready)}\n`);
}
