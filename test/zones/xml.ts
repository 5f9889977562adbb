/**
 * A small strict XML 1.0 reader for the room map tests. It throws on anything a strict parser rejects that a
 * string-built SVG can get wrong: unbalanced or crossed tags, unquoted or repeated attributes, `<` in an
 * attribute value, `<` or a bare `&` in text, unknown entities, characters XML forbids, `]]>` in text, a
 * second root or text outside the root. It hands back the element tree, with entities decoded, so a test can
 * compare what a viewer would display with what the device sent. No DTD support: the map never needs one.
 */

export interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlElement[];
  /** The element's own decoded text, its children's text excluded. */
  text: string;
}

const NAME = /[A-Za-z_:][\w:.-]*/y;
const WHITESPACE = /[ \t\r\n]*/y;
const ENTITY = /&(?:(amp|lt|gt|quot|apos)|#([0-9]+)|#x([0-9a-fA-F]+));/y;
const NAMED_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const FORBIDDEN_CHARACTER = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u;

class StrictXmlReader {
  private position = 0;

  constructor(private readonly source: string) {}

  read(): XmlElement {
    const forbidden = FORBIDDEN_CHARACTER.exec(this.source);
    if (forbidden !== null)
      this.fail(`a character XML forbids (U+${forbidden[0].codePointAt(0)?.toString(16)})`);
    if (this.source.startsWith('<?xml')) this.skipPast('?>', 'XML declaration');
    this.skipMisc();
    if (!this.source.startsWith('<', this.position)) this.fail('no root element');
    const root = this.readElement();
    this.skipMisc();
    if (this.position < this.source.length) this.fail('content after the root element');
    return root;
  }

  private fail(problem: string): never {
    const near = JSON.stringify(this.source.slice(this.position, this.position + 40));
    throw new Error(`not well-formed XML at ${this.position} (${near}): ${problem}`);
  }

  private skipPast(end: string, what: string): string {
    const at = this.source.indexOf(end, this.position);
    if (at < 0) this.fail(`unterminated ${what}`);
    const inside = this.source.slice(this.position, at);
    this.position = at + end.length;
    return inside;
  }

  private skipWhitespace(): boolean {
    WHITESPACE.lastIndex = this.position;
    WHITESPACE.exec(this.source);
    const skipped = WHITESPACE.lastIndex > this.position;
    this.position = WHITESPACE.lastIndex;
    return skipped;
  }

  /** Whitespace and comments, the only things allowed around the root element. */
  private skipMisc(): void {
    for (;;) {
      this.skipWhitespace();
      if (!this.source.startsWith('<!--', this.position)) return;
      this.readComment();
    }
  }

  private readComment(): void {
    this.position += 4;
    const inside = this.skipPast('-->', 'comment');
    if (inside.includes('--') || inside.endsWith('-')) this.fail('"--" inside a comment');
  }

  private readName(): string {
    NAME.lastIndex = this.position;
    const match = NAME.exec(this.source);
    if (match === null) this.fail('a name was expected');
    this.position = NAME.lastIndex;
    return match[0];
  }

  private expect(text: string): void {
    if (!this.source.startsWith(text, this.position)) this.fail(`"${text}" was expected`);
    this.position += text.length;
  }

  private decode(raw: string, where: string): string {
    let decoded = '';
    let from = 0;
    for (let at = raw.indexOf('&'); at >= 0; at = raw.indexOf('&', from)) {
      ENTITY.lastIndex = at;
      const match = ENTITY.exec(raw);
      if (match === null) this.fail(`a bare "&" in ${where}: ${JSON.stringify(raw.slice(at, at + 20))}`);
      const [, named, decimal, hexadecimal] = match;
      decoded +=
        raw.slice(from, at) +
        (named === undefined
          ? String.fromCodePoint(
              Number.parseInt(decimal ?? hexadecimal ?? '', decimal === undefined ? 16 : 10),
            )
          : NAMED_ENTITIES[named]);
      from = ENTITY.lastIndex;
    }
    return decoded + raw.slice(from);
  }

  private readAttributes(): Record<string, string> {
    const attributes: Record<string, string> = Object.create(null);
    for (;;) {
      const separated = this.skipWhitespace();
      if (this.source.startsWith('>', this.position) || this.source.startsWith('/>', this.position)) {
        return attributes;
      }
      if (!separated) this.fail('attributes must be separated by whitespace');
      const name = this.readName();
      if (name in attributes) this.fail(`attribute ${name} repeated`);
      this.skipWhitespace();
      this.expect('=');
      this.skipWhitespace();
      const quote = this.source[this.position];
      if (quote !== '"' && quote !== "'") this.fail(`the value of ${name} is not quoted`);
      this.position += 1;
      const raw = this.skipPast(quote, `value of ${name}`);
      if (raw.includes('<')) this.fail(`"<" in the value of ${name}`);
      attributes[name] = this.decode(raw, `the value of ${name}`);
    }
  }

  private readElement(): XmlElement {
    this.expect('<');
    const name = this.readName();
    const element: XmlElement = { name, attributes: this.readAttributes(), children: [], text: '' };
    if (this.source.startsWith('/>', this.position)) {
      this.position += 2;
      return element;
    }
    this.expect('>');
    for (;;) {
      const next = this.source.indexOf('<', this.position);
      if (next < 0) this.fail(`<${name}> is never closed`);
      const raw = this.source.slice(this.position, next);
      if (raw.includes(']]>')) this.fail('"]]>" in text');
      element.text += this.decode(raw, `the text of <${name}>`);
      this.position = next;
      if (this.source.startsWith('</', this.position)) {
        this.position += 2;
        const closing = this.readName();
        if (closing !== name) this.fail(`</${closing}> closes <${name}>`);
        this.skipWhitespace();
        this.expect('>');
        return element;
      }
      if (this.source.startsWith('<!--', this.position)) this.readComment();
      else if (this.source.startsWith('<![CDATA[', this.position)) {
        this.position += 9;
        element.text += this.skipPast(']]>', 'CDATA section');
      } else if (this.source.startsWith('<!', this.position) || this.source.startsWith('<?', this.position)) {
        this.fail('a declaration or processing instruction inside the document');
      } else element.children.push(this.readElement());
    }
  }
}

/** The document's root element; throws on the first well-formedness error. */
export function parseStrictXml(source: string): XmlElement {
  return new StrictXmlReader(source).read();
}

/** Every element below `root` (root included), in document order, for which `matches` is true. */
export function findElements(root: XmlElement, matches: (element: XmlElement) => boolean): XmlElement[] {
  const found: XmlElement[] = [];
  const visit = (element: XmlElement): void => {
    if (matches(element)) found.push(element);
    for (const child of element.children) visit(child);
  };
  visit(root);
  return found;
}

/** The element's text and its descendants' text (own text first: enough for leaf elements like <text>). */
export function textContent(element: XmlElement): string {
  return element.text + element.children.map(textContent).join('');
}
