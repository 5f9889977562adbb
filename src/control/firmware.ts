/**
 * Firmware versions, compared as the device compares them (docs/device-api.md): the text before the
 * first `-`, up to three numeric groups, compared as a tuple. Missing groups count as 0, so "1.9" and
 * "1.9.0" are the same version and `1.9.278056-0` is at least 1.9.
 */
export type FirmwareVersion = readonly [number, number, number];

/** The version in a `firmwareVersion` text, or undefined when it has no leading number to read. */
export function parseFirmwareVersion(text: string): FirmwareVersion | undefined {
  const release = text.trim().split('-', 1)[0] ?? '';
  const groups: number[] = [];
  for (const part of release.split('.').slice(0, 3)) {
    const digits = /^\d+/.exec(part)?.[0];
    if (digits === undefined) break;
    groups.push(Number(digits));
  }
  if (groups.length === 0) return undefined;
  return [groups[0] ?? 0, groups[1] ?? 0, groups[2] ?? 0];
}

/** Negative when `a` is older than `b`, 0 when equal, positive when newer. */
export function compareFirmware(a: FirmwareVersion, b: FirmwareVersion): number {
  for (let index = 0; index < 3; index++) {
    const difference = a[index] - b[index];
    if (difference !== 0) return difference;
  }
  return 0;
}

/** "1.9", "1.999.999": trailing zero groups dropped after the second. */
export function formatFirmware(version: FirmwareVersion): string {
  return version[2] === 0 ? `${version[0]}.${version[1]}` : version.join('.');
}
