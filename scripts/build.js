#!/usr/bin/env node
// Compiles src/ to dist/ and assembles each node type's folder as Node-RED loads it. Every type has one
// source folder, src/nodes/<type>/ (runtime.ts, editor.ts, template.html with the shared rows of
// src/nodes/template-rows/, locales/<lang>.json, help/<lang>.html); package.json's `node-red.nodes`
// names the runtime file Node-RED loads, and beside it this script puts what Node-RED looks for next to
// a node file: the editor HTML of the same name, locales/<lang>/<name>.json and .html, and icons/
// (Node-RED 4.1 serves no package-root icons/ for nodes in a subfolder). In the editor HTML, an editor.ts's
// `...paletteEntry(labels)` becomes plain keys, the facts its definition.ts's PALETTE holds as literals.
'use strict';
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const dist = path.join(root, 'dist');

// Shipped in the package because `prepack` and `dependencies` name it (npm runs `dependencies` after
// installing the dev dependencies into its clone of a git dependency; a `prepare` script would make npm 11
// warn on every tarball install). An installed tarball has dist/ built and no src/.
if (!fs.existsSync(path.join(root, 'src'))) {
  console.log('No src/ here: dist/ comes built in the package, nothing to build.');
  process.exit(0);
}

/** The browsers Node-RED 4 supports; the editor code is bundled down to what they all run. */
const EDITOR_TARGET = ['es2018'];

/**
 * The source of an editor with its `...paletteEntry(labels)` written out as plain keys: the palette facts
 * its definition.ts exports as PALETTE (read from the compiled definition, beside the runtime) as literals,
 * and each label key as `labels.<key>`, because the flow library reads these from the built HTML without
 * running it and stops at a spread. A config node's definition has no PALETTE and its editor no entry.
 */
function withPaletteEntry(source, builtDir, entry) {
  const definition = path.join(builtDir, 'definition.js');
  const palette = fs.existsSync(definition) ? require(definition).PALETTE : undefined;
  const { PALETTE_LABEL_KEYS } = require(path.join(dist, 'nodes', 'palette.js'));
  return source.replace(/^([ \t]*)\.\.\.paletteEntry\((\w+)\),[ \t]*$/gm, (_line, indent, labels) => {
    if (palette === undefined)
      throw new Error(`${entry} has a paletteEntry, but its definition.ts no PALETTE`);
    const facts = Object.entries(palette).map(([fact, value]) => `${fact}: ${JSON.stringify(value)},`);
    const labelKeys = PALETTE_LABEL_KEYS.map((key) => `${key}: ${labels}.${key},`);
    return [...facts, ...labelKeys].map((line) => indent + line).join('\n');
  });
}

/** The editor script of a node type: its editor.ts with every import bundled in, as one classic script. */
function editorScript(sourceDir, builtDir) {
  // Required here, past the early exit: an installed tarball has no esbuild.
  const esbuild = require('esbuild');
  const entry = path.join(sourceDir, 'editor.ts');
  const result = esbuild.buildSync({
    // An editor.ts exports nothing, and in a "type": "commonjs" package esbuild then reads it as CommonJS
    // and wraps every module in a lazy initialiser; marked as a module it bundles to plain code.
    stdin: {
      contents: `${withPaletteEntry(fs.readFileSync(entry, 'utf8'), builtDir, entry)}\nexport {};\n`,
      resolveDir: sourceDir,
      sourcefile: path.relative(root, entry),
      loader: 'ts',
    },
    // Module settings for a bundle (tsconfig.json's are for Node.js, which would wrap every module).
    tsconfig: path.join(root, 'tsconfig.editor.json'),
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: EDITOR_TARGET,
    write: false,
    charset: 'utf8',
    logLevel: 'warning',
  });
  const code = result.outputFiles[0].text;
  // A paletteEntry left is one written other than alone on its line: the browser has no such function.
  if (/\bpaletteEntry\b/.test(code)) {
    throw new Error(`${entry} uses paletteEntry other than as a line \`...paletteEntry(labels),\``);
  }
  // The bundle goes inside a <script> element, which the first `</script` would end.
  if (/<\/script/i.test(code))
    throw new Error(`${sourceDir}/editor.ts bundles to a text containing </script`);
  return code;
}

/** The HTML Node-RED loads into the editor for one node type: the bundled editor code, then the dialog. */
function editorHtml(sourceDir, builtDir) {
  // Required here, past the early exit: an installed tarball has no scripts/template-rows.js.
  const { expandTemplate } = require('./template-rows');
  const template = expandTemplate(
    fs.readFileSync(path.join(sourceDir, 'template.html'), 'utf8'),
    path.basename(sourceDir),
  );
  return `<script type="text/javascript">\n${editorScript(sourceDir, builtDir)}</script>\n\n${template}`;
}

/**
 * The package's own texts in `language` (src/nodes/locales/<language>.json), which every node type's
 * catalogue carries: the palette category's label is looked up in the catalogue of whichever node type
 * the editor adds to the palette first.
 */
function packageTexts(language) {
  const file = path.join(root, 'src', 'nodes', 'locales', `${language}.json`);
  return fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : {};
}

/** `<lang>.<ext>` files of `dir` as { lang: file }. */
function perLanguage(dir, ext) {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((name) => name.endsWith(ext))
    .map((name) => ({ language: name.slice(0, -ext.length), file: path.join(dir, name) }));
}

/** One node type's files where Node-RED looks for them, beside the compiled runtime `builtFile`. */
function assembleNodeType(type, builtFile) {
  const sourceDir = path.join(root, 'src', 'nodes', type);
  const outDir = path.dirname(path.join(root, builtFile));
  const name = path.basename(builtFile, '.js');
  if (!fs.existsSync(path.join(root, builtFile))) {
    throw new Error(`package.json's node-red.nodes names ${builtFile}, which the compiler did not make`);
  }
  fs.writeFileSync(path.join(outDir, `${name}.html`), editorHtml(sourceDir, outDir));
  for (const { language, file } of perLanguage(path.join(sourceDir, 'locales'), '.json')) {
    const texts = { ...packageTexts(language), ...JSON.parse(fs.readFileSync(file, 'utf8')) };
    fs.mkdirSync(path.join(outDir, 'locales', language), { recursive: true });
    fs.writeFileSync(
      path.join(outDir, 'locales', language, `${name}.json`),
      `${JSON.stringify(texts, null, 2)}\n`,
    );
  }
  for (const { language, file } of perLanguage(path.join(sourceDir, 'help'), '.html')) {
    fs.mkdirSync(path.join(outDir, 'locales', language), { recursive: true });
    fs.copyFileSync(file, path.join(outDir, 'locales', language, `${name}.html`));
  }
  // The node type's own icon, where the editor asks for it (a config node has none).
  const icon = path.join(root, 'icons', `${type}.svg`);
  if (fs.existsSync(icon)) {
    fs.mkdirSync(path.join(outDir, 'icons'), { recursive: true });
    fs.copyFileSync(icon, path.join(outDir, 'icons', `${type}.svg`));
  }
}

fs.rmSync(dist, { recursive: true, force: true });
// TypeScript 7 exports only its package.json and API, so find the tsc bin through package.json.
const typescriptManifest = require.resolve('typescript/package.json');
const tscBin = path.join(path.dirname(typescriptManifest), require(typescriptManifest).bin.tsc);
execFileSync(process.execPath, [tscBin, '-p', path.join(root, 'tsconfig.json')], { stdio: 'inherit' });

const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
for (const [type, builtFile] of Object.entries(manifest['node-red'].nodes)) {
  assembleNodeType(type, builtFile);
}

const cli = path.join(dist, 'simulator', 'cli.js');
if (fs.existsSync(cli)) fs.chmodSync(cli, 0o755);
