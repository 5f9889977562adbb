/**
 * Which Node-RED the benchmarks run: this project's Node-RED 4 unless `BENCH_RED_JS` names another's
 * `red.js` (the end-to-end tests' Node-RED 5 in `.tmp/node-red-5/`, say). The Node it runs on is the
 * benchmark's own (run the benchmark with that Node) or, for a Node-RED in a child process,
 * `BENCH_NODE_BINARY`.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

const projectRoot = path.resolve(__dirname, '..', '..');

/**
 * Node-RED's `red.js`, which starts it from its command line. A relative `BENCH_RED_JS` is taken from
 * where the benchmark was started: Node-RED's child process runs in its user directory.
 */
export const benchRedJs: string = process.env.BENCH_RED_JS
  ? path.resolve(process.env.BENCH_RED_JS)
  : path.join(projectRoot, 'node_modules', 'node-red', 'red.js');

/** The `node-red` package folder itself, for `require` (as `require('node-red')` would find it). */
export const benchNodeRedPackage: string = path.dirname(benchRedJs);

/** That Node-RED's version, from its package.json (`RED.version()` adds `-git` inside a git checkout). */
export function benchNodeRedVersion(): string {
  const packageJson = path.join(benchNodeRedPackage, 'package.json');
  return (JSON.parse(readFileSync(packageJson, 'utf8')) as { version: string }).version;
}
