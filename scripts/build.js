#!/usr/bin/env node
// Compiles src/ to dist/ and assembles dist/nodes/ so Node-RED finds each
// node's .js, .html, locales/ and icons/ side by side (Node-RED 4.1 does not
// serve a package-root icons/ folder for nodes that live in a subfolder).
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

fs.rmSync(dist, { recursive: true, force: true });
// TypeScript 7 exports only its package.json and API, so find the tsc bin through package.json.
const typescriptManifest = require.resolve('typescript/package.json');
const tscBin = path.join(path.dirname(typescriptManifest), require(typescriptManifest).bin.tsc);
execFileSync(process.execPath, [tscBin, '-p', path.join(root, 'tsconfig.json')], { stdio: 'inherit' });

const nodesOut = path.join(dist, 'nodes');
fs.mkdirSync(nodesOut, { recursive: true });
for (const entry of fs.readdirSync(path.join(root, 'nodes'))) {
  fs.cpSync(path.join(root, 'nodes', entry), path.join(nodesOut, entry), { recursive: true });
}
fs.cpSync(path.join(root, 'icons'), path.join(nodesOut, 'icons'), { recursive: true });

// The device dialog validates with the runtime's own rules. Required here, past the early exit: an
// installed tarball ships this script alone.
const { editorSettingsScript, inlineEditorSettings } = require('./editor-settings');
const deviceHtml = path.join(nodesOut, 'conference-audio-device.html');
const rules = fs.readFileSync(path.join(dist, 'api', 'settings-rules.js'), 'utf8');
fs.writeFileSync(
  deviceHtml,
  inlineEditorSettings(fs.readFileSync(deviceHtml, 'utf8'), editorSettingsScript(rules)),
);

const cli = path.join(dist, 'simulator', 'cli.js');
if (fs.existsSync(cli)) fs.chmodSync(cli, 0o755);
