/**
 * `npm start` stops everything it started when it is told to, the way process managers and editors' stop
 * buttons tell it: SIGINT or SIGTERM sent to npm's process alone (not to the whole process group, as a
 * terminal's Ctrl-C does), or to the demo's own process. Afterwards nothing listens on the demo's ports
 * and no process it started is left. Started for real with the system's npm, in a user directory of the
 * test's own.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectAsync } from 'mqtt';
import should from 'should';
import { plainEnvironment } from '../../scripts/plain-environment';
import { until } from '../support/wait';

const projectRoot = join(__dirname, '..', '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** Every process whose parent chain leads to `ancestor` (Linux: read from /proc). */
function descendantsOf(ancestor: number): number[] {
  const parents = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // The command name (field 2) is in parentheses and may hold spaces: the parent pid follows its end.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      parents.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // Gone between the listing and the read.
    }
  }
  const found: number[] = [];
  let generation = [ancestor];
  while (generation.length > 0) {
    generation = [...parents].filter(([, parent]) => generation.includes(parent)).map(([pid]) => pid);
    found.push(...generation);
  }
  return found;
}

function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    return '';
  }
}

function isAlive(pid: number): boolean {
  try {
    // A zombie still answers signal 0: a process that has ended but is not yet reaped counts as gone.
    return !readFileSync(`/proc/${pid}/stat`, 'utf8').includes(') Z ');
  } catch {
    return false;
  }
}

function isListening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

interface RunningDemo {
  npm: ChildProcess;
  /** The pid of node scripts/start.js. */
  demoPid: number;
  ports: number[];
  processes: number[];
  output(): string;
}

async function startWithNpm(userDir: string): Promise<RunningDemo> {
  const child = spawn(npm, ['start', '--', '--user-dir', userDir], {
    cwd: projectRoot,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...plainEnvironment(), NODE_OPTIONS: '' },
  });
  let output = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    output += chunk;
  });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    output += chunk;
  });
  const exited = () => child.exitCode !== null || child.signalCode !== null;
  await until(
    () => exited() || /Press Ctrl-C to stop/.test(output),
    () => `npm start to print its addresses; it wrote:\n${output}`,
    90000,
  );
  if (exited()) throw new Error(`npm start exited early:\n${output}`);
  const ports = [
    /Node-RED editor\s+http:\/\/127\.0\.0\.1:(\d+)/,
    /MQTT broker\s+mqtt:\/\/127\.0\.0\.1:(\d+)/,
    /Device simulator\s+https:\/\/127\.0\.0\.1:(\d+)/,
  ].map((pattern) => Number(pattern.exec(output)?.[1]));
  should(ports.every(Number.isInteger)).be.true(`three ports in:\n${output}`);
  const processes = descendantsOf(child.pid ?? -1);
  const demoPid = processes.find((pid) => commandLine(pid).includes('scripts/start.js'));
  if (demoPid === undefined) throw new Error(`no scripts/start.js among npm's processes ${processes}`);
  should(processes.some((pid) => commandLine(pid).includes('node-red'))).be.true('Node-RED runs under npm');
  return { npm: child, demoPid, ports, processes, output: () => output };
}

describe('stopping npm start', function () {
  this.timeout(180000);
  let userDir: string;
  let demo: RunningDemo | undefined;

  beforeEach(() => {
    userDir = mkdtempSync(join(tmpdir(), 'ca-demo-stop-'));
  });

  afterEach(() => {
    // A failed test must not leave the demo running for the next one.
    for (const pid of [demo?.npm.pid, ...(demo?.processes ?? [])]) {
      if (pid !== undefined && isAlive(pid)) process.kill(pid, 'SIGKILL');
    }
    demo = undefined;
    rmSync(userDir, { recursive: true, force: true });
  });

  const cases: Array<{ signal: NodeJS.Signals; to: 'npm' | 'the demo' }> = [
    { signal: 'SIGTERM', to: 'npm' },
    { signal: 'SIGINT', to: 'npm' },
    { signal: 'SIGTERM', to: 'the demo' },
  ];
  /** Waits for npm, and every process it started, to end; then nothing listens on the demo's ports. */
  async function stoppedCompletely(running: RunningDemo): Promise<void> {
    await until(
      () => running.npm.exitCode !== null || running.npm.signalCode !== null,
      () => `npm to exit; it wrote:\n${running.output()}`,
      30000,
    );
    await until(
      () => running.processes.every((pid) => !isAlive(pid)),
      () => `every process npm start started to end; left: ${running.processes.filter(isAlive)}`,
      30000,
    );
    const listening = [];
    for (const port of running.ports) if (await isListening(port)) listening.push(port);
    should(listening).eql([]);
    should(running.output()).match(/Stopped\./);
  }

  it('stops everything on Ctrl-C while an outside MQTT client is subscribed to the broker', async () => {
    demo = await startWithNpm(userDir);
    const running = demo;
    const [, brokerPort] = running.ports;
    // As `npx mqtt sub` does: connected and subscribed; never reconnecting, so only the demo can end it.
    const subscriber = await connectAsync({ host: '127.0.0.1', port: brokerPort, reconnectPeriod: 0 });
    try {
      await subscriber.subscribeAsync('rooms/#');
      process.kill(running.npm.pid ?? -1, 'SIGINT');
      await stoppedCompletely(running);
    } finally {
      await subscriber.endAsync(true);
    }
  });

  it('keeps the simulator’s certificate when it is stopped and started again', async () => {
    const fingerprint = (running: RunningDemo) =>
      /certificate SHA-256 ([0-9A-F:]+)/.exec(running.output())?.[1];
    const runOnce = async () => {
      demo = await startWithNpm(userDir);
      const running = demo;
      process.kill(running.npm.pid ?? -1, 'SIGTERM');
      await stoppedCompletely(running);
      return fingerprint(running);
    };
    const first = await runOnce();
    const second = await runOnce();
    should(first).be.a.String();
    should(second).equal(first);
  });

  for (const { signal, to } of cases) {
    it(`stops everything it started on ${signal} sent to ${to}`, async () => {
      demo = await startWithNpm(userDir);
      const running = demo;
      process.kill(to === 'npm' ? (running.npm.pid ?? -1) : running.demoPid, signal);
      await stoppedCompletely(running);
    });
  }
});
