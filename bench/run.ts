import { readdirSync } from 'node:fs';
import path from 'node:path';

/**
 * Runs every benchmark in this folder (each file exports `run()`), one after the other in this process.
 * Benchmarks are not tests: they print numbers and never fail on them. Names given as arguments select
 * files: `node --require tsx/cjs bench/run.ts zone-lookup`.
 */

interface BenchModule {
  run: () => void | Promise<void>;
}

function isBenchModule(value: unknown): value is BenchModule {
  return (
    typeof value === 'object' && value !== null && typeof (value as { run?: unknown }).run === 'function'
  );
}

async function main(): Promise<void> {
  const selected = process.argv.slice(2);
  const available = readdirSync(__dirname)
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts') && file !== 'run.ts')
    .map((file) => file.slice(0, -'.ts'.length))
    .sort();
  const unknown = selected.filter((name) => !available.includes(name));
  if (unknown.length > 0) {
    throw new Error(`no benchmark named ${unknown.join(', ')}; available: ${available.join(', ')}`);
  }

  for (const name of selected.length > 0 ? selected : available) {
    const loaded: unknown = require(path.join(__dirname, `${name}.ts`));
    if (!isBenchModule(loaded)) throw new Error(`bench/${name}.ts does not export a run() function`);
    await loaded.run();
    console.log('');
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
