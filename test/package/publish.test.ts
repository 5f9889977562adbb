/**
 * `npm publish --dry-run` accepts the package: what a release would send, checked without a registry. The
 * registry is an address nothing answers on, and npm is offline: the check never publishes and needs no
 * network or login.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import should from 'should';
import { plainEnvironment } from '../../scripts/plain-environment';

const root = join(__dirname, '..', '..');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  name: string;
  version: string;
};
/** A port nothing listens on: a publish that tried to reach it would fail. */
const NO_REGISTRY = 'http://127.0.0.1:9/';

interface PublishReport {
  id: string;
  name: string;
  version: string;
  files: Array<{ path: string }>;
}

describe('npm publish --dry-run', function () {
  this.timeout(120_000);
  let status: number | null;
  let stderr: string;
  let report: PublishReport | undefined;

  before(() => {
    if (!existsSync(join(root, 'dist', 'nodes'))) {
      throw new Error('dist/nodes is missing: run `npm run build` before this test');
    }
    const run = spawnSync(
      'npm',
      ['publish', '--dry-run', '--json', '--ignore-scripts', '--offline', '--registry', NO_REGISTRY],
      { cwd: root, encoding: 'utf8', env: plainEnvironment() },
    );
    status = run.status;
    stderr = run.stderr;
    const parsed = JSON.parse(run.stdout || '{}') as Record<string, PublishReport>;
    report = parsed[manifest.name];
  });

  it('passes', () => {
    should(status).equal(0, stderr);
  });

  it('would publish this name and version', () => {
    should.exist(report);
    should(report?.id).equal(`${manifest.name}@${manifest.version}`);
  });

  it('only pretends: it says so, and it never reached a registry', () => {
    should(stderr).match(/\(dry-run\)/);
    should(stderr).not.match(/ECONNREFUSED|E404|ENEEDAUTH/);
  });

  it('would send the built nodes and no test', () => {
    const paths = (report?.files ?? []).map((file) => file.path);
    should(paths).containEql('dist/nodes/conference-audio-device/runtime.js');
    should(paths.filter((path) => path.startsWith('test/') || path.startsWith('src/'))).eql([]);
  });
});
