#!/usr/bin/env node
// Offline version of the Node-RED flow library's scorecard checks, so a
// release never reaches the library with a failing score. Usage:
//   node scripts/validate.js [package root]   (default: this project)
// The node-type checks read the files Node-RED loads (dist/nodes/...), so
// run `npm run build` first.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const semver = require('semver');

/** The newest Node-RED releases of each supported line, checked on these machines. */
const NODE_RED_RELEASES = ['4.1.15', '5.0.7'];
const MAX_RUNTIME_DEPENDENCIES = 6;

function readJson(file) {
  return JSON.parse(fs.readFileSync(file, 'utf8'));
}

function escapeRegExp(text) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** `registerType('type'` or `registerType("type"`: the library looks for the literal name. */
function registersLiterally(source, type) {
  return new RegExp(`registerType\\(\\s*(['"])${escapeRegExp(type)}\\1`).test(source);
}

/** The palette facts the flow library lists; it reads each only from a literal. */
const PALETTE_FACTS = ['category', 'color', 'icon', 'inputs', 'outputs'];
/** The definition keys whose value the flow library reads as an object of properties. */
const PROPERTY_OBJECTS = ['defaults', 'credentials'];

/** A key the flow library reads by name: a plain identifier, neither computed nor a spread. */
function plainKey(property) {
  return property.type === 'Property' && !property.computed && property.key.type === 'Identifier'
    ? property.key.name
    : undefined;
}

/** What stops the library reading `object` (each spread, computed or quoted key), named by `where`. */
function unreadable(object, where) {
  if (object.type !== 'ObjectExpression') return [`${where} is not an inline object`];
  return object.properties
    .filter((property) => plainKey(property) === undefined)
    .map((property) => `${property.type === 'SpreadElement' ? 'a spread' : 'a computed key'} in ${where}`);
}

/** One registerType call as the library reads it: the literal type, the literal category, the problems. */
function readRegistration(call) {
  const [typeNode, definition] = call.arguments;
  const type = typeNode?.type === 'Literal' ? typeNode.value : undefined;
  if (definition?.type !== 'ObjectExpression') return { type, problems: ['no inline definition'] };
  const problems = unreadable(definition, 'the definition');
  const value = (key) => definition.properties.find((property) => plainKey(property) === key)?.value;
  for (const key of PALETTE_FACTS) {
    if (value(key) && value(key).type !== 'Literal') problems.push(`${key} is not a literal`);
  }
  for (const key of PROPERTY_OBJECTS) {
    const object = value(key);
    if (!object) continue;
    problems.push(...unreadable(object, key));
    for (const property of object.properties ?? []) {
      const name = plainKey(property);
      if (name !== undefined) problems.push(...unreadable(property.value, `${key}.${name}`));
    }
  }
  const category = value('category');
  return { type, category: category?.type === 'Literal' ? category.value : undefined, problems };
}

/**
 * The `RED.nodes.registerType` calls of an editor HTML, read as the flow library and `node-red-dev
 * validate` read them: acorn on each text/javascript script, nothing run.
 */
function readRegistrations(html) {
  // Required here: dev dependencies, which only this check needs.
  const acorn = require('acorn');
  const walk = require('acorn-walk');
  const registrations = [];
  for (const [, code] of html.matchAll(
    /<script[^>]*type=["']text\/javascript["'][^>]*>([\s\S]*?)<\/script>/gi,
  )) {
    walk.simple(acorn.parse(code, { ecmaVersion: 'latest' }), {
      CallExpression(call) {
        const callee = call.callee;
        if (
          callee.type === 'MemberExpression' &&
          !callee.computed &&
          callee.property.name === 'registerType'
        ) {
          registrations.push(readRegistration(call));
        }
      },
    });
  }
  return registrations;
}

/** Every node type used in the package's example flows, by example file name. */
function exampleTypes(root) {
  const dir = path.join(root, 'examples');
  const types = new Set();
  if (!fs.existsSync(dir)) return types;
  for (const name of fs.readdirSync(dir)) {
    if (!name.endsWith('.json')) continue;
    const flow = readJson(path.join(dir, name));
    if (!Array.isArray(flow)) throw new Error(`examples/${name} is not a flow (an array of nodes)`);
    for (const node of flow) {
      if (node && typeof node.type === 'string') types.add(node.type);
    }
  }
  return types;
}

/** Each check returns a string saying what is wrong, or '' when it passes. */
function buildChecks(root) {
  const pkg = readJson(path.join(root, 'package.json'));
  const nodeRed = pkg['node-red'] && typeof pkg['node-red'] === 'object' ? pkg['node-red'] : {};
  const nodeFiles = nodeRed.nodes && typeof nodeRed.nodes === 'object' ? nodeRed.nodes : {};

  const checks = [];
  const check = (name, run) => checks.push({ name, run });

  check('license declared and LICENSE file present', () => {
    if (typeof pkg.license !== 'string' || pkg.license.trim() === '') return 'package.json has no "license"';
    const file = fs.readdirSync(root).find((name) => /^licen[cs]e(\.(md|txt))?$/i.test(name));
    return file ? '' : 'no LICENSE file at the package root';
  });
  check('repository or bugs URL', () => {
    const repository = typeof pkg.repository === 'string' ? pkg.repository : pkg.repository?.url;
    const bugs = typeof pkg.bugs === 'string' ? pkg.bugs : pkg.bugs?.url;
    return repository || bugs ? '' : 'package.json has neither "repository" nor "bugs" with a URL';
  });
  check('scoped package name', () =>
    /^@[a-z0-9][a-z0-9._~-]*\/[a-z0-9][a-z0-9._~-]*$/.test(pkg.name ?? '')
      ? ''
      : `name "${pkg.name}" is not scoped (@scope/name)`,
  );
  check('"node-red" keyword', () =>
    Array.isArray(pkg.keywords) && pkg.keywords.includes('node-red') ? '' : 'keywords lack "node-red"',
  );
  check(`node-red.version admits Node-RED ${NODE_RED_RELEASES.join(' and ')}`, () => {
    const range = nodeRed.version;
    if (typeof range !== 'string' || semver.validRange(range) === null) {
      return `node-red.version ${JSON.stringify(range)} is not a semver range`;
    }
    const refused = NODE_RED_RELEASES.filter((release) => !semver.satisfies(release, range));
    return refused.length === 0 ? '' : `"${range}" excludes ${refused.join(', ')}`;
  });
  // Core packages state only a floor: an upper bound would refuse the next Node-RED line before anyone tried it.
  check('node-red.version states only a floor', () => {
    const range = nodeRed.version;
    if (typeof range !== 'string' || semver.validRange(range) === null) return 'not a semver range';
    const isFloor = (bound) => bound.operator === '>=' || bound.operator === '>';
    const alternatives = new semver.Range(range).set;
    // A comparator with an empty value is `*`: no bound at all.
    const otherBounds = alternatives.flat().filter((bound) => !isFloor(bound) && bound.value !== '');
    if (otherBounds.length > 0) {
      return `"${range}" also bounds by ${otherBounds.join(', ')}: state only a floor, such as ">=4.0.0"`;
    }
    return alternatives.every((bounds) => bounds.some(isFloor)) ? '' : `"${range}" states no floor`;
  });
  check('engines.node present', () =>
    typeof pkg.engines?.node === 'string' && pkg.engines.node.trim() !== '' ? '' : 'engines.node missing',
  );
  check(`at most ${MAX_RUNTIME_DEPENDENCIES} runtime dependencies`, () => {
    const count = Object.keys(pkg.dependencies ?? {}).length;
    return count <= MAX_RUNTIME_DEPENDENCIES ? '' : `${count} dependencies`;
  });
  check('node-red.nodes lists node files', () =>
    Object.keys(nodeFiles).length > 0 ? '' : 'node-red.nodes is empty or missing',
  );

  const configTypes = new Set();
  for (const [type, relativeFile] of Object.entries(nodeFiles)) {
    const jsFile = path.join(root, String(relativeFile));
    const htmlFile = jsFile.replace(/\.js$/, '.html');
    check(`${type}: registered by literal name in ${relativeFile}`, () => {
      if (!fs.existsSync(jsFile)) return `${relativeFile} missing (run npm run build)`;
      return registersLiterally(fs.readFileSync(jsFile, 'utf8'), type)
        ? ''
        : `no registerType('${type}', ...) in ${relativeFile}`;
    });
    check(`${type}: registered in its HTML by literal name, with a definition the flow library reads`, () => {
      if (!fs.existsSync(htmlFile)) return `${path.relative(root, htmlFile)} missing (run npm run build)`;
      const registration = readRegistrations(fs.readFileSync(htmlFile, 'utf8')).find(
        (read) => read.type === type,
      );
      if (!registration) return `no RED.nodes.registerType('${type}', ...) in the HTML`;
      if (registration.category === 'config') configTypes.add(type);
      return registration.problems.join('; ');
    });
  }
  // Runs after the HTML checks above, which find the config node types.
  check('examples use every non-config node type', () => {
    const used = exampleTypes(root);
    const missing = Object.keys(nodeFiles).filter((type) => !configTypes.has(type) && !used.has(type));
    if (used.size === 0) return 'no example flows in examples/';
    return missing.length === 0 ? '' : `no example uses ${missing.join(', ')}`;
  });
  return checks;
}

function main(argv) {
  const root = path.resolve(argv[0] ?? path.join(__dirname, '..'));
  let failures = 0;
  let checks;
  try {
    checks = buildChecks(root);
  } catch (error) {
    console.log(`FAIL  package.json readable: ${error.message}`);
    return 1;
  }
  for (const { name, run } of checks) {
    let problem;
    try {
      problem = run();
    } catch (error) {
      problem = error.message;
    }
    if (problem) failures++;
    console.log(problem ? `FAIL  ${name}: ${problem}` : `PASS  ${name}`);
  }
  console.log(
    failures === 0 ? `All ${checks.length} checks pass.` : `${failures} of ${checks.length} checks fail.`,
  );
  return failures === 0 ? 0 : 1;
}

if (require.main === module) process.exitCode = main(process.argv.slice(2));

module.exports = { main };
