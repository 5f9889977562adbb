import { readFileSync } from 'node:fs';
import should from 'should';
import { catalogueFile, helpFile, languages, nodeTypes } from '../support/node-types';

const SOURCE_LOCALE = 'en-US';
const TYPES = nodeTypes;

interface HelpProperty {
  name: string;
  optional: boolean;
  type: string | undefined;
}

const collapse = (text: string): string => text.replace(/\s+/g, ' ').trim();

function help(locale: string, type: string): string {
  return readFileSync(helpFile(type, locale), 'utf8');
}

function helpNames(html: string): string[] {
  return [...html.matchAll(/data-help-name="([^"]*)"/g)].map((match) => match[1]);
}

function headingCount(html: string): number {
  return [...html.matchAll(/<h3>/g)].length;
}

/** Every `<dl class="message-properties">` of the page, each as its `<dt>` entries in order. */
function propertyLists(html: string): HelpProperty[][] {
  return [...html.matchAll(/<dl class="message-properties">([\s\S]*?)<\/dl>/g)].map((list) =>
    [
      ...list[1].matchAll(
        /<dt(?<attributes>[^>]*)>(?<name>[\s\S]*?)(?:<span class="property-type">(?<type>[\s\S]*?)<\/span>)?\s*<\/dt>/g,
      ),
    ].map(({ groups }) => ({
      name: collapse(groups?.name ?? ''),
      optional: (groups?.attributes ?? '').includes('optional'),
      type: groups?.type === undefined ? undefined : collapse(groups.type),
    })),
  );
}

/**
 * A name as code reads it (`payload`, `statusCode`): it must stay as it is in every language. The other
 * `<dt>`s are dialog fields or prose ("any message") and are translated.
 */
const isCodeName = (name: string): boolean => /^[a-z_$][\w$.]*$/.test(name);

function codeSamples(html: string): string[] {
  return [...html.matchAll(/<code>([\s\S]*?)<\/code>/g)].map((match) => collapse(match[1])).sort();
}

function dialogLabels(locale: string, type: string): Record<string, string> {
  const catalogue = JSON.parse(readFileSync(catalogueFile(type, locale), 'utf8')) as Record<
    string,
    { label?: Record<string, string> }
  >;
  return catalogue[type]?.label ?? {};
}

/** The locale's wording of a `<dt>` that names dialog fields ("Client ID, Vendor word"), if it does. */
function dialogFieldName(locale: string, type: string, sourceName: string): string | undefined {
  // A message property (`zones`) may read like a dialog label ("zones") but is code: never translated.
  if (isCodeName(sourceName)) return undefined;
  const sourceLabels = Object.entries(dialogLabels(SOURCE_LOCALE, type));
  const labels = dialogLabels(locale, type);
  const keys = sourceName.split(', ').map((part) => sourceLabels.find(([, text]) => text === part)?.[0]);
  if (keys.some((key) => key === undefined)) return undefined;
  return keys.map((key) => labels[key as string]).join(', ');
}

const locales = languages.filter((language) => language !== SOURCE_LOCALE);

describe('sidebar help in every locale (src/nodes/<type>/help/<language>.html)', () => {
  it('finds at least one translated locale', () => {
    should(locales.length).be.above(0);
  });

  for (const locale of locales) {
    for (const type of TYPES) {
      const source = () => help(SOURCE_LOCALE, type);
      const translated = () => help(locale, type);

      it(`${locale} ${type}: is the help of the same node type`, () => {
        should(helpNames(source())).eql([type]);
        should(helpNames(translated())).eql([type]);
      });

      it(`${locale} ${type}: has the sections and property lists of ${SOURCE_LOCALE}`, () => {
        const shape = (html: string) =>
          propertyLists(html).map((list) => list.map((entry) => entry.optional));
        should(propertyLists(source()).length).be.above(0);
        should(headingCount(translated())).equal(headingCount(source()));
        should(shape(translated())).eql(shape(source()));
      });

      it(`${locale} ${type}: keeps the message property names and types of ${SOURCE_LOCALE}`, () => {
        const codeProperties = (html: string) =>
          propertyLists(html)
            .flat()
            .filter((entry) => isCodeName(entry.name));
        should(codeProperties(translated())).eql(codeProperties(source()));
      });

      it(`${locale} ${type}: keeps every code sample of ${SOURCE_LOCALE} untranslated`, () => {
        should(codeSamples(translated())).eql(codeSamples(source()));
      });

      const fieldNames = propertyLists(help(SOURCE_LOCALE, type))
        .flat()
        .map((entry) => dialogFieldName(locale, type, entry.name));
      if (fieldNames.some((name) => name !== undefined)) {
        it(`${locale} ${type}: names the dialog fields as the ${locale} dialog does`, () => {
          const names = propertyLists(translated())
            .flat()
            .map((entry, index) => (fieldNames[index] === undefined ? undefined : entry.name));
          should(names).eql(fieldNames);
        });
      }
    }
  }
});
