import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** What this package says of itself in its package.json: the one place for its name, version and support address. */
export interface PackageIdentity {
  readonly name: string;
  readonly version: string;
  /** Where users report problems (`bugs.url`). */
  readonly supportUrl: string;
}

let cached: PackageIdentity | undefined;

function textAt(value: unknown, ...path: string[]): string | undefined {
  let here = value;
  for (const key of path) {
    if (typeof here !== 'object' || here === null) return undefined;
    here = Reflect.get(here, key);
  }
  return typeof here === 'string' && here.length > 0 ? here : undefined;
}

/**
 * This package's identity from its package.json, read at run time so it never drifts from the release.
 * The file sits two levels up both from `src/api` (tests under tsx) and from `dist/api` (the build).
 */
export function packageIdentity(): PackageIdentity {
  if (cached !== undefined) return cached;
  let manifest: unknown;
  try {
    manifest = JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8'));
  } catch {
    manifest = undefined;
  }
  cached = {
    name: textAt(manifest, 'name') ?? '@conference-audio/node-red-local-api',
    version: textAt(manifest, 'version') ?? '0.0.0',
    supportUrl: textAt(manifest, 'bugs', 'url') ?? '',
  };
  return cached;
}

/** This package's version, as `Vendor-Client-Version` and Home Assistant's `origin` give it. */
export function packageVersion(): string {
  return packageIdentity().version;
}
