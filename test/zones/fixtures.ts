import type { Zone } from '../../src/zones';

/** A zone in the spec's shape, with a rectangle given by its two corners. */
export function zone(id: string, corners: [number, number, number, number], extra: Partial<Zone> = {}): Zone {
  const [x1, y1, x2, y2] = corners;
  return {
    types: ['Switching'],
    geometry: { point1: { x: x1, y: y1 }, point2: { x: x2, y: y2 } },
    label: `Zone ${id}`,
    id,
    ...extra,
  };
}

/** The spec's example-like room: a presenter area in front, audience behind it. */
export const presenter = zone('6a0d7d2e-6f1b-4a34-9f1e-1d4a2b3c4d5e', [-2000, 1000, 2000, 3000], {
  label: 'Presenter',
});
export const audience = zone('b1c2d3e4-0000-4000-8000-123456789abc', [-3000, 3000, 3000, 7000], {
  label: 'Audience',
});
