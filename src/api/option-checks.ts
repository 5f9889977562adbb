/** A library user's numeric options, checked: a number option and a backoff. */
import { DeviceError } from '../errors';
import type { Backoff } from '../timing/backoff';

function invalidConfig(message: string): DeviceError {
  return new DeviceError('INVALID_CONFIG', message);
}

/** A positive number option, or its fallback when absent; INVALID_CONFIG naming the option otherwise. */
export function positive(
  name: string,
  value: unknown,
  fallback: number,
  options: { integer?: boolean; max?: number } = {},
) {
  if (value === undefined) return fallback;
  if (
    typeof value !== 'number' ||
    !Number.isFinite(value) ||
    value <= 0 ||
    (options.integer === true && !Number.isInteger(value)) ||
    (options.max !== undefined && value > options.max)
  ) {
    const limit = options.max === undefined ? '' : ` of at most ${options.max}`;
    throw invalidConfig(
      `${name} must be a positive ${options.integer === true ? 'whole ' : ''}number${limit}; got ${String(value)}`,
    );
  }
  return value;
}

export function backoff(name: string, value: unknown, fallback: Backoff): Backoff {
  if (value === undefined) return { ...fallback };
  if (typeof value !== 'object' || value === null)
    throw invalidConfig(`${name} must be an object {initialMs, maxMs}`);
  const initialMs = positive(`${name}.initialMs`, Reflect.get(value, 'initialMs'), fallback.initialMs);
  const maxMs = positive(`${name}.maxMs`, Reflect.get(value, 'maxMs'), Math.max(fallback.maxMs, initialMs));
  if (maxMs < initialMs) throw invalidConfig(`${name}.maxMs must not be smaller than ${name}.initialMs`);
  return { initialMs, maxMs };
}
