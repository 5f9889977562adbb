/**
 * A node's status text as the editor shows it: the runtime sends catalogue keys
 * (`@conference-audio/node-red-local-api/<type>:<type>.status.x`, parameters as JSON after a space; see
 * src/nodes/status/status.ts), the editor looks them up in src/nodes/<type>/locales/<language>.json, picks the
 * plural form by `count` and fills in `__name__` parameters. Texts that are not such keys stay as they are.
 */
import { readFileSync } from 'node:fs';
import { catalogueFile } from './node-types';

const STATUS_KEY = /^@conference-audio\/node-red-local-api\/([\w-]+):([\w.-]+)(?: (\{.*\}))?$/;

function lookUp(language: string, set: string, key: string): string | undefined {
  let value: unknown = JSON.parse(readFileSync(catalogueFile(set, language), 'utf8'));
  for (const part of key.split('.')) value = (value as Record<string, unknown> | undefined)?.[part];
  return typeof value === 'string' ? value : undefined;
}

export function shownStatusText(text: string, language = 'en-US'): string {
  const match = STATUS_KEY.exec(text);
  if (match === null) return text;
  const [, set, key, json] = match;
  const params = (json === undefined ? {} : JSON.parse(json)) as Record<string, string | number>;
  const count = params.count;
  const plural =
    typeof count === 'number'
      ? lookUp(language, set, `${key}_${new Intl.PluralRules(language).select(count)}`)
      : undefined;
  const template = plural ?? lookUp(language, set, key);
  if (template === undefined) return text;
  return template.replace(/__(\w+)__/g, (whole, name: string) =>
    params[name] === undefined ? whole : String(params[name]),
  );
}
