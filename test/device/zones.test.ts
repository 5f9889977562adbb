import should from 'should';
import type { DeviceConnection } from '../../src/device/connection';
import { DeviceZones } from '../../src/device/zones';
import { type DeviceSimulator, sampleZones, startSimulator } from '../../src/simulator';
import type { ZoneReadResult } from '../../src/zones/types';
import { until } from '../support/wait';
import { connectTo } from './connect';

const PASSWORD = 'Zones-Test-Pw-1';
const LAYOUT_PATH = '/api/v1/room/layout';
const ZONES_PATH = '/api/v1/room/zones';

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

describe('device/zones: the zones of one device connection', () => {
  let sim: DeviceSimulator;
  let connection: DeviceConnection;

  beforeEach(async () => {
    sim = await startSimulator({ port: 0, passwords: { general: PASSWORD } });
  });
  afterEach(async () => {
    await connection?.close();
    await sim.close();
  });

  function connect(): DeviceConnection {
    connection = connectTo(sim, { password: PASSWORD });
    return connection;
  }

  const zoneReads = () =>
    sim.requests.filter((request) => [ZONES_PATH, LAYOUT_PATH].includes(request.path)).length;

  /**
   * Follows the zones without an initial read: what it hears is what the change stream brought about, a
   * failed read as undefined. Resolves once the change stream is open.
   */
  async function watching(): Promise<Array<ZoneReadResult | undefined>> {
    const heard: Array<ZoneReadResult | undefined> = [];
    connect().zones.subscribe(
      { onZones: (zones) => heard.push(zones), onError: () => heard.push(undefined) },
      { initial: false },
    );
    await until(() => sim.openStreams === 1, 'the change stream open');
    return heard;
  }

  it('remembers that its device serves the zones in the layout: the next read costs one request', async () => {
    sim.setFirmware('layout');
    await connect().zones.read();
    sim.resetRecords();
    await connection.zones.read();
    should(sim.requests.map((request) => request.path)).eql([LAYOUT_PATH]);
  });

  it('as a new connection asks the zones endpoint first again: the memory is per connection', async () => {
    sim.setFirmware('layout');
    await connect().zones.read();
    await connection.close();
    sim.resetRecords();
    await connect().zones.read();
    should(sim.requests.map((request) => request.path)).containEql(ZONES_PATH);
  });

  it('hands the zones an announcement carries to its watchers without reading them', async () => {
    const heard = await watching();
    sim.resetRecords();
    sim.emitChange(ZONES_PATH, { zones: sampleZones().slice(1) });
    await until(() => heard.length === 1, 'the announced zones');
    should(heard[0]?.zones).have.length(sampleZones().length - 1);
    should(zoneReads()).equal(0);
  });

  it('reads the zones once, and once more after the burst, for a flood of unreadable layout announcements', async () => {
    const heard = await watching();
    sim.resetRecords();
    for (let index = 0; index < 2000; index++) sim.emitChange(LAYOUT_PATH, 'not a layout');
    await until(() => heard.length === 2, 'the read during the flood and the one after it');
    // A third read would start one gap after the second: nothing asks for it.
    await delay(1500);
    should(zoneReads()).equal(2);
    should(heard.every((zones) => zones?.zones.length === sampleZones().length)).be.true();
  });

  it('reads the zones when the change stream drops an announcement too large to pass', async () => {
    const heard = await watching();
    sim.resetRecords();
    sim.emitChange(LAYOUT_PATH, { zones: sampleZones(), padding: 'x'.repeat(100 * 1024) });
    await until(() => heard.length === 1, 'the zones read after the dropped announcement');
    should(zoneReads()).equal(1);
  });

  it('does not read the zones when the dropped announcement was about something else', async () => {
    const heard = await watching();
    sim.resetRecords();
    sim.emitChange('/api/v1/audio', { padding: 'x'.repeat(100 * 1024) });
    await delay(200);
    // Announced after the dropped one, on the same stream: heard once the dropped one was handled.
    sim.emitChange(ZONES_PATH, { zones: sampleZones() });
    await until(() => heard.length === 1, 'the announcement after the dropped one');
    await delay(300);
    should(zoneReads()).equal(0);
  });

  it('tells its followers when the read after an announcement fails', async () => {
    const heard = await watching();
    sim.setFault({ kind: 'status', status: 500, path: ZONES_PATH });
    sim.emitChange(LAYOUT_PATH, 'not a layout');
    await until(() => heard.length === 1, 'the failed read told');
    should(heard[0]).be.undefined();
  });
});

describe('device/zones: the one owner of the zones, for every node of the device', () => {
  let sim: DeviceSimulator;
  let connection: DeviceConnection;

  beforeEach(async () => {
    sim = await startSimulator({ port: 0, passwords: { general: PASSWORD } });
    connection = connectTo(sim, { password: PASSWORD });
  });
  afterEach(async () => {
    await connection.close();
    await sim.close();
  });

  const zoneReads = () => sim.requests.filter((request) => request.path === ZONES_PATH).length;

  /** What a listener heard: zone counts, and the codes of failed reads. */
  function listener() {
    const heard: Array<number | string> = [];
    return {
      heard,
      onZones: (zones: ZoneReadResult) => heard.push(zones.zones.length),
      onError: (error: { code: string }) => heard.push(error.code),
    };
  }

  it('reads the zones once for many followers, and hands a later follower the zones it holds', async () => {
    const first = listener();
    const second = listener();
    connection.zones.subscribe(first);
    connection.zones.subscribe(second);
    await until(() => first.heard.length === 1 && second.heard.length === 1, 'the zones for both');
    const later = listener();
    connection.zones.subscribe(later);
    should(later.heard).eql([sampleZones().length]);
    should(zoneReads()).equal(1);
  });

  it('reads the zones again by itself after a failed read, while anyone follows them', async () => {
    sim.setFault({ kind: 'status', status: 500, path: ZONES_PATH, times: 1 });
    const follower = listener();
    connection.zones.subscribe(follower);
    await until(() => follower.heard.length === 2, 'the failure, then the zones', 5000);
    should(follower.heard[0]).be.a.String();
    should(follower.heard[1]).equal(sampleZones().length);
    should(zoneReads()).equal(2);
  });

  it('hands a poll subscriber its own reads on its rhythm, and no one else its reads', async () => {
    const polled = listener();
    const slow = listener();
    connection.zones.subscribe(polled, { follow: false, everyMs: 30, initial: false });
    connection.zones.subscribe(slow, { follow: false, everyMs: 60_000, initial: false });
    await until(() => polled.heard.length >= 3, 'three polls');
    should(slow.heard).eql([]);
    // No change stream for polls alone.
    should(sim.openStreams).equal(0);
  });

  it('hands a poll subscriber that follows each read once, and its failures once', async () => {
    sim.setFault({ kind: 'status', status: 500, path: ZONES_PATH, times: 1 });
    const polled = listener();
    connection.zones.subscribe(polled, { everyMs: 40, initial: false });
    await until(() => polled.heard.length >= 3, 'a failure and two reads');
    should(polled.heard.filter((heard) => typeof heard === 'string')).have.length(1);
    should(polled.heard.length).be.belowOrEqual(zoneReads());
  });

  it('answers from the zones it holds within the age asked for, and reads them after it', async () => {
    await connection.zones.read();
    await connection.zones.fresh(60_000);
    should(zoneReads()).equal(1);
    await delay(20);
    await connection.zones.fresh(10);
    should(zoneReads()).equal(2);
    should(connection.zones.current()?.zones).have.length(sampleZones().length);
  });

  it('stops following, and every timer, when the last follower leaves', async () => {
    const follower = listener();
    const leave = connection.zones.subscribe(follower);
    await until(() => follower.heard.length === 1 && sim.openStreams === 1, 'the zones and the stream');
    leave();
    await until(() => sim.openStreams === 0, 'the change stream closed');
    sim.setZones(sampleZones().slice(1));
    await delay(100);
    should(follower.heard).have.length(1);
  });
});

describe('device/zones: the net under the change stream', () => {
  let sim: DeviceSimulator;
  let connection: DeviceConnection;

  beforeEach(async () => {
    sim = await startSimulator({ port: 0, passwords: { general: PASSWORD } });
    connection = connectTo(sim, { password: PASSWORD });
  });
  afterEach(async () => {
    await connection.close();
    await sim.close();
  });

  it('reads followed zones again after the refresh time without news, and not before', async () => {
    const zones = new DeviceZones(connection.client, {
      followChanges: (subscriber) => connection.subscribeStream('changes', subscriber),
      refreshMs: 300,
    });
    const heard: number[] = [];
    zones.subscribe({ onZones: (read) => heard.push(read.at) });
    await until(() => heard.length === 1, 'the first read');
    await delay(150);
    should(heard).have.length(1);
    await until(() => heard.length === 2, 'the read of the net', 2000);
    should((heard[1] ?? 0) - (heard[0] ?? 0)).be.aboveOrEqual(290);
    zones.close();
  });
});
