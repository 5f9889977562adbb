/**
 * What a user who installs the tarball into a Node-RED user directory gets: the nodes without the
 * simulator's certificate generator (`selfsigned`, an optional peer dependency), a simulator command that
 * says how to get it, and a simulator that works once it is installed.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import should from 'should';
import { plainEnvironment } from '../../scripts/plain-environment';
import { type E2eEnvironment, e2eEnvironment, environmentOnLineNode, prepareUserDir } from './node-red';

const execFileAsync = promisify(execFile);
const packageName = '@conference-audio/node-red-local-api';

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

describe('the package installed from its tarball', () => {
  let environment: E2eEnvironment;
  let userDir: string | undefined;

  function dir(): string {
    if (userDir === undefined) throw new Error('the install failed');
    return userDir;
  }

  /** `node <args>` in the user directory, with the line's node binary; never throws on a non-zero exit. */
  async function node(args: string[], timeout = 30000): Promise<Outcome> {
    try {
      const { stdout, stderr } = await execFileAsync(environment.nodeBinary, args, {
        cwd: dir(),
        env: plainEnvironment(),
        timeout,
      });
      return { code: 0, stdout, stderr };
    } catch (error) {
      const failed = error as { code?: unknown; stdout?: string; stderr?: string };
      return {
        code: typeof failed.code === 'number' ? failed.code : -1,
        stdout: failed.stdout ?? '',
        stderr: failed.stderr ?? '',
      };
    }
  }

  const simulatorCli = () => join(dir(), 'node_modules', packageName, 'dist', 'simulator', 'cli.js');

  before(async () => {
    environment = e2eEnvironment();
    // Outside the project: from inside it, Node would find the project's own selfsigned further up.
    userDir = await prepareUserDir(environment.tarball, tmpdir());
  });

  after(() => {
    if (userDir !== undefined) rmSync(userDir, { recursive: true, force: true });
  });

  it("installs with engine-strict on this line's Node, without an engine warning", async () => {
    const strictDir = mkdtempSync(join(tmpdir(), 'engine-strict-'));
    try {
      // npm's engine check names the package and the Node it wanted: its output shows which refused.
      const { stdout, stderr } = await execFileAsync(
        'npm',
        ['install', environment.tarball, '--engine-strict', '--no-audit', '--no-fund', '--prefer-offline'],
        { cwd: strictDir, env: environmentOnLineNode(environment), maxBuffer: 16 * 1024 * 1024 },
      );
      should(`${stdout}${stderr}`).not.match(/EBADENGINE/);
      should(existsSync(join(strictDir, 'node_modules', packageName, 'package.json'))).be.true();
    } finally {
      rmSync(strictDir, { recursive: true, force: true });
    }
  });

  it('does not install the certificate generator selfsigned', () => {
    should(existsSync(join(dir(), 'node_modules', packageName, 'dist', 'nodes'))).be.true();
    should(() => require.resolve('selfsigned', { paths: [simulatorCli()] })).throw({
      code: 'MODULE_NOT_FOUND',
    });
  });

  it('loads its main entry point (client, zones, simulator) without selfsigned', async () => {
    const outcome = await node(['-e', `console.log(typeof require('${packageName}').startSimulator)`]);
    should(outcome).containDeep({ code: 0, stdout: 'function\n' });
  });

  it('has a simulator command that says how to get selfsigned', async () => {
    const outcome = await node([simulatorCli(), '--port', '0']);
    should(outcome.code).equal(1);
    should(outcome.stderr).match(/needs the package "selfsigned"/);
    should(outcome.stderr).containEql('npm install selfsigned');
  });

  it('runs the simulator once selfsigned is installed', async () => {
    await execFileAsync('npm', ['install', 'selfsigned@5', '--no-audit', '--no-fund', '--prefer-offline'], {
      cwd: dir(),
      env: plainEnvironment(),
    });
    // `node -e` starts it, reads its certificate fingerprint and stops it.
    const script = `require('${packageName}').startSimulator({ port: 0 }).then(async (s) => {
      console.log(s.fingerprint256); await s.close(); })`;
    const outcome = await node(['-e', script]);
    should(outcome.stderr).equal('');
    should(outcome.stdout).match(/^([0-9A-F]{2}:){31}[0-9A-F]{2}\n$/);
  });
});
