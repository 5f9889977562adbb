/**
 * What `npm pack` would publish: everything Node-RED and a user need, and
 * nothing else. Reads the file list of `npm pack --dry-run` (scripts off, so
 * the test never rebuilds dist/ under other tests' feet: run `npm run build` first).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import should from 'should';
import { plainEnvironment } from '../../scripts/plain-environment';

const root = join(__dirname, '..', '..');
const packageJson = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  scripts?: Record<string, string>;
  main?: string;
  types?: string;
  bin?: Record<string, string>;
  'node-red': { nodes: Record<string, string> };
};
const nodeFiles = Object.entries(packageJson['node-red'].nodes);

interface PackReport {
  size: number;
  unpackedSize: number;
  files: Array<{ path: string }>;
}

function packReport(): PackReport {
  const output = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
    cwd: root,
    encoding: 'utf8',
    env: plainEnvironment(),
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const [report] = JSON.parse(output) as PackReport[];
  if (report === undefined) throw new Error('npm pack --dry-run --json reported nothing');
  return report;
}

/** Icon file names the editor registration of each node asks for (`icon: 'x.svg'`). */
function iconsNamedInHtml(htmlFile: string): string[] {
  const html = readFileSync(htmlFile, 'utf8');
  return [...html.matchAll(/\bicon\s*:\s*['"]([^'"]+)['"]/g)].map((match) => match[1]);
}

describe('the npm package contents', () => {
  let files: Set<string>;
  let report: PackReport;

  before(() => {
    if (!existsSync(join(root, 'dist', 'nodes'))) {
      throw new Error('dist/nodes is missing: run `npm run build` before this test');
    }
    report = packReport();
    files = new Set(report.files.map((file) => file.path));
  });

  function shouldShip(path: string) {
    should(files.has(path)).be.true(`${path} is missing from the package`);
  }

  it('ships the runtime file and the editor HTML of every node type', () => {
    for (const [, file] of nodeFiles) {
      shouldShip(posix.normalize(file));
      shouldShip(posix.normalize(file).replace(/\.js$/, '.html'));
    }
  });

  it('ships the en-US and de message catalogues of every node type', () => {
    for (const [, file] of nodeFiles) {
      for (const language of ['en-US', 'de']) {
        shouldShip(
          posix.join(posix.dirname(file), 'locales', language, `${posix.basename(file, '.js')}.json`),
        );
      }
    }
  });

  it('ships every icon the editor asks for, beside the node files', () => {
    const icons = nodeFiles.flatMap(([, file]) =>
      iconsNamedInHtml(join(root, file.replace(/\.js$/, '.html'))).map((icon) =>
        posix.join(posix.dirname(file), 'icons', icon),
      ),
    );
    should(icons).not.be.empty();
    for (const icon of icons) shouldShip(icon);
  });

  it('ships every example flow', () => {
    const examples = readdirSync(join(root, 'examples')).filter((name) => name.endsWith('.json'));
    should(examples).not.be.empty();
    for (const example of examples) shouldShip(`examples/${example}`);
  });

  it('ships the simulator command line named in bin', () => {
    const bins = Object.values(packageJson.bin ?? {});
    should(bins).not.be.empty();
    for (const bin of bins) shouldShip(posix.normalize(bin));
  });

  it('ships the main and types entry points', () => {
    shouldShip(posix.normalize(packageJson.main ?? 'index.js'));
    if (packageJson.types) shouldShip(posix.normalize(packageJson.types));
  });

  it('ships README, LICENSE and CHANGELOG', () => {
    for (const document of ['README.md', 'LICENSE', 'CHANGELOG.md']) shouldShip(document);
  });

  it('has no script that npm 11 lists as an install script, so a tarball install warns of none', () => {
    // npm 11 warns "install scripts not yet covered by allowScripts" for these (for `prepare` when the
    // package does not come from the registry, as a tarball does), even though it never runs `prepare` then.
    const warnedAbout = ['preinstall', 'install', 'postinstall', 'prepare'];
    should(warnedAbout.filter((event) => packageJson.scripts?.[event] !== undefined)).eql([]);
  });

  it('ships every file a script that npm runs when packing or installing the package (from git too) names', () => {
    // `dependencies` runs after npm install in the clone npm makes of a git dependency, `prepack` on pack.
    const installScripts = ['preinstall', 'install', 'postinstall', 'prepare', 'prepack', 'dependencies'];
    for (const event of installScripts) {
      const command = packageJson.scripts?.[event];
      if (command === undefined) continue;
      const named = [...command.matchAll(/(?:^|\s)([\w./-]+\.(?:c?js|mjs|sh))(?=\s|$)/g)].map(
        (match) => match[1],
      );
      should(named.length).be.above(0, `"${event}": "${command}" names no file this test knows how to find`);
      for (const file of named) shouldShip(posix.normalize(file));
    }
  });

  it('leaves out tests, TypeScript sources, benchmarks, development scripts and local folders', () => {
    const unwanted = [...files].filter(
      (path) =>
        (/^(test|src|bench|\.tmp|\.node-red-demo[^/]*|node_modules|coverage|scripts)\//.test(path) &&
          path !== 'scripts/build.js') ||
        (path.endsWith('.ts') && !path.endsWith('.d.ts')),
    );
    should(unwanted).eql([]);
  });

  it('ships source maps only together with the sources they point to', () => {
    for (const map of [...files].filter((path) => path.endsWith('.map'))) {
      const { sources } = JSON.parse(readFileSync(join(root, map), 'utf8')) as { sources: string[] };
      for (const source of sources) shouldShip(posix.normalize(posix.join(posix.dirname(map), source)));
    }
  });

  it('ships only what a user needs: the built package, the examples, the documents and the git-install build', () => {
    const needed =
      /^(dist\/|examples\/[^/]+\.json$|(README|CHANGELOG)\.md$|LICENSE$|package\.json$|scripts\/build\.js$)/;
    should([...files].filter((path) => !needed.test(path))).eql([]);
  });

  it('leaves out the type declarations of the node runtimes, which nothing imports', () => {
    should([...files].filter((path) => path.startsWith('dist/nodes/') && path.endsWith('.d.ts'))).eql([]);
    shouldShip('dist/index.d.ts');
  });

  it('states its packed size in the README, within a tenth', () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8').replace(/\s+/g, ' ');
    const stated = /about (\d+) kB packed/.exec(readme)?.[1];
    should.exist(stated, 'the README does not say "about <n> kB packed"');
    const packedKb = report.size / 1000;
    should(Math.abs(Number(stated) - packedKb) / packedKb).be.below(
      0.1,
      `the README says ${stated} kB, npm pack makes ${packedKb.toFixed(1)} kB`,
    );
  });
});
