import should from 'should';
import { sampleZones } from '../../src/simulator';
import { readRoomZones, type ZonesEndpointMemory } from '../../src/zones';
import type { Zone } from '../../src/zones/types';
import { useHarness } from '../api/helpers';

function zone(id: string, x1: number, y1: number, x2: number, y2: number): Record<string, unknown> {
  return {
    types: ['Switching'],
    geometry: { point1: { x: x1, y: y1 }, point2: { x: x2, y: y2 } },
    label: `Zone ${id}`,
    id,
  };
}

describe('zones/room-zones: classic firmware', () => {
  const harness = useHarness();

  it('reads GET /api/v1/room/zones in the spec shape', async () => {
    const result = await readRoomZones(harness.client());
    should(result.source).equal('zones');
    should(result.zones).eql(sampleZones());
    should(result.warnings).eql([]);
    should(harness.simulator.counters.requestsByPath).eql({
      '/api/v1/auth/login': 1,
      '/api/v1/room/zones': 1,
    });
  });

  it('works with any DeviceRequester through the plain function', async () => {
    const client = harness.client();
    const result = await readRoomZones(client);
    should(result.zones).have.length(sampleZones().length);
  });

  it('reads an empty room as no zones', async () => {
    harness.simulator.setZones([]);
    const result = await readRoomZones(harness.client());
    should(result.zones).eql([]);
    should(result.warnings).eql([]);
  });

  it('passes 9 zones and overlapping zones through with warnings', async () => {
    const nine = Array.from({ length: 9 }, (_, index) =>
      zone(`z${index}`, index * 1000, 0, index * 1000 + 1000, 1000),
    );
    nine.push(zone('overlap', 500, 500, 1500, 1500));
    harness.simulator.setZones(nine);
    const result = await readRoomZones(harness.client());
    should(result.zones).have.length(10);
    const codes = result.warnings.map((warning) => warning.code);
    should(codes).containEql('TOO_MANY_ZONES');
    should(codes).containEql('OVERLAPPING_ZONES');
  });

  it('reports BAD_RESPONSE for zones of the wrong shape', async () => {
    harness.simulator.setFault({ kind: 'wrong-shape', body: { zones: 'none' }, path: '/api/v1/room/zones' });
    await harness.failure(readRoomZones(harness.client()), 'BAD_RESPONSE');
  });

  it('reports BAD_RESPONSE for a zone without geometry', async () => {
    harness.simulator.setZones([{ types: ['Switching'], label: 'x', id: 'a' }]);
    await harness.failure(readRoomZones(harness.client()), 'BAD_RESPONSE');
  });

  it('reports BAD_RESPONSE for malformed JSON', async () => {
    harness.simulator.setFault({ kind: 'malformed-json', path: '/api/v1/room/zones' });
    await harness.failure(readRoomZones(harness.client()), 'BAD_RESPONSE');
  });

  for (const model of ['310', 'X'] as const) {
    it(`reports UNSUPPORTED_MODEL on model ${model}, saying zones need model 410`, async () => {
      harness.simulator.setModel(model);
      const error = await harness.failure(readRoomZones(harness.client()), 'UNSUPPORTED_MODEL');
      should(error.message).match(/room zones need a model 410 device/);
      should(error.statusCode).equal(409);
      should(error.deviceMessage).equal('Unsupported device type');
    });
  }
});

describe('zones/room-zones: newer firmware (zones inside the layout)', () => {
  const harness = useHarness({ firmware: 'layout' });

  for (const spelling of ['spec', 'type-string', 'zoneId', 'ZoneLabel', 'mixed'] as const) {
    it(`falls back to GET /api/v1/room/layout and reads the '${spelling}' spelling`, async () => {
      harness.simulator.setFirmware('layout', spelling);
      const result = await readRoomZones(harness.client());
      should(result.source).equal('layout');
      should(result.zones.map((read) => [read.id, read.label, read.types])).eql(
        (sampleZones() as Zone[]).map((expected) => [expected.id, expected.label, expected.types]),
      );
    });
  }

  it('remembers in the memory it is given that the layout works: a later read costs one request', async () => {
    const client = harness.client();
    const endpoint: ZonesEndpointMemory = { inLayout: false };
    await readRoomZones(client, endpoint);
    harness.simulator.resetRecords();
    const result = await readRoomZones(client, endpoint);
    should(result.source).equal('layout');
    should(harness.simulator.requests.map((request) => request.path)).eql(['/api/v1/room/layout']);
  });

  it('without a memory, asks the zones endpoint first at every read', async () => {
    const client = harness.client();
    await readRoomZones(client);
    harness.simulator.resetRecords();
    await readRoomZones(client);
    should(harness.simulator.requests.map((request) => request.path)).eql([
      '/api/v1/room/zones',
      '/api/v1/room/layout',
    ]);
  });

  it('goes back to the zones endpoint when the layout disappears, and forgets the layout', async () => {
    const client = harness.client();
    const endpoint: ZonesEndpointMemory = { inLayout: false };
    await readRoomZones(client, endpoint);
    harness.simulator.setFirmware('classic');
    harness.simulator.setFault({ kind: 'status', status: 404, path: '/api/v1/room/layout' });
    const result = await readRoomZones(client, endpoint);
    should(result.source).equal('zones');
    should(endpoint.inLayout).be.false();
  });

  it('reports NOT_FOUND when neither endpoint exists', async () => {
    harness.simulator.setFault({ kind: 'status', status: 404, path: '/api/v1/room/layout' });
    const error = await harness.failure(readRoomZones(harness.client()), 'NOT_FOUND');
    should(error.message).match(/neither \/api\/v1\/room\/zones nor \/api\/v1\/room\/layout/);
  });
});
