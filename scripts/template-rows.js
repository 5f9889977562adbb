'use strict';

/**
 * The dialog rows several node types share, written once in src/nodes/template-rows/<row>.html. A node's
 * template.html names one with a line `<!-- include: <row> name=value ... -->`; the build (and the tests
 * that read a dialog) put the row there, indented as the line, with `{type}` replaced by the node type
 * (each type keeps its texts in its own catalogue) and each `{name}` by its value: given in the include, or
 * the row's default, a `data-<name>` attribute of its <script> tag.
 */
const fs = require('node:fs');
const path = require('node:path');

const ROWS = path.join(__dirname, '..', 'src', 'nodes', 'template-rows');
const INCLUDE = /^( *)<!-- include: ([\w-]+)((?: [\w-]+=[\w-]+)*) -->$/gm;
/** A row file wraps its row as a template wraps its dialog, so it reads (and lints) as one. */
const ROW = /^<script type="text\/html" data-template-row="[\w-]+"([^>]*)>\n([\s\S]*?)\n<\/script>\s*$/;
const DEFAULT = / data-([\w-]+)="([^"]*)"/g;

/** Row `row`: its lines without the indentation they have in their file, and its defaults. */
function readRow(row, type) {
  const file = path.join(ROWS, `${row}.html`);
  if (!fs.existsSync(file)) throw new Error(`${type}'s template includes ${row}; ${file} does not exist`);
  const wrapped = ROW.exec(fs.readFileSync(file, 'utf8'));
  if (wrapped === null) throw new Error(`${file} is not one <script data-template-row> block`);
  const lines = wrapped[2].split('\n');
  const indent = /^ */.exec(lines[0])[0].length;
  const defaults = [...wrapped[1].matchAll(DEFAULT)].map((match) => [match[1], match[2]]);
  return { lines: lines.map((line) => line.slice(indent)), defaults };
}

function expandTemplate(template, type) {
  return template.replace(INCLUDE, (_include, indent, row, assignments) => {
    const { lines, defaults } = readRow(row, type);
    const values = new Map([['type', type], ...defaults]);
    for (const pair of assignments.trim().split(' ').filter(Boolean)) values.set(...pair.split('='));
    const fill = (line) =>
      line.replace(/\{([\w-]+)\}/g, (_placeholder, name) => {
        const value = values.get(name);
        if (value === undefined) throw new Error(`${type}'s template includes ${row} without ${name}=`);
        return value;
      });
    return lines.map((line) => `${indent}${fill(line)}`).join('\n');
  });
}

module.exports = { expandTemplate };
