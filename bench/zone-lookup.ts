import os from 'node:os';
import {
  type Point,
  parseZonesResponse,
  withGeometry,
  type Zone,
  zoneBounds,
  zonesContaining,
} from '../src/zones';
import { median } from './lib/table';

/**
 * Throughput of the zone lookup the zone-lookup node does for every sound-location event: the zones are
 * prepared once (`withGeometry`, as the node caches them), then `zonesContaining(zones, point)` per event.
 *
 * Baseline: what a function node would naively do per event: derive each zone's bounds again from the raw
 * device zone (the runtime's own `zoneBounds`, one small object per zone and event), then compare. The
 * baseline deliberately does not call `containsPoint`, so it cannot change the type feedback V8 collects
 * for the path being measured.
 *
 * Both run in one process, interleaved in rounds with alternating order, and each round gives a ratio;
 * the median ratio is the result, so a noisy neighbour slows both sides alike.
 */

const ROUNDS = 9;
/** Per side and round; 9 rounds x 2 sides x 0.4 s plus warm-up keeps the run near 9 s. */
const ROUND_TARGET_MS = 400;
const WARM_UP_MS = 300;
const POINTS_PER_PASS = 1024;

/** The public example room of a model 410 (x -8382..8382, y 0..10660 mm) cut into 4 x 2 zones. */
function deviceBody(): unknown {
  const columns = [-8382, -4191, 0, 4191, 8382];
  const rows = [0, 5330, 10660];
  const zones = [];
  for (let row = 0; row < 2; row++) {
    for (let column = 0; column < 4; column++) {
      const index = row * 4 + column;
      const corners = [
        { x: columns[column] as number, y: rows[row] as number },
        { x: columns[column + 1] as number, y: rows[row + 1] as number },
      ];
      // Every other zone names its corners the other way round, as some firmware does.
      if (index % 2 === 1) corners.reverse();
      zones.push({
        types: ['Switching'],
        geometry: { point1: corners[0], point2: corners[1] },
        label: `Seat group ${index + 1}`,
        id: `zone-${index + 1}`,
      });
    }
  }
  return { zones };
}

/** Deterministic sound locations over the room and a little beyond it (some events hit no zone). */
function soundLocations(count: number): Point[] {
  let state = 0x2545f491;
  const next = (): number => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
  return Array.from({ length: count }, () => ({
    x: Math.round(-9000 + next() * 18000),
    y: Math.round(-500 + next() * 11700),
  }));
}

function lookupPrepared(zones: readonly Zone[], points: readonly Point[], passes: number): number {
  let hits = 0;
  for (let pass = 0; pass < passes; pass++) {
    for (const point of points) hits += zonesContaining(zones, point).length;
  }
  return hits;
}

function zonesContainingNaively(zones: readonly Zone[], point: Point): Zone[] {
  const found: Zone[] = [];
  for (const zone of zones) {
    const bounds = zoneBounds(zone);
    if (
      point.x >= bounds.minX &&
      point.x <= bounds.maxX &&
      point.y >= bounds.minY &&
      point.y <= bounds.maxY
    ) {
      found.push(zone);
    }
  }
  return found;
}

function lookupNaively(zones: readonly Zone[], points: readonly Point[], passes: number): number {
  let hits = 0;
  for (let pass = 0; pass < passes; pass++) {
    for (const point of points) hits += zonesContainingNaively(zones, point).length;
  }
  return hits;
}

interface Side {
  name: string;
  lookup: (passes: number) => number;
  passes: number;
  opsPerSecond: number[];
}

function timeMs(work: () => void): number {
  const start = process.hrtime.bigint();
  work();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

/** Passes that take about `targetMs`, found by doubling; also serves as warm-up. */
function calibrate(side: Side, targetMs: number): number {
  let passes = 1;
  for (;;) {
    const elapsed = timeMs(() => side.lookup(passes));
    if (elapsed >= targetMs / 4) return Math.max(1, Math.round((passes * targetMs) / elapsed));
    passes *= 2;
  }
}

function millions(opsPerSecond: number): string {
  return `${(opsPerSecond / 1e6).toFixed(2)} M/s`;
}

export function run(): void {
  const { zones, warnings } = parseZonesResponse(deviceBody());
  if (zones.length !== 8 || warnings.length > 0)
    throw new Error('the benchmark room should be 8 valid zones');
  const prepared = zones.map(withGeometry);
  const points = soundLocations(POINTS_PER_PASS);

  const expectedHits = lookupNaively(zones, points, 1);
  if (lookupPrepared(prepared, points, 1) !== expectedHits) {
    throw new Error('the prepared lookup and the baseline disagree on which zones contain the points');
  }

  const sides: Side[] = [
    {
      name: 'prepared',
      lookup: (passes) => lookupPrepared(prepared, points, passes),
      passes: 0,
      opsPerSecond: [],
    },
    { name: 'naive', lookup: (passes) => lookupNaively(zones, points, passes), passes: 0, opsPerSecond: [] },
  ];
  for (const side of sides) calibrate(side, WARM_UP_MS);
  for (const side of sides) side.passes = calibrate(side, ROUND_TARGET_MS);

  const ratios: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? sides : [...sides].reverse();
    for (const side of order) {
      let hits = 0;
      const elapsed = timeMs(() => {
        hits = side.lookup(side.passes);
      });
      if (hits !== expectedHits * side.passes) throw new Error(`${side.name}: wrong hit count ${hits}`);
      side.opsPerSecond.push((side.passes * points.length) / (elapsed / 1000));
    }
    const [candidate, baseline] = sides as [Side, Side];
    ratios.push((candidate.opsPerSecond[round] as number) / (baseline.opsPerSecond[round] as number));
  }

  const [candidate, baseline] = sides as [Side, Side];
  const lines = [
    `zone-lookup: one sound location against ${zones.length} zones, ${points.length} locations per pass, ` +
      `${(expectedHits / points.length).toFixed(2)} zones hit on average`,
    '  prepared = zones.map(withGeometry) once, then zonesContaining(zones, point) per location',
    '  naive    = zoneBounds(rawZone) again for every zone and every location, then compare',
    `  ${ROUNDS} interleaved rounds (order alternating), ~${ROUND_TARGET_MS} ms per side per round`,
    '',
    '  round  prepared    naive       ratio',
    ...ratios.map(
      (ratio, round) =>
        `  ${String(round + 1).padStart(5)}  ${millions(candidate.opsPerSecond[round] as number).padEnd(10)}  ` +
        `${millions(baseline.opsPerSecond[round] as number).padEnd(10)}  ${ratio.toFixed(2)}x`,
    ),
    '',
    `  median: prepared ${millions(median(candidate.opsPerSecond))} lookups, ` +
      `naive ${millions(median(baseline.opsPerSecond))} lookups`,
    `  median ratio prepared/naive: ${median(ratios).toFixed(2)}x ` +
      `(rounds range ${Math.min(...ratios).toFixed(2)}x to ${Math.max(...ratios).toFixed(2)}x)`,
    `  machine: Node ${process.version}, ${os.platform()} ${os.arch()}, ${os.cpus().length} CPUs ` +
      `(${os.cpus()[0]?.model.trim() ?? 'unknown'})`,
    '  reproduce: npm run bench   (this file only: node --require tsx/cjs bench/run.ts zone-lookup)',
  ];
  console.log(lines.join('\n'));
}
