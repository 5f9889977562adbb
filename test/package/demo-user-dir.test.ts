/**
 * `npm start` keeps one user directory per run: a second run beside a first gets `.node-red-demo-2/`,
 * a directory left behind by a run that died is taken over, and when every one is held it says which runs
 * hold them. Other runs are stood in for by real processes whose pids are in the lock files.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import should from 'should';

interface Claim {
  dir: string;
  busy: Array<{ dir: string; holder: number }>;
  release(): void;
}
const demo = require('../../scripts/start.js') as {
  claimUserDir(baseDir: string, explicit?: string): Claim;
};

describe('the user directory of npm start', () => {
  let base: string;
  let otherRun: ChildProcess;

  function holdByOtherRun(name: string, pid = otherRun.pid): void {
    mkdirSync(join(base, name), { recursive: true });
    writeFileSync(join(base, name, '.demo-lock'), `${pid}\n`);
  }

  beforeEach(() => {
    base = mkdtempSync(join(tmpdir(), 'ca-demo-dirs-'));
    otherRun = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
  });

  afterEach(async () => {
    if (otherRun.exitCode === null && otherRun.signalCode === null) {
      otherRun.kill('SIGKILL');
      await once(otherRun, 'exit');
    }
    rmSync(base, { recursive: true, force: true });
  });

  it('takes .node-red-demo/ when no other run holds it, and frees it on release', () => {
    const claim = demo.claimUserDir(base);
    should(claim.dir).equal(join(base, '.node-red-demo'));
    should(readFileSync(join(claim.dir, '.demo-lock'), 'utf8').trim()).equal(String(process.pid));
    claim.release();
    should(existsSync(join(claim.dir, '.demo-lock'))).be.false();
  });

  it('gives a second run .node-red-demo-2/ and names the run that holds the first', () => {
    holdByOtherRun('.node-red-demo');
    const claim = demo.claimUserDir(base);
    should(claim.dir).equal(join(base, '.node-red-demo-2'));
    should(claim.busy).eql([{ dir: join(base, '.node-red-demo'), holder: otherRun.pid }]);
    claim.release();
  });

  it('takes over the directory of a run that ended without releasing it', async () => {
    otherRun.kill('SIGKILL');
    await once(otherRun, 'exit');
    holdByOtherRun('.node-red-demo');
    const claim = demo.claimUserDir(base);
    should(claim.dir).equal(join(base, '.node-red-demo'));
    should(claim.busy).eql([]);
    claim.release();
  });

  it('says which runs hold every directory when none is free', () => {
    holdByOtherRun('.node-red-demo');
    for (let index = 2; index <= 9; index++) holdByOtherRun(`.node-red-demo-${index}`);
    should(() => demo.claimUserDir(base)).throw({ code: 'DEMO_DIRS_BUSY' });
    should(() => demo.claimUserDir(base)).throw(new RegExp(`pid ${otherRun.pid}[\\s\\S]*Ctrl-C`));
  });

  it('refuses a --user-dir that another run holds', () => {
    holdByOtherRun('mine');
    should(() => demo.claimUserDir(base, join(base, 'mine'))).throw({ code: 'DEMO_DIRS_BUSY' });
  });
});
