/**
 * `npm start` as a user runs it (node scripts/start.js), in a user directory of the test's own, for the
 * tests of what the demo serves. Stopped with SIGINT as Ctrl-C would, and never outliving the test process.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { plainEnvironment } from '../../scripts/plain-environment';
import { until } from './wait';
import { watchChild } from './watched-child';

const projectRoot = join(__dirname, '..', '..');

export interface DemoProcess {
  /** The Node-RED editor's base URL, as the demo printed it (no trailing slash). */
  readonly editorUrl: string;
  readonly userDir: string;
  /** Everything the demo (and the Node-RED in it) wrote so far. */
  output(): string;
  /** Ctrl-C: waits until the demo has stopped everything, then removes its user directory unless kept. */
  stop(options?: { keepUserDir?: boolean }): Promise<void>;
}

export async function startDemo(options: { timeoutMs?: number } = {}): Promise<DemoProcess> {
  const userDir = mkdtempSync(join(tmpdir(), 'ca-demo-'));
  const child: ChildProcess = spawn(
    process.execPath,
    [join(projectRoot, 'scripts', 'start.js'), '--user-dir', userDir],
    { cwd: projectRoot, stdio: ['ignore', 'pipe', 'pipe'], env: { ...plainEnvironment(), NODE_OPTIONS: '' } },
  );
  const { output, exited, interrupt } = watchChild(child);
  const stop = async (stopOptions: { keepUserDir?: boolean } = {}) => {
    await interrupt(15000);
    if (!stopOptions.keepUserDir) rmSync(userDir, { recursive: true, force: true });
  };
  try {
    await until(
      () => exited() || /Press Ctrl-C to stop/.test(output()),
      () => `npm start to print its addresses; it wrote:\n${output()}`,
      options.timeoutMs ?? 90000,
    );
    if (exited()) throw new Error(`npm start exited early:\n${output()}`);
  } catch (error) {
    await stop();
    throw error;
  }
  const editor = /Node-RED editor\s+(http:\/\/\S+?)\/?\s/.exec(output());
  if (editor === null) {
    await stop();
    throw new Error(`npm start printed no editor address:\n${output()}`);
  }
  return { editorUrl: editor[1], userDir, output, stop: (stopOptions) => stop(stopOptions) };
}
