/**
 * What each state group must look like to be believed: an object with the fields a flow and the runner
 * rely on, of the right JSON types, and no bigger than a device has reason to send. A device that answers
 * otherwise (a list, a string, a field of another type) is not taken at its word.
 */
import { AUDIO_FIELDS, type AudioFieldRule } from './audio-fields';
import type { StateGroupName } from './group-names';
import { isJsonObject, type JsonObject } from './json';

/** The most a group may weigh as JSON: the real ones are a few kilobytes. */
export const MAX_GROUP_BYTES = 64 * 1024;
/** The most object keys a group may hold at every depth together: the real ones hold well under a hundred. */
export const MAX_GROUP_KEYS = 1000;

type FieldType = 'boolean' | 'number' | 'string' | 'object' | 'array';

/** Fields a group cannot do without, and fields that, when present, must be of a given type. */
interface GroupShape {
  readonly required: Readonly<Record<string, FieldType>>;
  readonly optional: Readonly<Record<string, FieldType>>;
}

const AUDIO_TYPES: Record<AudioFieldRule['type'], FieldType> = {
  boolean: 'boolean',
  integer: 'number',
  enum: 'string',
};

function audioShape(): GroupShape {
  const optional: Record<string, FieldType> = {};
  for (const [name, field] of Object.entries(AUDIO_FIELDS)) optional[name] = AUDIO_TYPES[field.rule.type];
  return { required: { microphoneMute: 'boolean' }, optional };
}

const SHAPES: Readonly<Record<StateGroupName, GroupShape>> = {
  audio: audioShape(),
  hardware: {
    required: {},
    optional: {
      model: 'string',
      firmwareVersion: 'string',
      deviceStatus: 'string',
      hardwareComponents: 'array',
    },
  },
  status: {
    required: {},
    optional: { leds: 'object', usb: 'object', deviceComponents: 'object', calibrating: 'boolean' },
  },
  switching: {
    required: {},
    optional: {
      cameraSwitcherZoneInputMap: 'array',
      cameraSwitcherZoneInputMaps: 'array',
      cameraSwitcherDefaults: 'object',
      soundLocationAlgorithm: 'string',
    },
  },
  cameraSwitcher: {
    required: { enabled: 'boolean' },
    optional: { integrationErrors: 'array', cameraInputs: 'array' },
  },
  profiles: { required: { profiles: 'array' }, optional: {} },
  network: { required: { networkConfiguration: 'array' }, optional: {} },
};

function typeOf(value: unknown): FieldType | 'null' | 'other' {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  const type = typeof value;
  if (type === 'number') return Number.isFinite(value) ? 'number' : 'other';
  if (type === 'boolean' || type === 'string' || type === 'object') return type;
  return 'other';
}

function fieldProblem(
  value: JsonObject,
  name: string,
  type: FieldType,
  required: boolean,
): string | undefined {
  const member = value[name];
  if (member === undefined) return required ? `no ${name}` : undefined;
  const actual = typeOf(member);
  return actual === type ? undefined : `${name} is ${article(actual)}, not ${article(type)}`;
}

function article(type: string): string {
  return type === 'null' ? 'null' : /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

/** Object keys at every depth, stopping once past the cap. */
function countKeys(value: unknown, limit: number): number {
  let count = 0;
  const pending: unknown[] = [value];
  while (pending.length > 0 && count <= limit) {
    const next = pending.pop();
    if (Array.isArray(next)) pending.push(...next);
    else if (isJsonObject(next)) {
      const keys = Object.keys(next);
      count += keys.length;
      for (const key of keys) pending.push(next[key]);
    }
  }
  return count;
}

/** Why a group is too large to keep, or undefined. */
export function groupSizeProblem(value: unknown): string | undefined {
  if (countKeys(value, MAX_GROUP_KEYS) > MAX_GROUP_KEYS) return `it holds over ${MAX_GROUP_KEYS} keys`;
  const bytes = Buffer.byteLength(JSON.stringify(value) ?? '');
  return bytes > MAX_GROUP_BYTES ? `it is ${bytes} bytes, over ${MAX_GROUP_BYTES}` : undefined;
}

/** What is wrong with the shape of a body as the source of `group` (its size aside), or undefined. */
export function groupShapeProblem(group: StateGroupName, body: unknown): string | undefined {
  if (!isJsonObject(body)) return `it is ${article(typeOf(body))}, not an object`;
  const shape = SHAPES[group];
  for (const [name, type] of Object.entries(shape.required)) {
    const problem = fieldProblem(body, name, type, true);
    if (problem !== undefined) return problem;
  }
  for (const [name, type] of Object.entries(shape.optional)) {
    const problem = fieldProblem(body, name, type, false);
    if (problem !== undefined) return problem;
  }
  return undefined;
}
