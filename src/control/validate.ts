/**
 * Checks a write before anything is sent: a known field with a wrong type, out of range
 * or not among its choices, or a write to the read-only volume, is INVALID_INPUT naming the field and what
 * it allows. A field this package does not know is passed on, so newer firmware keeps working. With the
 * device's firmware known, a field it lacks is UNSUPPORTED_FIRMWARE naming the version needed.
 */
import type { DeviceError } from '../errors';
import { AUDIO_FIELDS, type AudioFieldRule, describeRule, isAudioFieldName } from './audio-fields';
import { controlError, invalidInput } from './errors';
import { compareFirmware, type FirmwareVersion, formatFirmware, parseFirmwareVersion } from './firmware';
import { isJsonObject, type JsonObject, jsonFlaw, shown } from './json';

/** The most a write may weigh as JSON: far above any real settings object, small enough to refuse a flood. */
export const MAX_WRITE_BYTES = 64 * 1024;

/**
 * INVALID_INPUT unless `value` can go to the device as it is: JSON of at most MAX_WRITE_BYTES, with no
 * key that reaches a prototype (`__proto__`, `constructor`, `prototype`) and no NaN or Infinity, which
 * JSON would turn into null unseen. `subject` names the write in the message ("The audio write").
 */
export function checkForwardable(value: JsonObject, subject: string): void {
  let text: string;
  try {
    text = JSON.stringify(value);
  } catch {
    throw invalidInput(
      `${subject} cannot be written as JSON: it holds a circular reference, a BigInt or nesting too deep`,
    );
  }
  const bytes = new TextEncoder().encode(text).length;
  if (bytes > MAX_WRITE_BYTES) {
    throw invalidInput(`${subject} is ${bytes} bytes as JSON; at most ${MAX_WRITE_BYTES} are sent`);
  }
  const flaw = jsonFlaw(value);
  if (flaw?.reason === 'unsafe key') {
    throw invalidInput(
      `${subject} holds the key "${flaw.found}" (at ${flaw.path}), which is never sent: a merge could change an object's prototype with it`,
    );
  }
  if (flaw?.reason === 'not finite') {
    throw invalidInput(
      `${subject} has ${flaw.found} at ${flaw.path}, which JSON cannot carry; give a finite number`,
    );
  }
}

/** Why `value` breaks `rule`, or undefined when it keeps it. A whole-valued number such as 2.0 is an integer. */
export function ruleProblem(rule: AudioFieldRule, value: unknown): string | undefined {
  switch (rule.type) {
    case 'boolean':
      return typeof value === 'boolean' ? undefined : 'must be true or false';
    case 'integer':
      if (typeof value !== 'number' || !Number.isInteger(value)) return 'must be a whole number';
      return value < rule.min || value > rule.max ? `must be from ${rule.min} to ${rule.max}` : undefined;
    case 'enum':
      return typeof value === 'string' && rule.values.includes(value)
        ? undefined
        : `must be ${describeRule(rule)}`;
  }
}

/**
 * UNSUPPORTED_FIRMWARE when the device's firmware is known and outside [floor, ceiling]; otherwise nothing.
 * An unreadable or unknown version checks nothing: the device then judges.
 */
export function firmwareProblem(
  subject: string,
  firmwareVersion: string | undefined,
  floor: FirmwareVersion,
  ceiling?: FirmwareVersion,
): DeviceError | undefined {
  const running = firmwareVersion === undefined ? undefined : parseFirmwareVersion(firmwareVersion);
  if (running === undefined) return undefined;
  if (compareFirmware(running, floor) < 0) {
    return controlError(
      'UNSUPPORTED_FIRMWARE',
      `${subject} needs firmware ${formatFirmware(floor)} or later; this device runs ${firmwareVersion}`,
    );
  }
  if (ceiling !== undefined && compareFirmware(running, ceiling) > 0) {
    return controlError(
      'UNSUPPORTED_FIRMWARE',
      `${subject} exists only up to firmware ${formatFirmware(ceiling)}; this device runs ${firmwareVersion}`,
    );
  }
  return undefined;
}

/**
 * The fields of one PATCH /api/v1/audio, checked. Every input problem is found before any firmware
 * problem, so a mistake is reported as such whatever the device runs. Returns the fields unchanged.
 */
export function validateAudioWrite(fields: unknown, firmwareVersion?: string): JsonObject {
  if (!isJsonObject(fields) || Object.keys(fields).length === 0) {
    throw invalidInput(
      `The audio action needs an object of /api/v1/audio fields, such as {"speakerTrebleLevel": 60}; got ${shown(fields)}`,
    );
  }
  for (const [name, value] of Object.entries(fields)) {
    if (!isAudioFieldName(name)) continue;
    const field = AUDIO_FIELDS[name];
    if (!field.writable) {
      throw invalidInput(`${name} is read-only: change the volume with the volume action, "up" or "down"`);
    }
    const problem = ruleProblem(field.rule, value);
    if (problem !== undefined) throw invalidInput(`${name} ${problem}; got ${shown(value)}`);
  }
  checkForwardable(fields, 'The audio write');
  for (const name of Object.keys(fields)) {
    if (!isAudioFieldName(name)) continue;
    const field: { floor: FirmwareVersion; ceiling?: FirmwareVersion } = AUDIO_FIELDS[name];
    const tooOldOrNew = firmwareProblem(name, firmwareVersion, field.floor, field.ceiling);
    if (tooOldOrNew !== undefined) throw tooOldOrNew;
  }
  return fields;
}
