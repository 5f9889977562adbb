/**
 * Every sidebar help page, in every language, is built as Node-RED's help expects: each `<dt>` (a
 * property) is followed by its `<dd>` (what it is), and an `<ol class="node-ports">` lists one entry per
 * output port of the node, so a node with one output and several modes describes modes, not ports.
 */
import { readFileSync } from 'node:fs';
import should from 'should';
import { editorSources, helpFile, languages, nodeTypes } from '../support/node-types';

interface Tag {
  name: string;
  closing: boolean;
  attributes: string;
}

function tags(html: string): Tag[] {
  return [...html.matchAll(/<(\/?)([a-zA-Z][\w-]*)([^>]*)>/g)].map((match) => ({
    closing: match[1] === '/',
    name: match[2].toLowerCase(),
    attributes: match[3],
  }));
}

/** The element names of each `<dl>`'s children, in order (`dt`, `dd`, ...). */
function definitionLists(html: string): string[][] {
  const lists: string[][] = [];
  const open: Array<{ children: string[]; depth: number }> = [];
  let depth = 0;
  for (const tag of tags(html)) {
    if (tag.closing) {
      depth -= 1;
      if (tag.name === 'dl') lists.push((open.pop() as { children: string[] }).children);
      continue;
    }
    const parent = open.at(-1);
    if (parent !== undefined && depth === parent.depth + 1) parent.children.push(tag.name);
    if (tag.name === 'dl') open.push({ children: [], depth });
    // Void elements have no closing tag.
    if (!['br', 'img', 'hr', 'input', 'wbr'].includes(tag.name)) depth += 1;
  }
  return lists;
}

/** How many `<li>` each `<ol class="node-ports">` holds directly. */
function portLists(html: string): number[] {
  const counts: number[] = [];
  let depth = 0;
  let ports: { depth: number; items: number } | undefined;
  for (const tag of tags(html)) {
    if (tag.closing) {
      depth -= 1;
      if (tag.name === 'ol' && ports !== undefined && depth === ports.depth) {
        counts.push(ports.items);
        ports = undefined;
      }
      continue;
    }
    if (tag.name === 'ol' && /class="[^"]*\bnode-ports\b/.test(tag.attributes)) ports = { depth, items: 0 };
    else if (tag.name === 'li' && ports !== undefined && depth === ports.depth + 1) ports.items += 1;
    if (!['br', 'img', 'hr', 'input', 'wbr'].includes(tag.name)) depth += 1;
  }
  return counts;
}

function outputsOf(type: string): number {
  const editor = editorSources(type).join('\n');
  return Number(/\boutputs\s*:\s*(\d+)/.exec(editor)?.[1] ?? 0);
}

const pages = languages.flatMap((locale) => nodeTypes.map((type) => ({ locale, type })));

describe('the structure of every help page (src/nodes/<type>/help/<language>.html)', () => {
  it('finds the help pages of both languages', () => {
    should(new Set(pages.map((page) => page.locale)))
      .containEql('en-US')
      .and.containEql('de');
  });

  for (const { locale, type } of pages) {
    const html = () => readFileSync(helpFile(type, locale), 'utf8');

    it(`${locale} ${type}: gives every <dt> its <dd>, and nothing else in a <dl>`, () => {
      const lists = definitionLists(html());
      for (const children of lists) {
        should(children.length % 2).equal(0, `a list of ${children.join(', ')}`);
        for (let index = 0; index < children.length; index += 2) {
          should([children[index], children[index + 1]]).eql(
            ['dt', 'dd'],
            `a list of ${children.join(', ')}`,
          );
        }
      }
    });

    it(`${locale} ${type}: lists as many output ports as the node has`, () => {
      const outputs = outputsOf(type);
      for (const items of portLists(html())) should(items).equal(outputs);
      // A node with one output has nothing to tell apart by port.
      if (outputs <= 1) should(portLists(html())).eql([]);
    });
  }
});

describe('the help page checks themselves', () => {
  it('notice a <dt> without its <dd>', () => {
    should(definitionLists('<dl><dt>a</dt><dd>x</dd><dt>b</dt></dl>')).eql([['dt', 'dd', 'dt']]);
  });

  it('count the ports of a node-ports list, not the items of lists inside it', () => {
    const html = '<ol class="node-ports"><li>one<ul><li>a</li><li>b</li></ul></li><li>two</li></ol>';
    should(portLists(html)).eql([2]);
  });
});
