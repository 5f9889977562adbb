/**
 * What a device's refusal of a control action means (docs/device-api.md, Error shapes). The client
 * has already turned the answer into a DeviceError with the status and the device's message, read from
 * either body shape (the `errors` list or problem details); here it gets the code a flow can act on.
 */
import { DeviceError } from '../errors';
import type { ControlCommand } from './actions';
import { controlError, httpDetails } from './errors';
import { profileNotFound } from './profiles';
import type { GroupState } from './state-groups';

export interface RefusalContext {
  /** The command the device refused. */
  readonly command: ControlCommand;
  /** The profiles as last read, to list the names that exist when a profile is not found. */
  readonly profiles?: GroupState;
}

const FIRMWARE_PATTERN = /Firmware version is\s*([<>])\s*(\d+(?:\.\d+)*)/i;
const FIELD_PATTERN = /Unsupported Attributes:\s*([A-Za-z0-9_]+)/i;
const UNSUPPORTED_DEVICE_PATTERN = /unsupported device type/i;

/**
 * The codes of the device's own answer to a request. Others (a refused login, a vendor word the device does
 * not take, a rate limit) carry a status too, but it did not answer the action: they are passed on as they are.
 */
const ANSWER_CODES: ReadonlySet<string> = new Set(['HTTP_ERROR', 'NOT_FOUND', 'UNSUPPORTED_MODEL']);

function isAnswer(error: unknown): error is DeviceError {
  return error instanceof DeviceError && ANSWER_CODES.has(error.code);
}

function said(error: DeviceError): string {
  return error.deviceMessage === undefined ? `HTTP ${error.statusCode}` : error.deviceMessage;
}

function firmwareRefusal(error: DeviceError, command: ControlCommand): DeviceError | undefined {
  const match = FIRMWARE_PATTERN.exec(error.deviceMessage ?? '');
  if (match === null) return undefined;
  const [, direction, version] = match;
  const subject = FIELD_PATTERN.exec(error.deviceMessage ?? '')?.[1] ?? command.action;
  const message =
    direction === '<'
      ? `${subject} needs firmware ${version} or later (device said: ${said(error)})`
      : `${subject} exists only up to firmware ${version} (device said: ${said(error)})`;
  return controlError('UNSUPPORTED_FIRMWARE', message, httpDetails(error));
}

/**
 * The error to report for a refused command: UNSUPPORTED_FIRMWARE, UNSUPPORTED_MODEL, NOT_FOUND (a
 * profile, listing those that exist), DEVICE_BUSY (calibrate with a bar unplugged) or INVALID_INPUT with
 * the device's message. Anything else (rate limiting, network, login, vendor word) is returned as it came.
 */
export function classifyRefusal(error: unknown, context: RefusalContext): unknown {
  if (!isAnswer(error)) return error;
  const { command } = context;
  const details = httpDetails(error);
  if (error.statusCode === 400) {
    return (
      firmwareRefusal(error, command) ??
      controlError('INVALID_INPUT', `The device refused ${command.action}: ${said(error)}`, details)
    );
  }
  if (error.statusCode === 409 && UNSUPPORTED_DEVICE_PATTERN.test(error.deviceMessage ?? '')) {
    return controlError(
      'UNSUPPORTED_MODEL',
      `This device model does not support ${command.action} (device said: ${said(error)})`,
      details,
    );
  }
  if (error.statusCode === 409 && command.action === 'calibrate') {
    return controlError('DEVICE_BUSY', `The device cannot calibrate now: ${said(error)}`, details);
  }
  if (error.statusCode === 404 && command.action === 'profile') {
    const notFound = profileNotFound(command.value, context.profiles);
    return controlError('NOT_FOUND', `${notFound.message} (device said: ${said(error)})`, details);
  }
  return error;
}

/**
 * Whether a failed GET means the device does not have the resource (404, or 409 such as profiles on a
 * model 310), so that it is not asked for it again until a redeploy. Rate limiting or a refused login is not.
 */
export function refusesResource(error: unknown): boolean {
  return isAnswer(error) && (error.statusCode === 404 || error.statusCode === 409);
}

/**
 * The error an action fails with, without asking, when the device refused a resource it needs before:
 * the same code, and word that it was not asked again.
 */
export function refusedAgain(refusal: unknown): DeviceError {
  if (!(refusal instanceof DeviceError))
    return controlError('HTTP_ERROR', 'The device refused this resource');
  return controlError(
    refusal.code,
    `${refusal.message} (the device refused it before: it is not asked again until a redeploy)`,
    httpDetails(refusal),
  );
}
