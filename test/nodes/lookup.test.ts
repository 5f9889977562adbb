import should from 'should';
import { type DeviceSimulator, sampleZones } from '../../src/simulator';
import type { Zone } from '../../src/zones/types';
import {
  catchModule,
  completeModule,
  counter,
  deviceConfig,
  doneWatchers,
  helper,
  lookupNodeDef,
  nodeModules,
  receiveUntilDone,
  tab,
  until,
  useSimulator,
} from './support';

const ZONES_PATH = '/api/v1/room/zones';

function lookupNode(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return lookupNodeDef('n-lookup', ['inside', 'outside'], extra);
}

function centreOf(zone: Zone) {
  const { point1, point2 } = zone.geometry;
  return { x: (point1.x + point2.x) / 2, y: (point1.y + point2.y) / 2 };
}

describe('zone lookup node (conference-audio-zone-lookup)', () => {
  let sim: DeviceSimulator;
  let inside: ReturnType<typeof counter>;
  let outside: ReturnType<typeof counter>;
  let ok: ReturnType<typeof counter>;
  let failed: ReturnType<typeof counter>;
  const zones = () => sampleZones() as Zone[];

  async function load(extra: Record<string, unknown> = {}, withDevice = true) {
    await helper.load(nodeModules(completeModule, catchModule), [
      tab,
      ...(withDevice ? [deviceConfig(sim)] : []),
      lookupNode(extra),
      { id: 'inside', type: 'helper', z: 'f1' },
      { id: 'outside', type: 'helper', z: 'f1' },
      ...doneWatchers('n-lookup'),
    ]);
    inside = counter(helper.getNode('inside'));
    outside = counter(helper.getNode('outside'));
    ok = counter(helper.getNode('ok'));
    failed = counter(helper.getNode('failed'));
  }

  function send(msg: Record<string, unknown>): Promise<void> {
    return receiveUntilDone('n-lookup', msg, { ok, failed });
  }

  useSimulator({}, (started) => {
    sim = started;
  });

  it('sends a point inside a zone to output 1 with the zones, the first zone and the point', async () => {
    await load();
    const target = zones()[1];
    await send({ payload: centreOf(target), _msgid: 'p1' });
    const msg = inside.messages[0];
    should(msg._msgid).equal('p1');
    should((msg.payload as Zone[]).map((z) => z.id)).eql([target.id]);
    should((msg.zone as Zone & { bounds: unknown }).id).equal(target.id);
    should(msg.zone).have.property('bounds');
    should(msg.point).eql(centreOf(target));
    should(outside.count).equal(0);
  });

  it('sends a point in no zone unchanged to output 2', async () => {
    await load();
    const original = { payload: { x: 1_000_000, y: 1_000_000 }, keep: 'me' };
    await send({ ...original });
    should(outside.messages[0]).containDeep(original);
    should(outside.messages[0]).not.have.property('zone');
    should(inside.count).equal(0);
  });

  it('reads the coordinates of a sound location event at the configured property', async () => {
    await load({ property: 'event' });
    await send({ event: { coordinates: centreOf(zones()[0]), azimuth: 10 } });
    should((inside.messages[0].zone as Zone).id).equal(zones()[0].id);
  });

  it('refuses a point that is not two finite numbers with INVALID_INPUT', async () => {
    await load();
    await send({ payload: { x: '12', y: 3 } });
    await send({ payload: 'here' });
    should(failed.messages.map((m) => (m.error as { code: string }).code)).eql([
      'INVALID_INPUT',
      'INVALID_INPUT',
    ]);
    should((failed.messages[0].error as { message: string }).message).match(/msg\.payload is not a point/);
    should(inside.count + outside.count).equal(0);
  });

  it('uses msg.zones when present, without a device', async () => {
    await load({ device: '' }, false);
    const own = [
      {
        id: 'desk',
        label: 'Desk',
        types: ['Switching'],
        geometry: { point1: { x: 0, y: 0 }, point2: { x: 100, y: 100 } },
      },
    ];
    await send({ payload: { x: 100, y: 50 }, zones: own });
    should((inside.messages[0].zone as Zone).id).equal('desk');
    await send({ payload: { x: 50, y: 50 }, zones: [{ id: 'broken' }] });
    should((failed.messages[0].error as { code: string }).code).equal('INVALID_INPUT');
  });

  it('refuses msg.zones with a corner that is not a number, naming the field, instead of never matching', async () => {
    await load({ device: '' }, false);
    const zone = {
      id: 'desk',
      label: 'Desk',
      types: ['Switching'],
      geometry: { point1: { x: '0', y: 0 }, point2: { x: 100, y: 100 } },
    };
    await send({ payload: { x: 50, y: 50 }, zones: [zone] });
    const error = failed.messages[0].error as { code: string; message: string };
    should(error.code).equal('INVALID_INPUT');
    should(error.message).containEql('msg.zones[0].geometry.point1.x');
    should(inside.count + outside.count).equal(0);
  });

  it('accepts msg.zones in the layout spellings of newer firmware (zoneId, ZoneLabel, type)', async () => {
    await load({ device: '' }, false);
    const zone = {
      zoneId: 'desk',
      ZoneLabel: 'Desk',
      type: 'Switching',
      geometry: { point1: { x: 0, y: 0 }, point2: { x: 100, y: 100 } },
    };
    await send({ payload: { x: 10, y: 10 }, zones: [zone] });
    should(inside.messages[0].zone).containDeep({ id: 'desk', label: 'Desk', types: ['Switching'] });
  });

  it('reads the zones once for many lookups within maxAge, and once for lookups arriving together', async () => {
    sim.setFault({ kind: 'latency', ms: 50, path: ZONES_PATH });
    await load();
    const node = helper.getNode('n-lookup');
    for (let i = 0; i < 5; i++) node.receive({ payload: centreOf(zones()[0]) });
    await until(() => ok.count === 5, 'five lookups');
    for (let i = 0; i < 5; i++) await send({ payload: { x: 0, y: -1 } });
    should(sim.counters.requestsByPath[ZONES_PATH]).equal(1);
    should(inside.count).equal(5);
    should(outside.count).equal(5);
  });

  it('reads the zones again after maxAge', async () => {
    await load({ maxAge: 0 });
    await send({ payload: { x: 0, y: 1 } });
    await send({ payload: { x: 0, y: 1 } });
    should(sim.counters.requestsByPath[ZONES_PATH]).equal(2);
  });
});
