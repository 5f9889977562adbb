import { readFileSync } from 'node:fs';
import { join } from 'node:path';

let cachedVersion: string | undefined;

/**
 * This package's version from its package.json, read at run time so it never drifts from the release.
 * The file sits two levels up both from `src/api` (tests under tsx) and from `dist/api` (the build).
 */
export function packageVersion(): string {
  if (cachedVersion !== undefined) return cachedVersion;
  try {
    const manifest: unknown = JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8'));
    const version =
      typeof manifest === 'object' && manifest !== null ? Reflect.get(manifest, 'version') : undefined;
    cachedVersion = typeof version === 'string' && version.length > 0 ? version : '0.0.0';
  } catch {
    cachedVersion = '0.0.0';
  }
  return cachedVersion;
}
