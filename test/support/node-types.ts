/**
 * The package's node types, read from the one list: package.json's `node-red.nodes` (what Node-RED
 * loads). Tests, like the build and scripts/validate.js, take the types from here instead of keeping
 * their own list, so a new node type is tested as soon as it is listed there.
 */
import fs from 'node:fs';
import path from 'node:path';

export const projectRoot = path.resolve(__dirname, '..', '..');

const manifest: { 'node-red': { nodes: Record<string, string> } } = JSON.parse(
  fs.readFileSync(path.join(projectRoot, 'package.json'), 'utf8'),
);

/** Every node type, the config node first (package.json's order). */
export const nodeTypes: readonly string[] = Object.keys(manifest['node-red'].nodes);

/** The TypeScript source of a node type's runtime file (`dist/nodes/x.js` is built from `src/nodes/x.ts`). */
export function nodeSourceFile(type: string): string {
  const built = manifest['node-red'].nodes[type];
  if (built === undefined) throw new Error(`${type} is not in package.json's node-red.nodes`);
  return path.join(projectRoot, built.replace(/^dist\//, 'src/').replace(/\.js$/, '.ts'));
}

/** The types whose editor definition has `category: 'config'` (nodes/<type>.html). */
export function isConfigType(type: string): boolean {
  const html = fs.readFileSync(path.join(projectRoot, 'nodes', `${type}.html`), 'utf8');
  return /category\s*:\s*(['"])config\1/.test(html);
}

/** The node types a user finds in the palette (every type but config nodes). */
export const paletteTypes: readonly string[] = nodeTypes.filter((type) => !isConfigType(type));
