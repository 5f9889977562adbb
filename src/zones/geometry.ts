import type { Bounds, Point, Zone, ZoneGeometry, ZoneWithGeometry } from './types';

/** True for an object with finite numeric `x` and `y` (numeric strings are not points). */
export function isPoint(value: unknown): value is Point {
  if (typeof value !== 'object' || value === null) return false;
  const { x, y } = value as { x?: unknown; y?: unknown };
  return typeof x === 'number' && Number.isFinite(x) && typeof y === 'number' && Number.isFinite(y);
}

/** The zone's rectangle, whichever two opposite corners the device named and in whichever order. */
export function zoneBounds(zone: Zone): Bounds {
  const { point1, point2 } = zone.geometry;
  return {
    minX: Math.min(point1.x, point2.x),
    minY: Math.min(point1.y, point2.y),
    maxX: Math.max(point1.x, point2.x),
    maxY: Math.max(point1.y, point2.y),
  };
}

export function zoneGeometry(zone: Zone): ZoneGeometry {
  const bounds = zoneBounds(zone);
  const width = bounds.maxX - bounds.minX;
  const height = bounds.maxY - bounds.minY;
  return {
    bounds,
    width,
    height,
    centre: { x: (bounds.minX + bounds.maxX) / 2, y: (bounds.minY + bounds.maxY) / 2 },
    area: width * height,
  };
}

/**
 * A copy of the zone with the derived geometry beside the device's own fields. The device's fields are
 * never rewritten: if a firmware ever sends its own `width` or `area`, the derived value wins in the copy,
 * which is why the derived names are documented as reserved.
 */
export function withGeometry(zone: Zone): ZoneWithGeometry {
  const geometry = zoneGeometry(zone);
  // Object.assign costs a twentieth of spreading both into a literal (V8 in Node 20, measured by
  // bench/overhead.ts), but it assigns: an own "__proto__" field from the device would become the
  // copy's prototype, so only such a zone takes the spread, which defines it as a plain field.
  return Object.hasOwn(zone, '__proto__') ? { ...zone, ...geometry } : Object.assign({}, zone, geometry);
}

function isZone(value: Zone | Bounds): value is Zone {
  return (value as Partial<Zone>).geometry !== undefined;
}

/**
 * Whether the point lies in the zone or bounds, edges included: a talker standing exactly on the line
 * between two adjacent zones belongs to both. Runs for every sound-location event, so it reads the
 * corners in place and allocates nothing.
 */
export function containsPoint(area: Zone | Bounds, point: Point): boolean {
  const { x, y } = point;
  if (isZone(area)) {
    const { point1, point2 } = area.geometry;
    const x1 = point1.x;
    const x2 = point2.x;
    const y1 = point1.y;
    const y2 = point2.y;
    return (
      (x1 <= x2 ? x >= x1 && x <= x2 : x >= x2 && x <= x1) &&
      (y1 <= y2 ? y >= y1 && y <= y2 : y >= y2 && y <= y1)
    );
  }
  return x >= area.minX && x <= area.maxX && y >= area.minY && y <= area.maxY;
}

/** The zones that contain the point, in the order the device listed them. */
export function zonesContaining<T extends Zone>(zones: readonly T[], point: Point): T[] {
  const found: T[] = [];
  for (const zone of zones) {
    if (containsPoint(zone, point)) found.push(zone);
  }
  return found;
}

/**
 * Whether two rectangles share a region of positive area. Rectangles that only touch along an edge or at
 * a corner do not intersect: adjacent zones normally share an edge, and the spec's "must not overlap"
 * rule is about sharing floor space.
 */
export function boundsIntersect(a: Bounds, b: Bounds): boolean {
  return a.minX < b.maxX && b.minX < a.maxX && a.minY < b.maxY && b.minY < a.maxY;
}
