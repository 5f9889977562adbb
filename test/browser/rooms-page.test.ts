/**
 * The Rooms page of examples/09 in Dashboard 2.0, as a user opens it (one glance tells
 * which rooms are offline, muted or unauthorized; offline, from the broker's last will, is
 * test/rooms/two-instances.test.ts): a real Node-RED with this package and the dashboard,
 * an MQTT broker (aedes), the example's three rooms each pointed at a device simulator of its own, and a
 * headless Chromium on /dashboard/rooms. Every request of the page stays on this machine.
 */
import should from 'should';
import { type DeviceSimulator, startSimulator } from '../../src/simulator';
import { deployFlows } from '../e2e/node-red';
import { type Broker, PRESENTER, startBroker } from '../rooms/support';
import { probeUntil } from '../support/wait';
import {
  type Browser,
  describeProblem,
  launchBrowser,
  type NodeRed,
  openWhenServed,
  startNodeRed,
  stopAll,
} from './harness';
import { type RequestRecorder, recordRequests } from './network';
import { exampleRooms, roomsExampleFlows } from './rooms-example';

/** The room name and status of each row, top to bottom, as the page shows them. */
type Row = [room: string, status: string];

describe('the Rooms page of examples/09 on Dashboard 2.0 (real Node-RED, broker and Chromium)', function () {
  this.timeout(120_000);
  let broker: Broker | undefined;
  const devices = new Map<string, DeviceSimulator>();
  let nodeRed: NodeRed | undefined;
  let browser: Browser | undefined;
  let recorder: RequestRecorder | undefined;
  const device = (room: string) => devices.get(room) as DeviceSimulator;

  before(async () => {
    broker = await startBroker();
    for (const room of exampleRooms) {
      devices.set(room, await startSimulator({ port: 0, talker: 'still', talkerAt: PRESENTER }));
    }
    const flows = roomsExampleFlows(broker.port, (room) => device(room).port);
    nodeRed = await startNodeRed({ waitForTypes: ['conference-audio-state', 'ui-table', 'mqtt in'] });
    await deployFlows(nodeRed, flows);
    browser = await launchBrowser({ viewport: { width: 1000, height: 600 } });
    recorder = await recordRequests(browser.context);
    await openWhenServed(browser.page, `${nodeRed.url}/dashboard/rooms`, 'the Rooms page');
  });

  after(async () => {
    await stopAll({ recorder, browser, nodeRed });
    await broker?.close();
    for (const simulator of devices.values()) await simulator.close();
  });

  function shownRows(): Promise<Row[]> {
    return (browser as Browser).page.$$eval('table tbody tr', (rows) =>
      rows
        .map((row) => Array.from(row.querySelectorAll('td'), (cell) => cell.textContent?.trim() ?? ''))
        .filter((cells) => cells.length >= 2)
        .map((cells): [string, string] => [cells[0] ?? '', cells[1] ?? '']),
    );
  }

  /** Waits until the page shows exactly `wanted`, in that order. */
  async function untilShown(wanted: Row[], what: string): Promise<void> {
    let last: Row[] = [];
    try {
      await probeUntil(
        what,
        async () => {
          last = await shownRows();
          return JSON.stringify(last) === JSON.stringify(wanted) ? true : undefined;
        },
        30_000,
      );
    } catch (error) {
      throw new Error(`${(error as Error).message}; the page shows ${JSON.stringify(last)}`);
    }
  }

  it('lists every room of the site, online, by name', async () => {
    const rooms = [...devices.keys()].sort((a, b) => a.localeCompare(b));
    should(rooms).have.length(3);
    await untilShown(
      rooms.map((room): Row => [room, 'online']),
      'every room online',
    );
  });

  // Each room that changes sorts after another by name, so only the status can put it on top.
  it('shows a room whose microphone is muted as muted, above the online ones', async () => {
    device('training').setMuted(true);
    await untilShown(
      [
        ['training', 'muted'],
        ['boardroom', 'online'],
        ['huddle-1', 'online'],
      ],
      'training muted, on top',
    );
  });

  it('puts a room whose device is gone on top, as unreachable', async () => {
    await device('huddle-1').close();
    await untilShown(
      [
        ['huddle-1', 'unreachable'],
        ['training', 'muted'],
        ['boardroom', 'online'],
      ],
      'huddle-1 unreachable, on top',
    );
    await (browser as Browser).screenshot('dashboard-rooms');
  });

  it('shows a room whose microphone is live again as online, among the online ones by name', async () => {
    device('training').setMuted(false);
    await untilShown(
      [
        ['huddle-1', 'unreachable'],
        ['boardroom', 'online'],
        ['training', 'online'],
      ],
      'training online again',
    );
  });

  it('puts a room whose device refuses its password among the problems, as unauthorized', async () => {
    device('training').setPassword('general', 'a-password-nobody-told-node-red');
    // A reboot ends the sessions and streams, so the room logs in again, with its old password.
    device('training').reboot();
    await untilShown(
      [
        ['huddle-1', 'unreachable'],
        ['training', 'unauthorized'],
        ['boardroom', 'online'],
      ],
      'training unauthorized, among the problems',
    );
  });

  it('asks no host but this machine, and reports no page error', () => {
    should((recorder as RequestRecorder).nonLocal()).eql([]);
    const errors = (browser as Browser).problems.filter((problem) => problem.kind === 'pageerror');
    should(errors.map(describeProblem)).eql([]);
  });
});
