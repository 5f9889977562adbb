/**
 * The troubleshooting page (docs/troubleshooting.md) against the code: every error code the package can raise has a row
 * that says what the user sees and does, no row names a code that does not exist, and the statuses it
 * lists are the ones the nodes show.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import should from 'should';
import { ERROR_CODES } from '../../src/errors';
import { errorCode } from '../../src/nodes/glue/errors';
import { catalogueFile } from '../support/node-types';

const root = path.join(__dirname, '..', '..');

/** One `## <heading>` section of the troubleshooting page, its heading line first. */
function troubleshootingSection(heading: string): string {
  const page = readFileSync(path.join(root, 'docs', 'troubleshooting.md'), 'utf8');
  const start = page.indexOf(`\n## ${heading}\n`);
  if (start < 0) throw new Error(`docs/troubleshooting.md has no "## ${heading}" section`);
  const end = page.indexOf('\n## ', start + 1);
  return page.slice(start, end < 0 ? undefined : end);
}

/** The table's rows by code: `| \`CODE\` | status | what to do |`. */
function rowsByCode(): Map<string, string[]> {
  const rows = new Map<string, string[]>();
  for (const line of troubleshootingSection('Error codes').split('\n')) {
    const match = /^\| `([A-Z_]+)` \|(.*)\|\s*$/.exec(line);
    if (match?.[1] === undefined || match[2] === undefined) continue;
    rows.set(
      match[1],
      match[2].split(' | ').map((cell) => cell.trim()),
    );
  }
  return rows;
}

function statusTexts(): Set<string> {
  const texts = new Set<string>();
  for (const file of ['conference-audio-device', 'conference-audio-zones', 'conference-audio-request']) {
    const catalogue = JSON.parse(readFileSync(catalogueFile(file, 'en-US'), 'utf8')) as Record<
      string,
      { status?: Record<string, string> }
    >;
    // A text with a count is written once per plural form: `read_one`, `read_other`.
    for (const text of Object.values(catalogue[file]?.status ?? {})) texts.add(text);
  }
  return texts;
}

describe('docs/troubleshooting.md', () => {
  /** What a node reports for a failure that is not a DeviceError. */
  const fallbackCode = errorCode(new Error('unexpected'));

  for (const code of [...ERROR_CODES, fallbackCode]) {
    it(`says what ${code} looks like and what to do about it`, () => {
      const row = rowsByCode().get(code);
      should.exist(row, `no row for ${code} in the table of docs/troubleshooting.md`);
      const [status = '', action = ''] = row ?? [];
      should(status.length).be.above(0, `the status cell of ${code} is empty`);
      should(action.length).be.above(40, `the advice for ${code} is missing or too short`);
    });
  }

  it('has no row for a code the package does not raise', () => {
    const known = new Set<string>([...ERROR_CODES, fallbackCode]);
    should([...rowsByCode().keys()].filter((code) => !known.has(code))).eql([]);
  });

  it('lists the statuses the nodes show, in their words', () => {
    const intro = troubleshootingSection('Statuses').split('\n\n')[1] ?? '';
    const listed = [...intro.matchAll(/\*([a-z][a-z\s]+)\*/g)].map((match) => match[1]?.replace(/\s+/g, ' '));
    should(listed).containEql('invalid configuration');
    const known = statusTexts();
    should(listed.filter((text) => text === undefined || !known.has(text))).eql([]);
  });
});
