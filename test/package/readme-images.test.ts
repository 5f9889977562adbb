/**
 * The pictures of the README and the docs pages: each one they link is a PNG in docs/ that `npm run
 * screenshots` makes, so a renamed or forgotten picture shows up here and not as a broken image on GitHub or
 * npm. They are linked by their raw GitHub address, built from package.json's repository: the flow library
 * and npm show the README away from the repository, where a relative path leads nowhere.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import should from 'should';
import { screenshotFiles } from '../browser/screenshots';

const root = join(__dirname, '..', '..');
const repository = (
  JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { repository: { url: string } }
).repository.url;
const ownerAndName = /github\.com[/:]([\w.-]+\/[\w.-]+?)(?:\.git)?$/.exec(repository)?.[1];
const rawBase = `https://raw.githubusercontent.com/${ownerAndName}/main/`;
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Every Markdown page of a folder and its folders. */
function pagesIn(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return pagesIn(path);
    return entry.name.endsWith('.md') ? [path] : [];
  });
}

/** The README and the docs pages. */
function documents(): string[] {
  return [join(root, 'README.md'), ...pagesIn(join(root, 'docs'))];
}

/** Targets of `![alt](target)` and `<img src="target">` in one document, in order. */
function imagesOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const markdown = [...text.matchAll(/!\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)];
  const html = [...text.matchAll(/<img\b[^>]*\bsrc\s*=\s*["']([^"']+)["']/gi)];
  return [...markdown, ...html].map((match) => match[1]);
}

function linkedImages(): string[] {
  return documents().flatMap(imagesOf);
}

describe('the pictures in the README and the docs', () => {
  const images = linkedImages();

  it('links every picture npm run screenshots makes, each once', () => {
    should(images.map((image) => posix.basename(image)).sort()).eql([...screenshotFiles].sort());
  });

  it('shows a picture in the README itself, on its first screen', () => {
    const readme = imagesOf(join(root, 'README.md'));
    should(readme.length).be.above(0);
    const firstScreen = readFileSync(join(root, 'README.md'), 'utf8').split('\n').slice(0, 20).join('\n');
    should(firstScreen).containEql(readme[0]);
  });

  it("links each picture by its raw GitHub address in the repository's docs/ on main", () => {
    should(typeof ownerAndName).equal('string', `package.json's repository ${repository} is not on GitHub`);
    for (const image of images) {
      should(image.startsWith(rawBase)).be.true(`${image} does not start with ${rawBase}`);
      should(image.slice(rawBase.length)).match(/^docs\/[\w.-]+\.png$/, `${image} is not docs/<name>.png`);
    }
  });

  it('finds each linked picture in docs/ as a PNG with a size', () => {
    for (const image of images) {
      const file = join(root, image.slice(rawBase.length));
      should(existsSync(file)).be.true(`${image} is missing: run npm run screenshots`);
      const bytes = readFileSync(file);
      should(bytes.subarray(0, 8).equals(PNG_SIGNATURE)).be.true(`${image} is not a PNG`);
      // IHDR, the first chunk, holds the width and the height.
      should(bytes.readUInt32BE(16)).be.above(0, `${image} has no width`);
      should(bytes.readUInt32BE(20)).be.above(0, `${image} has no height`);
    }
  });
});
