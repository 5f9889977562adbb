import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import should from 'should';
import {
  catalogueFile,
  editorSources,
  helpFile,
  nodeSourceFile,
  nodeTypes,
  paletteTypes,
} from '../support/node-types';

const root = path.join(__dirname, '..', '..');
const TYPES = nodeTypes;

type Catalogue = { [key: string]: string | Catalogue };

function keysOf(catalogue: Catalogue, prefix = ''): string[] {
  return Object.entries(catalogue).flatMap(([key, value]) =>
    typeof value === 'string' ? [`${prefix}${key}`] : keysOf(value, `${prefix}${key}.`),
  );
}

function catalogue(lang: string, type: string): Catalogue {
  return JSON.parse(readFileSync(catalogueFile(type, lang), 'utf8')) as Catalogue;
}

/** Keys a source file asks for: `t('x.y')` inside the node type's own file, `RED._('type.x')` anywhere. */
function usedKeys(type: string, text: string): string[] {
  const own = [
    ...text.matchAll(/\bt\('([\w.]+)'/g),
    ...text.matchAll(/\bstatusText\((?:TYPE|'[\w-]+'), '([\w.]+)'/g),
  ].map((m) => `${type}.${m[1]}`);
  const full = [
    ...text.matchAll(/(?:RED\._\(|data-i18n="(?:\[\w+\])?)'?(conference-audio-[\w-]+\.[\w.]+)/g),
  ].map((m) => m[1]);
  return [...own, ...full];
}

describe('node catalogues (src/nodes/<type>/locales)', () => {
  for (const type of TYPES) {
    it(`${type}: de has exactly the keys of en-US`, () => {
      should(keysOf(catalogue('de', type)).sort()).eql(keysOf(catalogue('en-US', type)).sort());
    });

    it(`${type}: every key the runtime and the editor use is in en-US`, () => {
      const known = new Set(keysOf(catalogue('en-US', type)));
      const sources = [readFileSync(nodeSourceFile(type), 'utf8'), ...editorSources(type)];
      const used = sources
        .flatMap((text) => usedKeys(type, text))
        .filter((key) => key.startsWith(`${type}.`));
      should(used.length).be.above(3);
      // A key with a count may exist only in its plural forms (`key_one`, `key_other`), as i18next looks them up.
      const isKnown = (key: string) =>
        known.has(key) || (known.has(`${key}_one`) && known.has(`${key}_other`));
      should(used.filter((key) => !isKnown(key))).eql([]);
    });

    it(`${type}: has help in the sidebar with Node-RED's sections`, () => {
      const help = readFileSync(helpFile(type, 'en-US'), 'utf8');
      should(help).containEql(`data-help-name="${type}"`);
      should(help).containEql('<h3>Details</h3>');
    });
  }

  it('has an icon for every node with a palette entry', () => {
    const icons = readdirSync(path.join(root, 'icons'));
    for (const type of paletteTypes) should(icons).containEql(`${type}.svg`);
  });
});
