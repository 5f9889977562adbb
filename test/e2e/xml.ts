/**
 * A strict-enough well-formedness check for the SVG a flow serves: tags
 * balance and nest, attributes are quoted, `<` and `&` appear only as markup
 * or entities. Returns the root element's name; throws on the first problem.
 */
export function checkWellFormedXml(text: string): string {
  const body = text
    .replace(/^\uFEFF?\s*<\?xml[^?]*\?>/, '')
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/<!\[CDATA\[[\s\S]*?\]\]>/g, '')
    .replace(/^\s*<!DOCTYPE[^>]*>/i, '');
  const tag = /<(\/?)([A-Za-z_][\w:.-]*)((?:\s+[\w:.-]+\s*=\s*(?:"[^"<]*"|'[^'<]*'))*)\s*(\/?)>/g;
  const open: string[] = [];
  let root = '';
  let position = 0;
  for (const match of body.matchAll(tag)) {
    checkText(body.slice(position, match.index), open.length === 0);
    position = match.index + match[0].length;
    const [, closing, name, , selfClosing] = match;
    if (closing) {
      const expected = open.pop();
      if (expected !== name) throw new Error(`</${name}> closes <${expected ?? 'nothing'}>`);
      continue;
    }
    if (open.length === 0) {
      if (root !== '') throw new Error(`a second root element <${name}>`);
      root = name;
    }
    if (!selfClosing) open.push(name);
  }
  checkText(body.slice(position), true);
  if (open.length > 0) throw new Error(`unclosed <${open.join('>, <')}>`);
  if (root === '') throw new Error('no root element');
  return root;
}

function checkText(text: string, outsideRoot: boolean): void {
  if (text.includes('<')) throw new Error(`malformed markup near ${JSON.stringify(text.slice(0, 60))}`);
  if (/&(?!(?:amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);)/.test(text)) {
    throw new Error(`a bare & near ${JSON.stringify(text.slice(0, 60))}`);
  }
  if (outsideRoot && text.trim() !== '')
    throw new Error(`text outside the root element: ${text.trim().slice(0, 60)}`);
}
