/**
 * Firmware versions as the device compares them: the text before the first `-`, up to three numeric
 * groups, compared as a tuple. `1.9.278056-0` is (1, 9, 278056), which is at least (1, 9).
 */
export type VersionTuple = readonly [number, number, number];

export const DEFAULT_FIRMWARE_VERSION = '1.9.278056-0';

/** `1.9.278056-0`-like: digits and dots before an optional `-suffix`. */
const VERSION_PATTERN = /^\d+(\.\d+){0,2}(-[0-9A-Za-z.]+)?$/;

export function isFirmwareVersion(value: unknown): value is string {
  return typeof value === 'string' && VERSION_PATTERN.test(value);
}

export function versionTuple(version: string): VersionTuple {
  const groups = (version.split('-')[0] ?? '').split('.').slice(0, 3);
  const numbers = groups.map((group) => Number.parseInt(group, 10)).map((n) => (Number.isNaN(n) ? 0 : n));
  return [numbers[0] ?? 0, numbers[1] ?? 0, numbers[2] ?? 0];
}

export function compareVersions(a: string, b: string): number {
  const left = versionTuple(a);
  const right = versionTuple(b);
  for (let index = 0; index < 3; index += 1) {
    const difference = (left[index] ?? 0) - (right[index] ?? 0);
    if (difference !== 0) return difference;
  }
  return 0;
}

export function atLeast(version: string, floor: string): boolean {
  return compareVersions(version, floor) >= 0;
}

/** A floor as the device's refusals spell it: `1.9` is `1.9.0`. */
export function spelledFloor(floor: string): string {
  return versionTuple(floor).join('.');
}
