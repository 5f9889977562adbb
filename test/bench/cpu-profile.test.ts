import should from 'should';
import {
  type CpuProfile,
  type HeapProfileNode,
  profileComparison,
  summariseHeapProfile,
  summariseProfile,
} from '../../bench/lib/cpu-profile';

type Frame = CpuProfile['nodes'][number]['callFrame'];

const frame = (functionName: string, url = ''): Frame => ({
  functionName,
  url,
  lineNumber: 0,
  columnNumber: 0,
});

const ROOT = frame('(root)');
const IDLE = frame('(idle)');
const UNDICI = frame('onBody', 'file:///app/node_modules/undici/lib/dispatcher/client-h1.js');
const EMIT = frame('emit', 'node:events');
const PACKAGE_API = frame('parseData', 'file:///app/dist/api/streams.js');
const JSON_PARSE = frame('parse');
const READABLE_NEXT = frame('next', 'node:internal/streams/readable');
const MICROTASKS = frame('runMicrotasks');
const SOMETHING = frame('compute', 'file:///app/lib/other.js');

/**
 * A profile of one chain of frames per sample (root first), each standing for `micros` (a sample counts
 * until the next one, so an idle sample ends the profile).
 */
function profileOf(stacks: Frame[][], micros = 100): CpuProfile {
  const rootChildren: number[] = [];
  const nodes: CpuProfile['nodes'] = [{ id: 1, callFrame: ROOT, children: rootChildren }];
  const samples: number[] = [];
  for (const stack of stacks) {
    let parent = nodes[0] as CpuProfile['nodes'][number];
    for (const callFrame of stack) {
      const node = { id: nodes.length + 1, callFrame, children: [] as number[] };
      nodes.push(node);
      parent.children?.push(node.id);
      parent = node;
    }
    samples.push(parent.id);
  }
  nodes.push({ id: nodes.length + 1, callFrame: IDLE, children: [] });
  rootChildren.push(nodes.length);
  samples.push(nodes.length);
  return {
    nodes,
    startTime: 0,
    endTime: micros * samples.length,
    samples,
    timeDeltas: samples.map(() => micros),
  };
}

describe('bench CPU profile summary', () => {
  it('counts a general-purpose frame for the nearest caller that names its owner', () => {
    const summary = summariseProfile(profileOf([[UNDICI, EMIT], [PACKAGE_API, EMIT], [UNDICI], [UNDICI]]));
    should(summary.byCategory.get('HTTP (undici)')).equal(300);
    should(summary.byCategory.get('package: dist/api (client, streams)')).equal(100);
  });

  it("counts JSON.parse as JSON even inside the package's code", () => {
    const summary = summariseProfile(
      profileOf([
        [PACKAGE_API, JSON_PARSE],
        [PACKAGE_API, JSON_PARSE],
      ]),
    );
    should(summary.byCategory.get('JSON (JSON.parse, JSON.stringify)')).equal(200);
    should(summary.byCategory.get('package: dist/api (client, streams)')).equal(0);
  });

  it("counts Node's stream plumbing with no owner on the stack apart from other JavaScript", () => {
    const summary = summariseProfile(
      profileOf([[MICROTASKS, READABLE_NEXT], [MICROTASKS], [SOMETHING], [SOMETHING]]),
    );
    should(
      summary.byCategory.get("Node's stream and promise plumbing (a body's Readable, for await, microtasks)"),
    ).equal(200);
    should(summary.byCategory.get('other JavaScript')).equal(200);
  });

  it('leaves idle samples out of the total', () => {
    const summary = summariseProfile(profileOf([[IDLE], [UNDICI], [IDLE], [IDLE]]));
    should(summary.total).equal(100);
  });

  it('lists self time per function and category, for the hot spots behind a category', () => {
    const summary = summariseProfile(
      profileOf([
        [UNDICI, EMIT],
        [PACKAGE_API, EMIT],
        [PACKAGE_API, EMIT],
      ]),
    );
    const emits = [...summary.self.entries()].filter(([name]) => name.startsWith('emit '));
    should(emits.map(([, micros]) => micros).sort()).eql([100, 200]);
  });

  it('sets two profiles side by side per event, with what the first costs beyond the second', () => {
    // The package: 3 undici samples and 1 of its own over 2 events; the bare reader: 2 undici samples over 4.
    const pkg = summariseProfile(profileOf([[UNDICI], [UNDICI], [UNDICI], [PACKAGE_API]]));
    const bare = summariseProfile(profileOf([[UNDICI], [UNDICI]]));
    const table = profileComparison(
      { label: 'package', summary: pkg, per: 2 },
      { label: 'bare', summary: bare, per: 4 },
    );
    const row = (start: string) =>
      (table.split('\n').find((line) => line.trim().startsWith(start)) ?? '').split(/\s{2,}/);
    should(row('HTTP (undici)').slice(-3)).eql(['150.00', '50.00', '+100.00']);
    should(row('package: dist/api').slice(-3)).eql(['50.00', '0.00', '+50.00']);
    should(row('all').slice(-3)).eql(['200.00', '50.00', '+150.00']);
  });
});

describe('bench heap profile summary', () => {
  it('sums the live bytes by the frame that allocated them', () => {
    const node = (id: number, callFrame: Frame, selfSize: number, children: HeapProfileNode[] = []) => ({
      id,
      callFrame,
      selfSize,
      children,
    });
    const head = node(1, ROOT, 0, [node(2, UNDICI, 4096, [node(3, EMIT, 1024)]), node(4, PACKAGE_API, 2048)]);
    const summary = summariseHeapProfile(head);
    should(summary.byCategory.get('HTTP (undici)')).equal(5120);
    should(summary.byCategory.get('package: dist/api (client, streams)')).equal(2048);
    should(summary.total).equal(7168);
  });
});
