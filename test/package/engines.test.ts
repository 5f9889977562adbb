import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import should from 'should';

// semver ships no types; only this one function is used.
const { subset } = createRequire(__filename)('semver') as { subset(range: string, within: string): boolean };
const root = join(__dirname, '..', '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  engines: { node: string };
  dependencies: Record<string, string>;
};
const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, { version?: string; engines?: { node?: string } }>;
};

describe('package: the Node versions engines admits', () => {
  for (const name of Object.keys(pkg.dependencies)) {
    it(`admits only Node versions that ${name}, as locked, declares it runs on (no EBADENGINE)`, () => {
      const locked = lock.packages[`node_modules/${name}`];
      should(locked).not.be.undefined();
      const needs = locked?.engines?.node ?? '*';
      should(subset(pkg.engines.node, needs)).be.true(
        `engines.node ${pkg.engines.node} admits Node versions outside ${name} ${locked?.version}'s ${needs}`,
      );
    });
  }

  it('locks the same engines as package.json declares', () => {
    should(lock.packages['']?.engines?.node).equal(pkg.engines.node);
  });
});
