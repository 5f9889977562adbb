/**
 * The Rooms dashboard page of examples/09: its "rooms table" function, run in Node-RED's own function node
 * (the test helper), turns the retained `<site>/status/<room>` messages into the table's rows.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import should from 'should';
import { helper, requireFromRuntime } from '../nodes/support';
import { until } from '../support/wait';

type FlowNode = Record<string, unknown> & { id: string; type: string; name?: string };
const example: FlowNode[] = JSON.parse(
  readFileSync(path.join(__dirname, '..', '..', 'examples', '09 Many rooms.json'), 'utf8'),
);
const functionNode = requireFromRuntime<(RED: unknown) => void>(
  '@node-red/nodes/core/function/10-function.js',
);

interface Row {
  room: string;
  status: string;
}

describe('the Rooms dashboard table (examples/09)', () => {
  const table = example.find((node) => node.name === 'rooms table') as FlowNode;
  let rows: Row[][];

  beforeEach(async () => {
    rows = [];
    await helper.load([functionNode] as never, [
      { id: 'tab', type: 'tab' },
      { ...table, z: 'tab', wires: [['out']] },
      { id: 'out', type: 'helper', z: 'tab' },
    ]);
    helper.getNode('out').on('input', (msg: { payload: Row[] }) => rows.push(msg.payload));
  });

  afterEach(() => helper.unload());

  const send = (room: string, status: string) =>
    helper.getNode(table.id).receive({ topic: `building-1/status/${room}`, payload: status });
  /** The rows after the `count`th message, as `room:status`. */
  const shownAfter = async (count: number) => {
    await until(() => rows.length >= count, `${count} tables`);
    // Array.from: the rows were made in the function node's sandbox, with its own Array prototype.
    return Array.from(rows[count - 1] ?? [], (row) => `${row.room}:${row.status}`);
  };

  it('lists the rooms that are not online first, each part by name', async () => {
    for (const [room, status] of [
      ['c', 'online'],
      ['b', 'offline'],
      ['a', 'online'],
      ['d', 'unauthorized'],
    ])
      send(room as string, status as string);
    should(await shownAfter(4)).eql(['b:offline', 'd:unauthorized', 'a:online', 'c:online']);
  });

  it('lists the muted rooms after the rooms with a problem and before the online ones', async () => {
    for (const [room, status] of [
      ['a', 'online'],
      ['b', 'muted'],
      ['c', 'unreachable'],
      ['d', 'muted'],
    ])
      send(room as string, status as string);
    should(await shownAfter(4)).eql(['c:unreachable', 'b:muted', 'd:muted', 'a:online']);
  });

  it("keeps one row per room, with the room's latest status", async () => {
    send('a', 'connecting');
    send('a', 'online');
    should(await shownAfter(2)).eql(['a:online']);
  });

  it('drops the row of a room whose retained status was cleared', async () => {
    send('a', 'online');
    send('b', 'online');
    send('a', '');
    should(await shownAfter(3)).eql(['b:online']);
  });
});
