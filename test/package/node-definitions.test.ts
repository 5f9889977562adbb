/**
 * The node definitions as the flow library and `node-red-dev validate` read them: each built `.html`'s
 * `text/javascript` scripts parsed with acorn, the `RED.nodes.registerType(...)` calls found with
 * acorn-walk, and the definition's keys read from the syntax tree without running anything. A spread or a
 * computed key stops that reading, and a palette fact that is not a literal is not read at all.
 */
import fs from 'node:fs';
import path from 'node:path';
import { type CallExpression, type Expression, type Node, type Property, parse } from 'acorn';
import { simple } from 'acorn-walk';
import should from 'should';
import { isConfigType, nodeTypes, projectRoot } from '../support/node-types';

const manifest: { 'node-red': { nodes: Record<string, string> } } = JSON.parse(
  fs.readFileSync(path.join(projectRoot, 'package.json'), 'utf8'),
);

/** The palette facts the library lists, each read only from a literal. */
const PALETTE_KEYS = ['category', 'color', 'icon', 'inputs', 'outputs'] as const;
/** The keys whose value the library reads as an object of properties. */
const OBJECT_KEYS = ['defaults', 'credentials'] as const;

/** The built editor HTML of a node type: beside the runtime file package.json names. */
function builtHtml(type: string): string {
  const runtime = manifest['node-red'].nodes[type] ?? '';
  const file = path.join(projectRoot, runtime.replace(/\.js$/, '.html'));
  if (!fs.existsSync(file)) throw new Error(`${file} is missing: run \`npm run build\` before this test`);
  return fs.readFileSync(file, 'utf8');
}

/** The code of every `<script type="text/javascript">` element, as the library finds them. */
function scripts(html: string): string[] {
  const pattern = /<script[^>]*type=["']text\/javascript["'][^>]*>([\s\S]*?)<\/script>/gi;
  return [...html.matchAll(pattern)].map((match) => match[1] ?? '');
}

function isRegisterType(call: CallExpression): boolean {
  const callee = call.callee;
  return (
    callee.type === 'MemberExpression' &&
    !callee.computed &&
    callee.property.type === 'Identifier' &&
    callee.property.name === 'registerType'
  );
}

function registerTypeCalls(html: string): CallExpression[] {
  const calls: CallExpression[] = [];
  for (const code of scripts(html)) {
    simple(parse(code, { ecmaVersion: 'latest' }), {
      CallExpression(call) {
        if (isRegisterType(call)) calls.push(call);
      },
    });
  }
  return calls;
}

/** A key the library reads by name: a plain identifier, neither computed nor a spread. */
function plainKey(property: Node): string | undefined {
  if (property.type !== 'Property') return undefined;
  const { key, computed } = property as Property;
  return !computed && key.type === 'Identifier' ? key.name : undefined;
}

/** What stops the library reading an object: each spread or computed key, named by where it is. */
function unreadableKeys(object: Expression, where: string): string[] {
  if (object.type !== 'ObjectExpression') return [`${where} is a ${object.type}, not an inline object`];
  return object.properties
    .filter((property) => plainKey(property) === undefined)
    .map((property) =>
      property.type === 'SpreadElement' ? `a spread in ${where}` : `a computed or quoted key in ${where}`,
    );
}

function propertyValue(object: Expression, name: string): Expression | undefined {
  if (object.type !== 'ObjectExpression') return undefined;
  const found = object.properties.find((property) => plainKey(property) === name);
  return found?.type === 'Property' ? found.value : undefined;
}

/** What the library reads of one registration: the type, the palette facts, and what stops the reading. */
interface Registration {
  type: unknown;
  facts: Partial<Record<(typeof PALETTE_KEYS)[number], unknown>>;
  problems: string[];
}

function read(call: CallExpression): Registration {
  const [typeNode, definition] = call.arguments;
  const type = typeNode?.type === 'Literal' ? typeNode.value : undefined;
  const problems: string[] = [];
  if (type === undefined) problems.push('the type is not a literal');
  if (definition === undefined || definition.type === 'SpreadElement') {
    return { type, facts: {}, problems: [...problems, 'no inline definition'] };
  }
  problems.push(...unreadableKeys(definition, 'the definition'));
  const facts: Registration['facts'] = {};
  for (const key of PALETTE_KEYS) {
    const value = propertyValue(definition, key);
    if (value === undefined) continue;
    if (value.type === 'Literal') facts[key] = value.value;
    else problems.push(`${key} is a ${value.type}, not a literal`);
  }
  for (const key of OBJECT_KEYS) {
    const object = propertyValue(definition, key);
    if (object === undefined) continue;
    problems.push(...unreadableKeys(object, key));
    if (object.type !== 'ObjectExpression') continue;
    for (const property of object.properties) {
      const name = plainKey(property);
      if (name !== undefined && property.type === 'Property') {
        problems.push(...unreadableKeys(property.value, `${key}.${name}`));
      }
    }
  }
  return { type, facts, problems };
}

describe('node definitions as the flow library reads them (acorn on the built HTML)', () => {
  for (const type of nodeTypes) {
    describe(type, () => {
      let registrations: Registration[];
      before(() => {
        registrations = registerTypeCalls(builtHtml(type)).map(read);
      });

      it('registers its own type once, by a literal name', () => {
        should(registrations.map((registration) => registration.type)).eql([type]);
      });

      it('has an inline definition with no spread and no computed key, in defaults and credentials too', () => {
        should(registrations.flatMap((registration) => registration.problems)).eql([]);
      });

      if (isConfigType(type)) {
        it('is a config node by its literal category', () => {
          should(registrations[0]?.facts).eql({ category: 'config' });
        });
      } else {
        it('gives category, color, icon, inputs and outputs as literals', () => {
          const facts = registrations[0]?.facts ?? {};
          should(Object.keys(facts).sort()).eql([...PALETTE_KEYS].sort());
          should(facts.category).be.a.String().and.not.equal('config');
          should(facts.color).match(/^#[0-9A-Fa-f]{6}$/);
          should(facts.icon).equal(`${type}.svg`);
          should(facts.inputs).be.oneOf(0, 1);
          should(facts.outputs).be.a.Number().and.not.below(1);
        });
      }
    });
  }
});
