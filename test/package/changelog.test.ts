/** The CHANGELOG says each change once: a bullet repeated word for word is a merge left over. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import should from 'should';

/** Each top-level bullet with its continuation lines, white space folded. */
function bullets(markdown: string): string[] {
  const found: string[] = [];
  let current: string[] | undefined;
  for (const line of markdown.split('\n')) {
    if (/^- /.test(line)) {
      if (current) found.push(current.join(' '));
      current = [line.slice(2).trim()];
    } else if (current && /^\s+\S/.test(line)) {
      current.push(line.trim());
    } else if (current) {
      found.push(current.join(' '));
      current = undefined;
    }
  }
  if (current) found.push(current.join(' '));
  return found.map((bullet) => bullet.replace(/\s+/g, ' '));
}

describe('the CHANGELOG', () => {
  it('has no bullet twice', () => {
    const all = bullets(readFileSync(join(__dirname, '..', '..', 'CHANGELOG.md'), 'utf8'));
    should(all.length).be.above(5, 'the bullets are found');
    const repeated = all.filter((bullet, index) => all.indexOf(bullet) !== index);
    should(repeated).eql([]);
  });
});
