import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import should from 'should';
import { type DeviceSimulator, type LayoutSpelling, sampleZones, startSimulator } from '../../src/simulator';
import { messagesOf, TestCaller } from './helpers';

interface SampleZone {
  types: string[];
  geometry: { point1: { x: number; y: number }; point2: { x: number; y: number } };
  label: string;
  id: string;
}

describe('simulator: room zones', () => {
  let simulator: DeviceSimulator;
  let caller: TestCaller;
  let token: string;

  beforeEach(async () => {
    simulator = await startSimulator();
    caller = new TestCaller(simulator);
    token = await caller.login('general', '');
  });

  afterEach(async () => {
    await caller.close();
    await simulator.close();
  });

  describe('sample zones', () => {
    it('serves a presenter area and two audience areas in the spec shape by default', async () => {
      const answer = await caller.call('GET', '/api/v1/room/zones', { token });
      answer.status.should.equal(200);
      const zones = (answer.json as { zones: SampleZone[] }).zones;
      zones.map((zone) => zone.label).should.eql(['Presenter', 'Audience left', 'Audience right']);
      for (const zone of zones) {
        zone.types.should.eql(['Switching']);
        zone.id.should.match(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      }
    });

    it('keeps every sample zone inside the public example room', () => {
      for (const zone of sampleZones() as SampleZone[]) {
        for (const point of [zone.geometry.point1, zone.geometry.point2]) {
          point.x.should.be.within(-8382, 8382);
          point.y.should.be.within(0, 10660);
        }
      }
    });

    it('has no two sample zones sharing floor area', () => {
      const zones = sampleZones() as SampleZone[];
      const span = (a: number, b: number) => [Math.min(a, b), Math.max(a, b)] as const;
      for (const [index, first] of zones.entries()) {
        for (const second of zones.slice(index + 1)) {
          const [ax1, ax2] = span(first.geometry.point1.x, first.geometry.point2.x);
          const [bx1, bx2] = span(second.geometry.point1.x, second.geometry.point2.x);
          const [ay1, ay2] = span(first.geometry.point1.y, first.geometry.point2.y);
          const [by1, by2] = span(second.geometry.point1.y, second.geometry.point2.y);
          const overlap = ax1 < bx2 && bx1 < ax2 && ay1 < by2 && by1 < ay2;
          overlap.should.be.false(`${first.label} overlaps ${second.label}`);
        }
      }
    });
  });

  describe('models', () => {
    for (const model of ['310', 'X'] as const) {
      it(`answers 409 Unsupported device type on model ${model}`, async () => {
        simulator.setModel(model);
        for (const path of ['/api/v1/room/zones', '/api/v1/room/layout']) {
          const answer = await caller.call('GET', path, { token });
          answer.status.should.equal(409);
          messagesOf(answer.json).should.eql(['Unsupported device type']);
        }
      });
    }

    it('still authorizes before telling the model is unsupported', async () => {
      simulator.setModel('310');
      (await caller.call('GET', '/api/v1/room/zones')).status.should.equal(401);
    });
  });

  describe('setZones', () => {
    it('serves malformed shapes exactly as set', async () => {
      const malformed = [{ types: 'Switching', geometry: { point1: { x: '1' } } }, null, 7];
      simulator.setZones(malformed);
      const answer = await caller.call('GET', '/api/v1/room/zones', { token });
      should(answer.json).eql({ zones: malformed });
    });

    it('serves nine zones when nine are set', async () => {
      const nine = Array.from({ length: 9 }, (_, index) => ({
        ...(sampleZones()[0] as object),
        id: `zone-${index}`,
      }));
      simulator.setZones(nine);
      const answer = await caller.call('GET', '/api/v1/room/zones', { token });
      (answer.json as { zones: unknown[] }).zones.should.have.length(9);
    });

    it('serves an empty room', async () => {
      simulator.setZones([]);
      should((await caller.call('GET', '/api/v1/room/zones', { token })).json).eql({ zones: [] });
    });
  });

  describe('zones file', () => {
    let folder: string;
    beforeEach(async () => {
      folder = await mkdtemp(join(tmpdir(), 'simulator-zones-'));
    });
    afterEach(async () => {
      await rm(folder, { recursive: true, force: true });
    });

    it('reads zones from a file holding {zones: [...]}', async () => {
      const file = join(folder, 'room.json');
      const zones = [sampleZones()[1]];
      await writeFile(file, JSON.stringify({ zones }));
      const fromFile = await startSimulator({ zonesFile: file });
      try {
        should(fromFile.getState().zones).eql(zones);
      } finally {
        await fromFile.close();
      }
    });

    it('reads zones from a file holding a bare array', async () => {
      const file = join(folder, 'room.json');
      await writeFile(file, JSON.stringify([]));
      const fromFile = await startSimulator({ zonesFile: file });
      try {
        should(fromFile.getState().zones).eql([]);
      } finally {
        await fromFile.close();
      }
    });

    it('refuses a file with more than eight zones', async () => {
      const file = join(folder, 'room.json');
      await writeFile(file, JSON.stringify(Array.from({ length: 9 }, () => sampleZones()[0])));
      await should(startSimulator({ zonesFile: file })).be.rejectedWith(
        /holds 9 zones; a device holds at most 8/,
      );
    });

    it('refuses a file that is not JSON', async () => {
      const file = join(folder, 'room.json');
      await writeFile(file, 'zones: none');
      await should(startSimulator({ zonesFile: file })).be.rejectedWith(/is not valid JSON/);
    });
  });

  describe('layout firmware', () => {
    it('answers 404 on /room/zones and serves the zones inside /room/layout', async () => {
      simulator.setFirmware('layout', 'spec');
      const zones = await caller.call('GET', '/api/v1/room/zones', { token });
      zones.status.should.equal(404);
      messagesOf(zones.json).should.eql(['Not found']);
      const layout = await caller.call('GET', '/api/v1/room/layout', { token });
      layout.status.should.equal(200);
      const body = layout.json as { zones: unknown[]; roomSize: { width: number; depth: number } };
      body.zones.should.eql(sampleZones());
      body.roomSize.should.containEql({ width: 16764, depth: 10660 });
    });

    it('also serves the layout, in the spec spelling, on classic firmware', async () => {
      simulator.setFirmware('classic', 'zoneId');
      const layout = await caller.call('GET', '/api/v1/room/layout', { token });
      (layout.json as { zones: unknown[] }).zones.should.eql(sampleZones());
    });

    const expectations: Record<
      Exclude<LayoutSpelling, 'spec' | 'mixed'>,
      (zone: Record<string, unknown>) => void
    > = {
      'type-string': (zone) => {
        zone.should.have.property('type', 'Switching');
        zone.should.not.have.property('types');
        zone.should.have.properties('id', 'label');
      },
      zoneId: (zone) => {
        zone.should.have.property('zoneId');
        zone.should.not.have.property('id');
        zone.should.have.properties('types', 'label');
      },
      ZoneLabel: (zone) => {
        zone.should.have.property('ZoneLabel');
        zone.should.not.have.property('label');
        zone.should.have.properties('types', 'id');
      },
    };
    for (const [spelling, check] of Object.entries(expectations)) {
      it(`spells every layout zone field the ${spelling} way when asked`, async () => {
        simulator.setFirmware('layout', spelling as LayoutSpelling);
        const layout = await caller.call('GET', '/api/v1/room/layout', { token });
        const zones = (layout.json as { zones: Record<string, unknown>[] }).zones;
        zones.should.have.length(3);
        for (const zone of zones) check(zone);
      });
    }

    it('spells each zone differently, with on: true, in the mixed spelling', async () => {
      simulator.setZones([...sampleZones(), sampleZones()[0]]);
      simulator.setFirmware('layout', 'mixed');
      const layout = await caller.call('GET', '/api/v1/room/layout', { token });
      const zones = (layout.json as { zones: Record<string, unknown>[] }).zones;
      zones[0].should.have.properties('types', 'id', 'label');
      expectations['type-string'](zones[1]);
      expectations.zoneId(zones[2]);
      expectations.ZoneLabel(zones[3]);
      for (const zone of zones) zone.should.have.property('on', true);
    });

    it('passes malformed zones through the layout untouched', async () => {
      simulator.setZones([null, 'zone']);
      simulator.setFirmware('layout', 'type-string');
      const layout = await caller.call('GET', '/api/v1/room/layout', { token });
      (layout.json as { zones: unknown[] }).zones.should.eql([null, 'zone']);
    });
  });
});
