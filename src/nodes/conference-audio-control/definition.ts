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

/** The TypedInput types a configured value may have, as core nodes name them. */
export const VALUE_TYPES = ['bool', 'str', 'num', 'json'] as const;
export type ValueType = (typeof VALUE_TYPES)[number];

/**
 * The value field of an action: the types it offers, in order, and for `str` the fixed words it takes
 * (a drop-down) when the action takes only words. Undefined: the action takes no value, the field hides.
 */
export interface ValueField {
  readonly types: readonly ValueType[];
  readonly words?: readonly string[];
  /** What a node gets when the action is chosen in the dialog. */
  readonly initial: { readonly value: string; readonly type: ValueType };
}

const MUTE_FIELD: ValueField = {
  types: ['bool', 'str'],
  words: [TOGGLE],
  initial: { value: 'true', type: 'bool' },
};
const VOLUME_WORDS = Object.keys(VOLUME_STEPS);

export const VALUE_FIELDS: Readonly<Record<ActionChoice, ValueField | undefined>> = {
  microphoneMute: MUTE_FIELD,
  audienceMute: MUTE_FIELD,
  volume: { types: ['str'], words: VOLUME_WORDS, initial: { value: VOLUME_WORDS[0] ?? '', type: 'str' } },
  audio: { types: ['json'], initial: { value: '{}', type: 'json' } },
  identify: undefined,
  calibrate: undefined,
  profile: { types: ['str'], initial: { value: '', type: 'str' } },
  cameraSwitcher: { types: ['bool'], initial: { value: 'true', type: 'bool' } },
  switchingDefaults: { types: ['json'], initial: { value: '{}', type: 'json' } },
  soundLocationAlgorithm: {
    types: ['str'],
    words: SOUND_LOCATION_ALGORITHMS,
    initial: { value: SOUND_LOCATION_ALGORITHMS[0], type: 'str' },
  },
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

function isValueType(value: unknown): value is ValueType {
  return typeof value === 'string' && (VALUE_TYPES as readonly string[]).includes(value);
}

export type Reading<T> = { ok: true; value: T } | { ok: false; reason: string };

/** A configured value as its TypedInput type reads it: `bool` "true"/"false", `num` a number, `json` parsed. */
export function readConfiguredValue(value: unknown, valueType: unknown): Reading<unknown> {
  const type = isValueType(valueType) ? valueType : 'str';
  const text = typeof value === 'string' ? value : value === undefined || value === null ? '' : String(value);
  switch (type) {
    case 'bool':
      return { ok: true, value: text.trim() === 'true' };
    case 'num': {
      const number = Number(text);
      return text.trim() !== '' && Number.isFinite(number)
        ? { ok: true, value: number }
        : { ok: false, reason: `The value must be a number, got "${text}"` };
    }
    case 'json':
      try {
        return { ok: true, value: JSON.parse(text) as unknown };
      } catch {
        return { ok: false, reason: `The value is not valid JSON: ${text}` };
      }
    case 'str':
      return { ok: true, value: text };
  }
}

/**
 * Whether a configured action and value would be accepted, as the runner checks them before sending (the
 * firmware is not known here). `msg` takes its action and value from each message: nothing to check.
 */
export function checkConfiguredAction(
  action: unknown,
  value: unknown,
  valueType: unknown,
): string | undefined {
  if (!isActionChoice(action)) return `Choose one of ${ACTION_CHOICES.join(', ')}`;
  if (action === MESSAGE_ACTION || VALUE_FIELDS[action] === undefined) return undefined;
  const read = readConfiguredValue(value, valueType);
  if (!read.ok) return read.reason;
  try {
    parseControlAction(action, read.value);
    return undefined;
  } catch (error) {
    return isDeviceError(error) ? error.message : String(error);
  }
}
