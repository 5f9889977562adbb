#!/usr/bin/env node
// `npm run screenshots`: regenerates the README's pictures of the editor in
// docs/ (test/browser/screenshots.ts, on the browser test's harness: a real
// Node-RED with this package, the simulator and Debian's Chromium).
'use strict';
const path = require('node:path');
const { prepare, run, root } = require('./browser-test.js');

prepare();
process.exitCode = run(process.execPath, [
  '--require',
  'tsx/cjs',
  path.join(root, 'test', 'browser', 'screenshots.ts'),
]);
