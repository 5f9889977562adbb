/**
 * `npm run test:e2e` (scripts/e2e.js) runs every Node-RED line's end-to-end tests and, on one line, the
 * node, reliability and rooms tests on that line's runtime. A failure in the first must not keep the
 * second from running: both are run, both reported, and either failing fails the run.
 */
import should from 'should';

interface LineOutcome {
  e2e: boolean;
  nodeTests?: boolean;
}
interface Line {
  label: string;
  nodeBinary: string;
  redJs: string;
  nodeRedFolder?: string;
}
type Spawn = (command: string, args: string[], options: unknown) => { status: number | null };

const e2eScript = require('../../scripts/e2e.js') as {
  runLine(line: Line, tarball: string, spawn: Spawn): LineOutcome;
  lineFailures(outcome: LineOutcome): string[];
  lineReport(outcome: LineOutcome): string;
};

/** Records the test runs asked for, and fails those whose arguments match `failing`. */
function recordingSpawn(failing: RegExp): { spawn: Spawn; runs: string[] } {
  const runs: string[] = [];
  const spawn: Spawn = (_command, args) => {
    const run = args.join(' ');
    runs.push(run);
    return { status: failing.test(run) ? 1 : 0 };
  };
  return { spawn, runs };
}

const NODE_RED_5: Line = {
  label: 'Node-RED 5 on the newest Node 22',
  nodeBinary: process.execPath,
  redJs: '/nowhere/node-red/red.js',
  nodeRedFolder: '/nowhere/node-red',
};

describe('scripts/e2e.js: a failed end-to-end line does not hide the rest', () => {
  let log: typeof console.log;
  beforeEach(() => {
    log = console.log;
    console.log = () => undefined;
  });
  afterEach(() => {
    console.log = log;
  });

  it('runs the node, reliability and rooms tests of a line whose end-to-end tests failed', () => {
    const { spawn, runs } = recordingSpawn(/test\/e2e/);
    const outcome = e2eScript.runLine(NODE_RED_5, 'package.tgz', spawn);
    should(runs.some((run) => /test\/nodes.*test\/reliability.*test\/rooms/.test(run))).be.true();
    should(outcome).eql({ e2e: false, nodeTests: true });
  });

  it('reports both results, and counts the line failed when either failed', () => {
    should(e2eScript.lineReport({ e2e: false, nodeTests: true })).equal(
      'end-to-end tests FAILED; node, reliability and rooms tests passed',
    );
    should(e2eScript.lineFailures({ e2e: false, nodeTests: true })).eql(['end-to-end tests']);
    should(e2eScript.lineFailures({ e2e: true, nodeTests: false })).eql([
      'node, reliability and rooms tests',
    ]);
    should(e2eScript.lineFailures({ e2e: false, nodeTests: false })).have.length(2);
    should(e2eScript.lineFailures({ e2e: true, nodeTests: true })).eql([]);
  });

  it('runs only the end-to-end tests on a line without the node tests', () => {
    const { spawn, runs } = recordingSpawn(/$^/);
    const { nodeRedFolder: _none, ...line } = NODE_RED_5;
    should(e2eScript.runLine(line, 'package.tgz', spawn)).eql({ e2e: true });
    should(runs).have.length(1);
  });
});
