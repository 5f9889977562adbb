#!/usr/bin/env node
// `npm run test:browser`: the editor tried as a new user would, in a real
// Node-RED and a real headless Chromium (test/browser). Builds dist/ when it is
// missing (Node-RED loads the package from there), makes sure Chromium is
// present, then runs mocha and exits with its status. `npm run screenshots`
// (scripts/screenshots.js) prepares the same way, through `prepare()`.
'use strict';
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const chromiumPath = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const installHint =
  'Install it with `apt-get update && apt-get install -y chromium` (as root, on Debian or Ubuntu), ' +
  'or point CHROMIUM_PATH at a Chromium or Chrome binary.';

function run(command, args) {
  console.log(`> ${command} ${args.join(' ')}`);
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  if (result.error) throw result.error;
  return result.status ?? 1;
}

function hasAptGet() {
  return spawnSync('apt-get', ['--version'], { stdio: 'ignore' }).status === 0;
}

function ensureChromium() {
  if (fs.existsSync(chromiumPath)) return;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (chromiumPath !== '/usr/bin/chromium' || !isRoot || !hasAptGet()) {
    console.error(`Chromium was not found at ${chromiumPath}; the browser test needs it.\n${installHint}`);
    process.exit(1);
  }
  console.log(
    `Chromium was not found at ${chromiumPath}: installing Debian's chromium package with apt-get.`,
  );
  if (run('apt-get', ['update']) !== 0 || run('apt-get', ['install', '-y', 'chromium']) !== 0) {
    console.error(`Installing chromium failed.\n${installHint}`);
    process.exit(1);
  }
  if (!fs.existsSync(chromiumPath)) {
    console.error(`apt-get installed chromium, but ${chromiumPath} still does not exist.\n${installHint}`);
    process.exit(1);
  }
}

/** dist/ (built when missing) and Chromium (installed when missing and possible), or exit with a reason. */
function prepare() {
  if (!fs.existsSync(path.join(root, 'dist', 'nodes'))) {
    if (run(process.execPath, [path.join(root, 'scripts', 'build.js')]) !== 0) process.exit(1);
  }
  ensureChromium();
}

module.exports = { prepare, run, root };

if (require.main === module) {
  prepare();
  const mocha = path.join(path.dirname(require.resolve('mocha/package.json')), 'bin', 'mocha.js');
  process.exitCode = run(process.execPath, [
    mocha,
    '--no-config',
    '--require',
    'tsx/cjs',
    '--extension',
    'ts',
    '--timeout',
    '120000',
    'test/browser/**/*.test.ts',
  ]);
}
