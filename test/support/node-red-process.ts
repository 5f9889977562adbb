/**
 * A real Node-RED started from its command line (`node red.js -u DIR -s settings.js`) on a free port, its
 * output captured, stopped with SIGINT (SIGKILL if it hangs) and never outliving the test process. The
 * end-to-end tests (package installed from the tarball) and the browser test (package from nodesDir)
 * build on it.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { withOfflineSettings } from '../../scripts/offline-settings';
import { plainEnvironment } from '../../scripts/plain-environment';
import { freePort, probeUntil } from './wait';
import { watchChild } from './watched-child';

export interface NodeRedLaunch {
  /** The node binary; this process's by default. */
  nodeBinary?: string;
  redJs: string;
  userDir: string;
  /**
   * Merged over the defaults: 127.0.0.1, a free port, flows.json, a credential secret, info logging, and
   * the offline settings (scripts/offline-settings.js: no catalogue, telemetry, update check or tour).
   */
  settings?: Record<string, unknown>;
  /** When Node-RED counts as started; by default when its admin API answers `GET /settings`. */
  isReady?: (nodeRed: NodeRedProcess) => Promise<boolean>;
  timeoutMs?: number;
}

export interface NodeRedProcess {
  readonly url: string;
  readonly userDir: string;
  /** Everything Node-RED wrote to stdout and stderr so far. */
  output(): string;
  /** A request to its admin API or its HTTP-in endpoints. */
  request(path: string, init?: RequestInit): Promise<Response>;
  stop(): Promise<void>;
  /** Ends it at once with SIGKILL, as a crash or a power cut would: none of its own shutdown runs. */
  kill(): Promise<void>;
}

export async function launchNodeRed(launch: NodeRedLaunch): Promise<NodeRedProcess> {
  const port = await freePort();
  const settingsFile = join(launch.userDir, 'settings.js');
  const settings = withOfflineSettings({
    uiHost: '127.0.0.1',
    uiPort: port,
    flowFile: 'flows.json',
    credentialSecret: 'test-only-credential-secret',
    logging: { console: { level: 'info', metrics: false, audit: false } },
    ...launch.settings,
  });
  writeFileSync(settingsFile, `module.exports = ${JSON.stringify(settings, null, 2)};\n`);

  const child: ChildProcess = spawn(
    launch.nodeBinary ?? process.execPath,
    [launch.redJs, '-u', launch.userDir, '-s', settingsFile],
    {
      cwd: launch.userDir,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...plainEnvironment(), NODE_OPTIONS: '' },
    },
  );
  const watched = watchChild(child);

  const url = `http://127.0.0.1:${port}`;
  const nodeRed: NodeRedProcess = {
    url,
    userDir: launch.userDir,
    output: watched.output,
    request: (path, init = {}) => fetch(`${url}${path}`, init),
    stop: () => watched.interrupt(10000),
    kill: watched.kill,
  };
  const isReady =
    launch.isReady ??
    (async (started: NodeRedProcess) =>
      (await started.request('/settings', { headers: { accept: 'application/json' } })).ok);
  try {
    await probeUntil(
      'Node-RED to start',
      async () => {
        if (watched.exited()) throw new Error(`Node-RED exited:\n${watched.output()}`);
        return (await isReady(nodeRed)) ? true : undefined;
      },
      launch.timeoutMs ?? 60000,
      150,
    );
  } catch (error) {
    await nodeRed.stop();
    throw new Error(
      `${error instanceof Error ? error.message : String(error)}\nNode-RED output:\n${watched.output()}`,
    );
  }
  return nodeRed;
}
