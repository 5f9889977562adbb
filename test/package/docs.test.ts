/**
 * The README and docs/ as a reader follows them: every relative link leads to a file (and a heading, where
 * it names one), every node type has its page and its help, every page is reachable from the README, and
 * the README stays the newcomer's short path with the two commands on its first screen.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import should from 'should';
import { ERROR_CODES } from '../../src/errors';
import { helpFile, languages, nodeTypes, projectRoot } from '../support/node-types';

const docsDir = join(projectRoot, 'docs');
const readme = join(projectRoot, 'README.md');
const repositoryBlob = 'https://github.com/conference-audio/node-red-local-api/blob/main/';

/** Every Markdown file of docs/, at any depth. */
function docsPages(dir = docsDir): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return docsPages(path);
    return name.endsWith('.md') ? [path] : [];
  });
}

/** The text a reader sees as prose: fenced code blocks and inline code removed, so their brackets are no links. */
function prose(markdown: string): string {
  return markdown.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');
}

/** Targets of `[text](target)` links and `![alt](target)` images. */
function linkTargets(markdown: string): string[] {
  return [...prose(markdown).matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map(
    (match) => match[1] ?? '',
  );
}

/** The anchors GitHub gives a file's headings: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
function headingAnchors(file: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  const text = readFileSync(file, 'utf8').replace(/^```[\s\S]*?^```/gm, '');
  for (const match of text.matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const slug = (match[1] ?? '')
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(slug) ?? 0;
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
    seen.set(slug, count + 1);
  }
  return anchors;
}

function isExternal(target: string): boolean {
  return /^[a-z][a-z0-9+.-]*:/i.test(target);
}

/** Problems with the relative links of one Markdown file: a missing file, or a missing heading. */
function brokenLinks(file: string): string[] {
  const problems: string[] = [];
  for (const target of linkTargets(readFileSync(file, 'utf8'))) {
    if (isExternal(target)) continue;
    const [path = '', anchor] = target.split('#');
    const linked = path === '' ? file : resolve(dirname(file), decodeURIComponent(path));
    const where = `${relative(projectRoot, file)}: ${target}`;
    if (!existsSync(linked)) {
      problems.push(`${where} (no such file)`);
      continue;
    }
    if (anchor === undefined || anchor === '') continue;
    if (!linked.endsWith('.md')) problems.push(`${where} (an anchor in a file that is not Markdown)`);
    else if (!headingAnchors(linked).has(anchor)) problems.push(`${where} (no such heading)`);
  }
  return problems;
}

/** The docs page of a node type: docs/nodes/<type without its conference-audio- prefix>.md. */
function nodePage(type: string): string {
  return join(docsDir, 'nodes', `${type.replace(/^conference-audio-/, '')}.md`);
}

describe('the docs', () => {
  const files = [readme, ...docsPages()];

  it('has pages to check', () => {
    should(docsPages().length).be.above(10);
  });

  for (const file of files) {
    it(`${relative(projectRoot, file)}: every relative link leads to a file, and to a heading where it names one`, () => {
      should(brokenLinks(file)).eql([]);
    });
  }

  it('finds a broken link and a broken anchor (the check itself)', () => {
    const anchors = headingAnchors(join(docsDir, 'troubleshooting.md'));
    should(anchors.has('error-codes')).be.true();
    should(anchors.has('no-such-heading')).be.false();
    should(headingAnchors(readme).has('what-npm-start-shows')).be.true();
    should(linkTargets('[a](x.md) `[b](y.md)` ![c](d.png)')).eql(['x.md', 'd.png']);
  });

  it('reaches every docs page from the README by following links', () => {
    const reached = new Set<string>([readme]);
    const queue = [readme];
    while (queue.length > 0) {
      const file = queue.shift() ?? '';
      for (const target of linkTargets(readFileSync(file, 'utf8'))) {
        if (isExternal(target)) continue;
        const path = target.split('#')[0] ?? '';
        if (path === '' || !path.endsWith('.md')) continue;
        const linked = resolve(dirname(file), decodeURIComponent(path));
        if (linked.startsWith(docsDir) && existsSync(linked) && !reached.has(linked)) {
          reached.add(linked);
          queue.push(linked);
        }
      }
    }
    should(
      docsPages()
        .filter((page) => !reached.has(page))
        .map((page) => relative(projectRoot, page)),
    ).eql([]);
  });

  for (const type of nodeTypes) {
    it(`${type} has a docs page, and a help text in every language that links to it`, () => {
      const page = nodePage(type);
      should(existsSync(page)).be.true(`${relative(projectRoot, page)} is missing`);
      should(readFileSync(page, 'utf8')).match(new RegExp(`^# .*\`${type}\``, 'm'));
      for (const language of languages) {
        const help = helpFile(type, language);
        should(existsSync(help)).be.true(`${relative(projectRoot, help)} is missing`);
        should(readFileSync(help, 'utf8')).containEql(`${repositoryBlob}${relative(projectRoot, page)}`);
      }
    });
  }

  it('names every error code of src/errors.ts on the troubleshooting page', () => {
    const page = readFileSync(join(docsDir, 'troubleshooting.md'), 'utf8');
    should(ERROR_CODES.filter((code) => !page.includes(`\`${code}\``))).eql([]);
  });
});

describe('the README', () => {
  const lines = readFileSync(readme, 'utf8').split('\n');

  it('is the short path of a newcomer: at most about 250 lines', () => {
    should(lines.length).be.belowOrEqual(260);
  });

  it('shows `npm start` on the first screen and `npm test` soon after', () => {
    should(lines.slice(0, 40).some((line) => line.includes('npm start'))).be.true();
    should(lines.slice(0, 60).some((line) => line.includes('npm test'))).be.true();
  });

  it("links each node of its table to that node's docs page", () => {
    for (const type of nodeTypes) {
      const row = lines.find((line) => line.startsWith(`| \`${type}\` |`));
      should.exist(row, `no row for ${type}`);
      should(row).containEql(`(${relative(projectRoot, nodePage(type))})`);
    }
  });

  it('covers every dependency with an install script in allowScripts, so npm install prints no notice', () => {
    const lock = JSON.parse(readFileSync(join(projectRoot, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { hasInstallScript?: boolean }>;
    };
    const allowed = Object.keys(
      (JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')) as { allowScripts?: object })
        .allowScripts ?? {},
    );
    const withScripts = Object.entries(lock.packages)
      .filter(([, entry]) => entry.hasInstallScript)
      .map(([where]) => where.slice(where.lastIndexOf('node_modules/') + 'node_modules/'.length));
    should(withScripts.filter((name) => !allowed.includes(name))).eql([]);
    const text = lines.join(' ').replace(/\s+/g, ' ');
    should(text).match(/allowScripts/);
  });
});
