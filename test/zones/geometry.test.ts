import should from 'should';
import {
  boundsIntersect,
  containsPoint,
  isPoint,
  parseZonesResponse,
  withGeometry,
  type Zone,
  zoneBounds,
  zoneGeometry,
  zonesContaining,
} from '../../src/zones';
import { audience, presenter, zone } from './fixtures';

describe('zones/geometry', () => {
  describe('zoneBounds', () => {
    it('gives the same bounds for every corner order', () => {
      const expected = { minX: -500, minY: 200, maxX: 1500, maxY: 900 };
      for (const corners of [
        [-500, 200, 1500, 900],
        [1500, 900, -500, 200],
        [-500, 900, 1500, 200],
        [1500, 200, -500, 900],
      ] as const) {
        should(zoneBounds(zone('a', [...corners]))).eql(expected);
      }
    });

    it('handles a zone entirely at negative coordinates', () => {
      should(zoneBounds(zone('a', [-8382, -100, -4000, -2500]))).eql({
        minX: -8382,
        minY: -2500,
        maxX: -4000,
        maxY: -100,
      });
    });
  });

  describe('zoneGeometry', () => {
    it('derives width, height, centre and area in mm', () => {
      should(zoneGeometry(zone('a', [3000, -1000, -1000, 2000]))).eql({
        bounds: { minX: -1000, minY: -1000, maxX: 3000, maxY: 2000 },
        width: 4000,
        height: 3000,
        centre: { x: 1000, y: 500 },
        area: 12_000_000,
      });
    });

    it('gives a zero-area zone zero area, not a negative one', () => {
      const geometry = zoneGeometry(zone('a', [100, 100, 100, 500]));
      should(geometry).match({ width: 0, height: 400, area: 0 });
    });
  });

  describe('withGeometry', () => {
    it('adds derived fields beside the device fields without touching them', () => {
      const original = zone('a', [0, 0, 2000, 1000], { on: true, extra: { nested: [1] } });
      const snapshot = structuredClone(original);
      const enriched = withGeometry(original);
      should(enriched).match(snapshot);
      should(enriched).match({ width: 2000, height: 1000, area: 2_000_000, centre: { x: 1000, y: 500 } });
      should(enriched.bounds).eql({ minX: 0, minY: 0, maxX: 2000, maxY: 1000 });
      should(original).eql(snapshot);
      should(original).not.have.property('bounds');
    });

    it('keeps a __proto__ field of the device as a plain field of the copy', () => {
      const [device] = parseZonesResponse(
        JSON.parse(
          '{"zones":[{"id":"a","label":"","types":[],"geometry":{"point1":{"x":0,"y":0},' +
            '"point2":{"x":10,"y":10}},"__proto__":{"polluted":true}}]}',
        ),
      ).zones;
      const enriched = withGeometry(device as Zone);
      should(Object.hasOwn(enriched, '__proto__')).be.true();
      should(Object.getPrototypeOf(enriched)).equal(Object.prototype);
      should((enriched as Record<string, unknown>).polluted).be.undefined();
    });
  });

  describe('containsPoint', () => {
    const square = zone('a', [1000, 1000, -1000, -1000]);
    const bounds = zoneBounds(square);

    it('contains its centre', () => {
      should(containsPoint(square, { x: 0, y: 0 })).be.true();
      should(containsPoint(bounds, { x: 0, y: 0 })).be.true();
    });

    it('includes every edge and corner', () => {
      for (const point of [
        { x: -1000, y: 0 },
        { x: 1000, y: 0 },
        { x: 0, y: -1000 },
        { x: 0, y: 1000 },
        { x: -1000, y: -1000 },
        { x: 1000, y: 1000 },
      ]) {
        should(containsPoint(square, point)).be.true();
        should(containsPoint(bounds, point)).be.true();
      }
    });

    it('excludes a point just outside each edge', () => {
      const outside = 1000 + 1e-9;
      for (const point of [
        { x: -outside, y: 0 },
        { x: outside, y: 0 },
        { x: 0, y: -outside },
        { x: 0, y: outside },
      ]) {
        should(containsPoint(square, point)).be.false();
        should(containsPoint(bounds, point)).be.false();
      }
    });

    it('contains nothing at NaN', () => {
      should(containsPoint(square, { x: Number.NaN, y: 0 })).be.false();
    });

    it('reads a zone with geometry added like the plain zone', () => {
      should(containsPoint(withGeometry(square), { x: 1000, y: 1000 })).be.true();
      should(containsPoint(withGeometry(square), { x: 1001, y: 1000 })).be.false();
    });
  });

  describe('zonesContaining', () => {
    it('returns the zones containing the point in the order given', () => {
      should(zonesContaining([audience, presenter], { x: 0, y: 3000 })).eql([audience, presenter]);
      should(zonesContaining([presenter, audience], { x: 0, y: 3000 })).eql([presenter, audience]);
    });

    it('returns one zone for a point inside only that zone', () => {
      should(zonesContaining([presenter, audience], { x: 2500, y: 6000 })).eql([audience]);
    });

    it('returns an empty array for a point in no zone', () => {
      should(zonesContaining([presenter, audience], { x: 0, y: 500 })).eql([]);
      should(zonesContaining([], { x: 0, y: 0 })).eql([]);
    });

    it('returns the same objects it was given, with their added fields', () => {
      const enriched = [presenter, audience].map(withGeometry);
      const found = zonesContaining(enriched, { x: 0, y: 2000 });
      should(found[0]).equal(enriched[0]);
      should(found[0]?.centre).eql({ x: 0, y: 2000 });
    });
  });

  describe('boundsIntersect', () => {
    const base = { minX: 0, minY: 0, maxX: 10, maxY: 10 };

    it('is true for a positive-area overlap, both ways round', () => {
      const other = { minX: 9, minY: 9, maxX: 20, maxY: 20 };
      should(boundsIntersect(base, other)).be.true();
      should(boundsIntersect(other, base)).be.true();
    });

    it('is true when one contains the other', () => {
      should(boundsIntersect(base, { minX: 2, minY: 2, maxX: 3, maxY: 3 })).be.true();
    });

    it('is false for a shared edge, a shared corner and a gap', () => {
      should(boundsIntersect(base, { minX: 10, minY: 0, maxX: 20, maxY: 10 })).be.false();
      should(boundsIntersect(base, { minX: 10, minY: 10, maxX: 20, maxY: 20 })).be.false();
      should(boundsIntersect(base, { minX: 11, minY: 0, maxX: 20, maxY: 10 })).be.false();
    });
  });

  describe('isPoint', () => {
    it('accepts two finite numbers, extra fields allowed', () => {
      should(isPoint({ x: 0, y: -3.5 })).be.true();
      should(isPoint({ x: 1, y: 2, z: 3 })).be.true();
    });

    it('rejects everything else', () => {
      for (const value of [
        null,
        undefined,
        5,
        'x',
        [1, 2],
        { x: 1 },
        { x: '1', y: 2 },
        { x: 1, y: Number.NaN },
        { x: Number.POSITIVE_INFINITY, y: 0 },
      ]) {
        should(isPoint(value)).be.false();
      }
    });
  });
});
