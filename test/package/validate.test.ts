/**
 * `npm run validate`: the flow library's scorecard checks, run offline. Each
 * failing case runs the script on a temporary copy of the package with one
 * thing broken, and expects exit code 1 and that check reported as FAIL.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import should from 'should';
import { plainEnvironment } from '../../scripts/plain-environment';

const root = join(__dirname, '..', '..');
const script = join(root, 'scripts', 'validate.js');

interface PackageJson {
  keywords: string[];
  dependencies: Record<string, string>;
  'node-red': { version: string; nodes: Record<string, string> };
  [field: string]: unknown;
}

function validate(dir: string): { status: number | null; output: string } {
  const result = spawnSync(process.execPath, [script, dir], { encoding: 'utf8' });
  return { status: result.status, output: result.stdout + result.stderr };
}

function failLines(output: string): string[] {
  return output.split('\n').filter((line) => line.startsWith('FAIL'));
}

describe('npm run validate (flow library scorecard)', () => {
  let copy: string;

  before(() => {
    if (!existsSync(join(root, 'dist', 'nodes'))) {
      throw new Error('dist/nodes is missing: run `npm run build` before this test');
    }
  });

  beforeEach(() => {
    // Only what the checks read: package.json, LICENSE, examples and the node files.
    copy = mkdtempSync(join(tmpdir(), 'validate-'));
    for (const part of ['package.json', 'LICENSE', 'examples', join('dist', 'nodes')]) {
      cpSync(join(root, part), join(copy, part), { recursive: true });
    }
  });

  afterEach(() => {
    rmSync(copy, { recursive: true, force: true });
  });

  function editPackageJson(edit: (pkg: PackageJson) => void) {
    const file = join(copy, 'package.json');
    const pkg = JSON.parse(readFileSync(file, 'utf8')) as PackageJson;
    edit(pkg);
    writeFileSync(file, JSON.stringify(pkg, null, 2));
  }

  it('passes every check on this package', () => {
    const { status, output } = validate(root);
    should(failLines(output)).eql([]);
    should(output).match(/^PASS/m);
    should(status).equal(0);
  });

  it('passes on a copy holding only the files it reads', () => {
    const { status, output } = validate(copy);
    should(failLines(output)).eql([]);
    should(status).equal(0);
  });

  it('fails when the package name is not scoped', () => {
    editPackageJson((pkg) => {
      pkg.name = 'node-red-local-api';
    });
    const { status, output } = validate(copy);
    should(status).equal(1);
    should(failLines(output).join('\n')).match(/scoped package name/);
  });

  it('fails when the node-red keyword is missing', () => {
    editPackageJson((pkg) => {
      pkg.keywords = pkg.keywords.filter((keyword) => keyword !== 'node-red');
    });
    const { status, output } = validate(copy);
    should(status).equal(1);
    should(failLines(output)).have.length(1);
    should(failLines(output)[0]).match(/"node-red" keyword/);
  });

  it('fails when node-red.version excludes Node-RED 5', () => {
    editPackageJson((pkg) => {
      pkg['node-red'].version = '>=4.0.0 <5.0.0';
    });
    const { status, output } = validate(copy);
    should(status).equal(1);
    should(failLines(output).join('\n')).match(/excludes 5\.0\.7/);
  });

  it('fails when node-red.version bounds the Node-RED line from above', () => {
    editPackageJson((pkg) => {
      pkg['node-red'].version = '>=4.0.0 <6.0.0';
    });
    const { status, output } = validate(copy);
    should(status).equal(1);
    should(failLines(output)).have.length(1);
    should(failLines(output)[0]).match(/node-red\.version states only a floor: .*<6\.0\.0/);
  });

  it('fails without repository and bugs URLs, a license or engines.node', () => {
    editPackageJson((pkg) => {
      delete pkg.repository;
      delete pkg.bugs;
      delete pkg.license;
      delete pkg.engines;
    });
    const { status, output } = validate(copy);
    should(status).equal(1);
    const failures = failLines(output).join('\n');
    should(failures).match(/repository or bugs URL/);
    should(failures).match(/license/);
    should(failures).match(/engines\.node/);
  });

  it('fails with more than six runtime dependencies', () => {
    editPackageJson((pkg) => {
      for (const name of ['a', 'b', 'c', 'd', 'e']) pkg.dependencies[`extra-${name}`] = '1.0.0';
    });
    const { status, output } = validate(copy);
    should(status).equal(1);
    should(failLines(output).join('\n')).match(/7 dependencies/);
  });

  it('fails when no example uses a node type', () => {
    const lookupExample = join(copy, 'examples', '02 Zones over HTTP.json');
    rmSync(lookupExample);
    const { status, output } = validate(copy);
    should(status).equal(1);
    should(failLines(output).join('\n')).match(/no example uses conference-audio-zone-lookup/);
  });

  it('fails when a node registers its type under a computed name', () => {
    const file = join(copy, 'dist', 'nodes', 'conference-audio-request', 'runtime.js');
    const source = readFileSync(file, 'utf8');
    writeFileSync(
      file,
      source.replace(/registerType\(\s*(['"])conference-audio-request\1/, 'registerType(TYPE'),
    );
    const { status, output } = validate(copy);
    should(status).equal(1);
    should(failLines(output).join('\n')).match(
      /conference-audio-request: registered by literal name in dist/,
    );
  });

  it('fails when a definition in the HTML spreads a helper, which stops the flow library reading it', () => {
    const file = join(copy, 'dist', 'nodes', 'conference-audio-request', 'runtime.html');
    const html = readFileSync(file, 'utf8');
    const spread = html.replace(/\n(\s*)name: \{ value: "" \},/, '\n$1...{ name: { value: "" } },');
    should(spread).not.equal(html);
    writeFileSync(file, spread);
    const { status, output } = validate(copy);
    should(status).equal(1);
    should(failLines(output)).have.length(1);
    should(failLines(output)[0]).match(
      /conference-audio-request: registered in its HTML .*a spread in defaults/,
    );
  });

  it('fails when a palette fact in the HTML is not a literal', () => {
    const file = join(copy, 'dist', 'nodes', 'conference-audio-events', 'runtime.html');
    const html = readFileSync(file, 'utf8');
    const computed = html.replace(/\bcolor: "[^"]*"/, 'color: PALETTE.color');
    should(computed).not.equal(html);
    writeFileSync(file, computed);
    const { status, output } = validate(copy);
    should(status).equal(1);
    should(failLines(output).join('\n')).match(/conference-audio-events: .*color is not a literal/);
  });

  it('passes on the package as npm pack lays it out, which is what the flow library reads', () => {
    const packed = mkdtempSync(join(tmpdir(), 'validate-packed-'));
    try {
      const output = execFileSync(
        'npm',
        ['pack', '--json', '--ignore-scripts', '--pack-destination', packed],
        { cwd: root, encoding: 'utf8', env: plainEnvironment(), stdio: ['ignore', 'pipe', 'ignore'] },
      );
      const [report] = JSON.parse(output) as Array<{ filename: string }>;
      execFileSync('tar', ['-xzf', join(packed, report?.filename ?? ''), '-C', packed]);
      const { status, output: checks } = validate(join(packed, 'package'));
      should(failLines(checks)).eql([]);
      should(status).equal(0);
    } finally {
      rmSync(packed, { recursive: true, force: true });
    }
  });
});
