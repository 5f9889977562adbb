import { type Bounds, boundsIntersect, type Zone, zoneBounds } from '../src/zones';
import { overlapWarnings, validateZones } from '../src/zones/validate';
import { formatTable, machineLine, median } from './lib/table';

/**
 * The overlap check among the zone rule checks that every zones read runs (`validateZones`), on rooms far past the spec's 8 zones,
 * as a broken device or a flow's `msg.zones` may hand over. Baseline: the check of every pair that the
 * package used before (kept here, for the comparison only), on the same zones in the same process,
 * alternating in rounds; the median ratio per size is the result. Rooms of touching squares (no overlap),
 * where the baseline still finishes; with overlapping zones it ran out of memory at 6,000 (see
 * test/reliability/zone-scale.test.ts), so no ratio is possible there and the new check's time is shown.
 *
 * Reproduce: npm run bench -- zone-checks
 */

const SIZES = [8, 100, 1000, 6000];
const ROUNDS = 5;

function squares(count: number): Zone[] {
  const raw = Array.from({ length: count }, (_, index) => ({
    types: ['Switching'],
    geometry: {
      point1: { x: (index % 100) * 100, y: Math.floor(index / 100) * 100 },
      point2: { x: (index % 100) * 100 + 100, y: Math.floor(index / 100) * 100 + 100 },
    },
    label: `Zone ${index}`,
    id: `zone-${index}`,
  }));
  return raw as unknown as Zone[];
}

function overlapping(count: number): Zone[] {
  const raw = Array.from({ length: count }, (_, index) => ({
    types: ['Switching'],
    geometry: { point1: { x: index, y: index }, point2: { x: index + 10_000, y: index + 10_000 } },
    label: `Zone ${index}`,
    id: `zone-${index}`,
  }));
  return raw as unknown as Zone[];
}

/** The former check: every pair compared, a warning text for each overlapping pair. */
function everyPair(zones: readonly Zone[]): string[] {
  const found: string[] = [];
  const placed: { zone: Zone; bounds: Bounds }[] = zones.map((zone) => ({ zone, bounds: zoneBounds(zone) }));
  for (let first = 0; first < placed.length; first++) {
    for (let second = first + 1; second < placed.length; second++) {
      const a = placed[first] as { zone: Zone; bounds: Bounds };
      const b = placed[second] as { zone: Zone; bounds: Bounds };
      if (!boundsIntersect(a.bounds, b.bounds)) continue;
      if (a.zone.types.some((type) => b.zone.types.includes(type))) found.push(`${a.zone.id} ${b.zone.id}`);
    }
  }
  return found;
}

/** Milliseconds per call, over enough calls to fill about 100 ms (small rooms take microseconds). */
function timeOf(work: () => unknown): number {
  let calls = 0;
  const start = process.hrtime.bigint();
  let elapsed = 0;
  do {
    work();
    calls += 1;
    elapsed = Number(process.hrtime.bigint() - start) / 1e6;
  } while (elapsed < 100);
  return elapsed / calls;
}

function shown(ms: number): string {
  return ms < 1 ? `${(ms * 1000).toFixed(1)} µs` : `${ms.toFixed(2)} ms`;
}

export function run(): void {
  console.log('zone overlap check: sweep along x against the former every-pair check (median of rounds)');
  const rows: string[][] = [];
  for (const size of SIZES) {
    const zones = squares(size);
    const ratios: number[] = [];
    const current: number[] = [];
    const former: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const now = timeOf(() => overlapWarnings(zones));
      const before = timeOf(() => everyPair(zones));
      current.push(now);
      former.push(before);
      ratios.push(before / now);
    }
    rows.push([
      `${size} touching squares`,
      shown(median(current)),
      shown(median(former)),
      `${median(ratios).toFixed(1)}x faster`,
    ]);
  }
  const crowded = overlapping(6000);
  const crowdedTimes = Array.from({ length: ROUNDS }, () => timeOf(() => validateZones(crowded)));
  const whole = Array.from({ length: ROUNDS }, () => timeOf(() => validateZones(squares(6000))));
  rows.push(['6000 overlapping (all rules)', shown(median(crowdedTimes)), 'out of memory', '-']);
  rows.push(['6000 touching (all rules)', shown(median(whole)), '', '']);
  console.log(formatTable(['zones', 'overlap check', 'every pair (former)', 'ratio'], rows));
  console.log(machineLine());
}
