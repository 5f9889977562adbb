/**
 * The device control node's properties: the actions it offers (src/control's list plus "set by msg"), the
 * value field that fits each action, and how a configured value is read. Imported by the runtime and by
 * the editor (no Node-RED, no DOM), so the dialog refuses exactly what an input would.
 */
import {
  CONTROL_ACTIONS,
  type ControlActionName,
  parseControlAction,
  SOUND_LOCATION_ALGORITHMS,
  TOGGLE,
  VOLUME_STEPS,
  type VolumeDirection,
} from '../../control/actions';
import { isDeviceError } from '../../errors';
import { palette } from '../palette';

export const TYPE = 'conference-audio-control';

/** Its place in the palette (scripts/build.js writes these into the editor's registerType). */
export const PALETTE = palette(TYPE, { inputs: 1, outputs: 1 });

/** The action that lets each message choose: `msg.action`, with `msg.payload` as the value. */
export const MESSAGE_ACTION = 'msg';
export const ACTION_CHOICES = [...CONTROL_ACTIONS, MESSAGE_ACTION] as const;
export type ActionChoice = (typeof ACTION_CHOICES)[number];

const VOLUME_DIRECTIONS = Object.keys(VOLUME_STEPS) as VolumeDirection[];

/** Types whose value Node-RED reads from the message, the flow or global context, or the environment. */
export const CONTEXT_TYPES = ['msg', 'flow', 'global', 'env'] as const;
/** Types whose value is the text typed in the dialog, as Node-RED reads each. */
export const LITERAL_TYPES = ['str', 'num', 'bool', 'json'] as const;
/** The actions' own words, each a TypedInput type of its own without a value: the word is the value. */
export const WORD_TYPES = [TOGGLE, ...VOLUME_DIRECTIONS, ...SOUND_LOCATION_ALGORITHMS] as const;
export type ContextType = (typeof CONTEXT_TYPES)[number];
export type WordType = (typeof WORD_TYPES)[number];
export type ValueType = (typeof LITERAL_TYPES)[number] | ContextType | WordType;

/**
 * The value field of an action: the TypedInput types it offers, in order (its words or literals first,
 * then CONTEXT_TYPES). Undefined: the action takes no value, the field hides.
 */
export interface ValueField {
  readonly types: readonly ValueType[];
  /** What a node gets when the action is chosen in the dialog. */
  readonly initial: { readonly value: string; readonly type: ValueType };
}

function field(types: readonly ValueType[], initialValue = ''): ValueField {
  const type = types[0] ?? 'str';
  return { types: [...types, ...CONTEXT_TYPES], initial: { value: initialValue, type } };
}

const MUTE_FIELD = field(['bool', TOGGLE], 'true');

export const VALUE_FIELDS: Readonly<Record<ActionChoice, ValueField | undefined>> = {
  microphoneMute: MUTE_FIELD,
  audienceMute: MUTE_FIELD,
  volume: field(VOLUME_DIRECTIONS),
  audio: field(['json'], '{}'),
  identify: undefined,
  calibrate: undefined,
  profile: field(['str', 'num']),
  cameraSwitcher: field(['bool'], 'true'),
  switchingDefaults: field(['json'], '{}'),
  soundLocationAlgorithm: field(SOUND_LOCATION_ALGORITHMS),
  msg: undefined,
};

/** The action that plays loud noise for about 20 s: the dialog asks before it is chosen. */
export const CONFIRMED_ACTION: ControlActionName = 'calibrate';

export const CONTROL_DEFAULTS = {
  action: 'microphoneMute' as ActionChoice,
  value: MUTE_FIELD.initial.value,
  valueType: MUTE_FIELD.initial.type,
};

export function isActionChoice(value: unknown): value is ActionChoice {
  return typeof value === 'string' && (ACTION_CHOICES as readonly string[]).includes(value);
}

/** The word a word type stands for; undefined for every other type. */
export function wordOf(valueType: unknown): WordType | undefined {
  return WORD_TYPES.find((word) => word === valueType);
}

export function isWordType(valueType: unknown): valueType is WordType {
  return wordOf(valueType) !== undefined;
}

export function isContextType(valueType: unknown): valueType is ContextType {
  return CONTEXT_TYPES.some((type) => type === valueType);
}

/** Why `value` does not fit `action` (the runner's own check, without the firmware), or undefined when it does. */
export function valueProblem(action: ControlActionName, value: unknown): string | undefined {
  try {
    parseControlAction(action, value);
    return undefined;
  } catch (error) {
    return isDeviceError(error) ? error.message : String(error);
  }
}

export type Reading<T> = { ok: true; value: T } | { ok: false; reason: string };

/**
 * A literal value as Node-RED's RED.util.evaluateNodeProperty reads it, for the dialog, which has no
 * such call (the runtime uses Node-RED's own). A word type is its word; context types are read per message.
 */
export function literalValue(value: unknown, valueType: unknown): Reading<unknown> {
  const word = wordOf(valueType);
  if (word !== undefined) return { ok: true, value: word };
  const text = String(value ?? '');
  switch (valueType) {
    case 'num':
      return { ok: true, value: Number(text) };
    case 'bool':
      return { ok: true, value: /^true$/i.test(text) };
    case 'json':
      try {
        return { ok: true, value: JSON.parse(text) as unknown };
      } catch {
        return { ok: false, reason: `The value is not valid JSON: ${text}` };
      }
    default:
      return { ok: true, value: text };
  }
}

/**
 * Whether a configured action and value would be accepted, as the runner checks them before sending (the
 * firmware is not known here). `msg` takes its action and value from each message, and a value read from a
 * message, context or the environment is known only then: nothing to check.
 */
export function checkConfiguredAction(
  action: unknown,
  value: unknown,
  valueType: unknown,
): string | undefined {
  if (!isActionChoice(action)) return `Choose one of ${ACTION_CHOICES.join(', ')}`;
  if (action === MESSAGE_ACTION || VALUE_FIELDS[action] === undefined || isContextType(valueType)) {
    return undefined;
  }
  const read = literalValue(value, valueType);
  return read.ok ? valueProblem(action, read.value) : read.reason;
}
