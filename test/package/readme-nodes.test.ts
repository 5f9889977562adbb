/**
 * The README's table of nodes follows package.json's node-red.nodes, the one list of node types: a
 * type added there and not documented (or documented and gone) shows up here.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import should from 'should';
import { catalogueFile, isConfigType, nodeTypes, projectRoot } from '../support/node-types';

/** `| \`type\` | palette label | what it does |` rows of the README's "The nodes" section. */
function documentedNodes(): Map<string, string> {
  const readme = readFileSync(join(projectRoot, 'README.md'), 'utf8');
  const section = readme.split(/^## The nodes$/m)[1]?.split(/^## /m)[0] ?? '';
  const rows = [...section.matchAll(/^\| `([\w-]+)` \| ([^|]+) \|/gm)];
  return new Map(rows.map((row) => [row[1], row[2].trim()]));
}

function paletteLabel(type: string): string {
  const file = catalogueFile(type, 'en-US');
  return JSON.parse(readFileSync(file, 'utf8'))[type].paletteLabel;
}

describe("the README's table of nodes", () => {
  const documented = documentedNodes();

  it('lists exactly the node types of package.json node-red.nodes', () => {
    should([...documented.keys()].sort()).eql([...nodeTypes].sort());
  });

  for (const type of nodeTypes) {
    it(`names ${type} by its palette label, as the editor shows it`, () => {
      should(documented.get(type)).equal(isConfigType(type) ? '(config)' : paletteLabel(type));
    });
  }
});
