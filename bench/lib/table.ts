import os from 'node:os';
import { benchNodeRedVersion } from './node-red-choice';

/** A plain-text table for benchmark output: first column left-aligned, the others right-aligned. */
export function formatTable(
  header: readonly string[],
  rows: readonly (readonly string[])[],
  indent = '  ',
): string {
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)),
  );
  const line = (cells: readonly string[]) =>
    indent +
    cells
      .map((cell, column) =>
        column === 0 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0),
      )
      .join('  ');
  return [line(header), line(widths.map((width) => '-'.repeat(width))), ...rows.map(line)].join('\n');
}

export function machineLine(): string {
  const cpus = os.cpus();
  return (
    `machine: Node ${process.version}, Node-RED ${benchNodeRedVersion()}, ${os.platform()} ${os.arch()}, ` +
    `${cpus.length} CPUs ` +
    `(${cpus[0]?.model.trim() ?? 'unknown'}), load average ${os.loadavg()[0]?.toFixed(2) ?? '?'} at the end`
  );
}

export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/** Reads a positive number from the environment, e.g. to shorten a run. */
export function envNumber(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number, got ${raw}`);
  return value;
}

/** The value below which `share` (0 to 1) of the values lie; NaN for none. */
export function percentile(values: readonly number[], share: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))] ?? Number.NaN;
}

/** Reads a comma-separated list of positive whole numbers (fleet sizes) from the environment. */
export function envSizes(name: string, fallback: string): number[] {
  return (process.env[name] ?? fallback)
    .split(',')
    .map((size) => Number(size.trim()))
    .filter((size) => Number.isInteger(size) && size > 0);
}

/** What one Node-RED used while holding `size` devices, measured over a window. */
export interface UsageSample {
  size: number;
  /** Share of one core. */
  cpu: number;
  /** Heap after a full garbage collection, bytes. */
  heapUsed: number;
}

/** The columns `usageCells` fills. */
export const USAGE_HEADER = [
  'devices',
  'CPU (one core)',
  'CPU per device',
  'heap after GC',
  'heap per device',
];

/** A sample's row for `USAGE_HEADER`; per device is measured against `base`, the sample of size 0. */
export function usageCells(sample: UsageSample, base: UsageSample): string[] {
  const perDevice = (value: (each: UsageSample) => number) => (value(sample) - value(base)) / sample.size;
  return [
    String(sample.size),
    `${(sample.cpu * 100).toFixed(1)}%`,
    sample.size === 0 ? '-' : `${(perDevice((each) => each.cpu) * 100).toFixed(3)}%`,
    `${(sample.heapUsed / 1024 / 1024).toFixed(1)} MiB`,
    sample.size === 0 ? '-' : `${(perDevice((each) => each.heapUsed) / 1024).toFixed(0)} KiB`,
  ];
}
