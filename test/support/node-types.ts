/**
 * The package's node types, read from the one list: package.json's `node-red.nodes` (what Node-RED
 * loads). Tests, like the build and scripts/validate.js, take the types from here instead of keeping
 * their own list, so a new node type is tested as soon as it is listed there.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expandTemplate } from '../../scripts/template-rows';

export const projectRoot = path.resolve(__dirname, '..', '..');

const manifest: { 'node-red': { nodes: Record<string, string> } } = JSON.parse(
  fs.readFileSync(path.join(projectRoot, 'package.json'), 'utf8'),
);

/** Every node type, the config node first (package.json's order). */
export const nodeTypes: readonly string[] = Object.keys(manifest['node-red'].nodes);

/** The TypeScript source of a node type's runtime file (`dist/nodes/<type>/runtime.js` is built from `src/nodes/<type>/runtime.ts`). */
export function nodeSourceFile(type: string): string {
  const built = manifest['node-red'].nodes[type];
  if (built === undefined) throw new Error(`${type} is not in package.json's node-red.nodes`);
  return path.join(projectRoot, built.replace(/^dist\//, 'src/').replace(/\.js$/, '.ts'));
}

/** A node type's source folder: runtime, definition, editor, template, locales and help. */
export function nodeFolder(type: string): string {
  return path.dirname(nodeSourceFile(type));
}

/** The editor catalogue of a node type in one language (`src/nodes/<type>/locales/<language>.json`). */
export function catalogueFile(type: string, language: string): string {
  return path.join(nodeFolder(type), 'locales', `${language}.json`);
}

/** The sidebar help of a node type in one language (`src/nodes/<type>/help/<language>.html`). */
export function helpFile(type: string, language: string): string {
  return path.join(nodeFolder(type), 'help', `${language}.html`);
}

/** The languages the package speaks: those of the config node's catalogues (every type has the same). */
export const languages: readonly string[] = fs
  .readdirSync(path.join(nodeFolder(Object.keys(manifest['node-red'].nodes)[0] ?? ''), 'locales'))
  .filter((name) => name.endsWith('.json'))
  .map((name) => name.slice(0, -'.json'.length));

/** What the editor of a node type is made of: its dialog template (shared rows filled in), its editor code and its definition. */
export function editorSources(type: string): string[] {
  return ['template.html', 'editor.ts', 'definition.ts']
    .map((name) => path.join(nodeFolder(type), name))
    .filter((file) => fs.existsSync(file))
    .map((file) => {
      const text = fs.readFileSync(file, 'utf8');
      return file.endsWith('.html') ? expandTemplate(text, type) : text;
    });
}

/** The types whose editor definition has `category: 'config'`. */
export function isConfigType(type: string): boolean {
  return editorSources(type).some((text) => /category\s*:\s*(['"])config\1/.test(text));
}

/** The node types a user finds in the palette (every type but config nodes). */
export const paletteTypes: readonly string[] = nodeTypes.filter((type) => !isConfigType(type));
