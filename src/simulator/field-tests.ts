import { isRecord } from './zones';

/** The fields a control may change on a resource, each with the test its value must pass. */
export type FieldTests = Readonly<Record<string, (value: unknown) => boolean>>;

/** Why `fields` is not a partial update of the resource `tests` describes; undefined when it is one. */
export function fieldsProblem(fields: unknown, tests: FieldTests): string | undefined {
  if (!isRecord(fields)) return 'fields must be an object';
  for (const [key, value] of Object.entries(fields)) {
    const test = Object.hasOwn(tests, key) ? tests[key] : undefined;
    if (test === undefined || !test(value)) return `${key} is not a field, or not of its type`;
  }
  return undefined;
}

export const isBoolean = (value: unknown): boolean => typeof value === 'boolean';
export const isString = (value: unknown): boolean => typeof value === 'string';
