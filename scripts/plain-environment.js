'use strict';
const path = require('node:path');

/**
 * The environment of a plain shell, as a user has it, for npm and Node-RED
 * started by scripts and tests: without npm's variables (under `npm test` they
 * carry this project's npm config, such as its prefix, into installs meant for
 * other folders) and without node_modules/.bin on PATH (where `npm` is the
 * npm 10 that node-red depends on, whose `pack --dry-run --ignore-scripts`
 * still runs `prepare` and so rebuilds dist/ under the tests).
 */
function plainEnvironment(env = process.env) {
  const plain = Object.fromEntries(Object.entries(env).filter(([name]) => !/^npm_/i.test(name)));
  plain.PATH = (plain.PATH ?? '')
    .split(path.delimiter)
    .filter((entry) => !/node_modules[\\/]\.bin$/.test(entry))
    .join(path.delimiter);
  return plain;
}

module.exports = { plainEnvironment };
