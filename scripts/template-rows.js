'use strict';

/**
 * The dialog rows several node types share, written once in src/nodes/template-rows/<row>.html. A node's
 * template.html names one with a line `<!-- include: <row> -->`; the build (and the tests that read a
 * dialog) put the row there, indented as the line, with `{type}` replaced by the node type: each type
 * keeps its texts in its own catalogue.
 */
const fs = require('node:fs');
const path = require('node:path');

const ROWS = path.join(__dirname, '..', 'src', 'nodes', 'template-rows');
const INCLUDE = /^( *)<!-- include: ([\w-]+) -->$/gm;
/** A row file wraps its row as a template wraps its dialog, so it reads (and lints) as one. */
const ROW = /^<script type="text\/html" data-template-row="[\w-]+">\n([\s\S]*?)\n<\/script>\s*$/;

function expandTemplate(template, type) {
  return template.replace(INCLUDE, (_line, indent, row) => {
    const file = path.join(ROWS, `${row}.html`);
    if (!fs.existsSync(file))
      throw new Error(`${type}'s template includes ${row}, and ${file} does not exist`);
    const wrapped = ROW.exec(fs.readFileSync(file, 'utf8'));
    if (wrapped === null)
      throw new Error(`${file} is not one <script type="text/html" data-template-row> block`);
    const lines = wrapped[1].split('\n');
    const own = /^ */.exec(lines[0])[0].length;
    return lines.map((line) => `${indent}${line.slice(own).replaceAll('{type}', type)}`).join('\n');
  });
}

module.exports = { expandTemplate };
