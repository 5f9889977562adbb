/**
 * A device (or a flow) that hands over thousands of zones: the rule checks stay bounded in time and memory,
 * the warnings are capped, and Node-RED goes on serving. Issue: 6,000 zones used to run Node-RED out of
 * memory through a check of every pair and a warning per overlapping pair.
 */
import should from 'should';
import type { Zone } from '../../src/zones/types';
import { MAX_WARNINGS_PER_CODE, validateZones } from '../../src/zones/validate';
import { DeviceFlow, lookupNode, zonesNode } from './device-flows';
import { useReliabilityHarness } from './harness';

const MANY = 6000;

function rawZone(index: number, x: number, y: number, size: number): Record<string, unknown> {
  return {
    types: ['Switching'],
    geometry: { point1: { x, y }, point2: { x: x + size, y: y + size } },
    label: `Zone ${index}`,
    id: `zone-${index}`,
  };
}

/** A grid of touching, never overlapping, squares. */
function disjointZones(count: number): Record<string, unknown>[] {
  return Array.from({ length: count }, (_, index) =>
    rawZone(index, (index % 100) * 100, Math.floor(index / 100) * 100, 100),
  );
}

/** Every zone overlaps every other. */
function overlappingZones(count: number): Record<string, unknown>[] {
  return Array.from({ length: count }, (_, index) => rawZone(index, index, index, 10_000));
}

function asZones(raw: Record<string, unknown>[]): Zone[] {
  return raw as unknown as Zone[];
}

function codes(warnings: Array<{ code: string }>): Record<string, number> {
  const counted: Record<string, number> = {};
  for (const warning of warnings) counted[warning.code] = (counted[warning.code] ?? 0) + 1;
  return counted;
}

describe('reliability: thousands of zones', () => {
  describe('rule checks', () => {
    it('finds no overlap among 6,000 zones that only touch', () => {
      should(codes(validateZones(asZones(disjointZones(MANY))))).eql({ TOO_MANY_ZONES: 1 });
    });

    it('lists at most the cap of overlapping pairs, then one warning that more exist', () => {
      const overlaps = validateZones(asZones(overlappingZones(MANY))).filter(
        (w) => w.code === 'OVERLAPPING_ZONES',
      );
      should(overlaps).have.length(MAX_WARNINGS_PER_CODE + 1);
      should(overlaps.at(-1)?.message).match(/only the first 20 are listed/);
    });

    it('gives up on zones stacked so that every pair must be compared, with a warning that says so', () => {
      // One column of thin stripes: every x-range overlaps every other, no two stripes share floor.
      const stripes = Array.from({ length: MANY }, (_, index) => rawZone(index, 0, index * 10, 10));
      for (const stripe of stripes) (stripe.geometry as { point2: { x: number } }).point2.x = 5000;
      const overlaps = validateZones(asZones(stripes)).filter((w) => w.code === 'OVERLAPPING_ZONES');
      should(overlaps).have.length(1);
      should(overlaps[0]?.message).match(/too many to check every pair/);
    });

    it('caps repeated-id warnings too', () => {
      const twins = disjointZones(MANY).map((zone, index) => ({ ...zone, id: `twin-${index % 3000}` }));
      const repeated = validateZones(asZones(twins)).filter((w) => w.code === 'DUPLICATE_ID');
      should(repeated).have.length(MAX_WARNINGS_PER_CODE + 1);
      should(repeated.at(-1)?.message).match(/2980 more DUPLICATE_ID warnings are not listed/);
    });
  });

  describe('in Node-RED', () => {
    const rig = useReliabilityHarness();

    it('sends 6,000 overlapping zones from the device with capped warnings, then serves the next read', async () => {
      const flow = await DeviceFlow.deploy(rig, zonesNode());
      rig.simulator.setZones(overlappingZones(MANY));
      const msg = await flow.serves();
      should(msg.payload).have.length(MANY);
      const warned = codes(msg.warnings as Array<{ code: string }>);
      should(warned.OVERLAPPING_ZONES).equal(MAX_WARNINGS_PER_CODE + 1);
      rig.simulator.setZones(disjointZones(3));
      should((await flow.serves()).payload).have.length(3);
    });

    it('looks a point up in 6,000 zones given in msg.zones, then serves the next point', async () => {
      const flow = await DeviceFlow.deploy(rig, lookupNode());
      const inside = await flow.serves({ payload: { x: 50, y: 50 }, zones: disjointZones(MANY) });
      should((inside.zone as { id: string }).id).equal('zone-0');
      const next = await flow.serves({ payload: { x: 150, y: 50 }, zones: overlappingZones(MANY) });
      should(next.payload).be.an.Array();
    });
  });
});

describe('reliability: zones too large to measure', () => {
  const rig = useReliabilityHarness();

  const huge = [
    rawZone(1, 0, 0, 1000),
    { ...rawZone(2, 0, 0, 0), geometry: { point1: { x: -1e308, y: 0 }, point2: { x: 1e308, y: 1000 } } },
    { ...rawZone(3, 0, 0, 0), geometry: { point1: { x: 0, y: -1e308 }, point2: { x: 1000, y: 1e308 } } },
  ];

  it('leaves out a zone whose size is not finite with a BAD_RESPONSE warning, and keeps the others', async () => {
    const flow = await DeviceFlow.deploy(rig, zonesNode());
    rig.simulator.setZones(huge);
    const msg = await flow.serves();
    should((msg.payload as Array<{ id: string }>).map((zone) => zone.id)).eql(['zone-1']);
    const leftOut = (msg.warnings as Array<{ code: string; zoneIds?: string[] }>).filter(
      (w) => w.code === 'BAD_RESPONSE',
    );
    should(leftOut.map((warning) => warning.zoneIds)).eql([['zone-2'], ['zone-3']]);
    should(JSON.stringify(msg.payload)).not.match(/Infinity|null/);
  });

  it('draws a map with only finite numbers from such zones', async () => {
    const flow = await DeviceFlow.deploy(rig, zonesNode({ output: 'map' }));
    rig.simulator.setZones([...huge, rawZone(4, 1e307, 0, 1e306)]);
    const svg = String((await flow.serves()).payload);
    should(svg).startWith('<svg');
    // Colours such as #e4e4e4 aside, no number in exponent form, and nothing infinite.
    should(svg.replace(/#[0-9a-f]{6}/gi, '')).not.match(/Infinity|NaN|\de[+-]?\d/);
  });
});
