import type { SimulatorFault } from './types';
import { isRecord } from './zones';

/** A huge body is generated on the fly, but a typo must not keep a client busy for hours. */
export const MAX_HUGE_BODY_BYTES = 1024 * 1024 * 1024;
export const DEFAULT_HUGE_BODY_BYTES = 20 * 1024 * 1024;

/**
 * Checks a fault that came from outside (the control endpoint, or a caller without types).
 * Throws a TypeError naming the first bad member.
 */
export function parseFault(value: unknown): SimulatorFault | null {
  if (value === null) return null;
  if (!isRecord(value)) throw new TypeError('fault must be an object or null');
  const path = optionalString(value, 'path');
  if (path !== undefined && !path.startsWith('/')) throw new TypeError('fault.path must start with "/"');
  const scope = path === undefined ? {} : { path };
  switch (value.kind) {
    case 'latency': {
      const ms = value.ms;
      if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0) {
        throw new TypeError('fault.ms must be a number >= 0');
      }
      return { kind: 'latency', ms, ...scope };
    }
    case 'status': {
      const status = value.status;
      if (typeof status !== 'number' || !Number.isInteger(status) || status < 100 || status > 599) {
        throw new TypeError('fault.status must be an HTTP status from 100 to 599');
      }
      const body = optionalString(value, 'body');
      const contentType = optionalString(value, 'contentType');
      return {
        kind: 'status',
        status,
        ...(body === undefined ? {} : { body }),
        ...(contentType === undefined ? {} : { contentType }),
        ...scope,
        ...times(value),
      };
    }
    case 'reset':
      return { kind: 'reset', ...scope, ...times(value) };
    case 'malformed-json':
      return { kind: 'malformed-json', ...scope, ...times(value) };
    case 'wrong-shape':
      if (!('body' in value)) throw new TypeError('fault.body is required for wrong-shape');
      return { kind: 'wrong-shape', body: value.body, ...scope, ...times(value) };
    case 'cut-off':
      return { kind: 'cut-off', ...scope, ...times(value) };
    case 'huge-body': {
      const bytes = value.bytes;
      if (
        bytes !== undefined &&
        (typeof bytes !== 'number' || !Number.isInteger(bytes) || bytes < 0 || bytes > MAX_HUGE_BODY_BYTES)
      ) {
        throw new TypeError(`fault.bytes must be an integer from 0 to ${MAX_HUGE_BODY_BYTES}`);
      }
      return { kind: 'huge-body', ...(bytes === undefined ? {} : { bytes }), ...scope, ...times(value) };
    }
    case 'huge-header': {
      const bytes = value.bytes;
      if (
        bytes !== undefined &&
        (typeof bytes !== 'number' || !Number.isInteger(bytes) || bytes < 1 || bytes > 1024 * 1024)
      ) {
        throw new TypeError('fault.bytes must be an integer from 1 to 1048576');
      }
      return { kind: 'huge-header', ...(bytes === undefined ? {} : { bytes }), ...scope, ...times(value) };
    }
    default:
      throw new TypeError(
        'fault.kind must be latency, status, reset, malformed-json, wrong-shape, cut-off, huge-body or huge-header',
      );
  }
}

function optionalString(value: Record<string, unknown>, key: string): string | undefined {
  const member = value[key];
  if (member === undefined) return undefined;
  if (typeof member !== 'string') throw new TypeError(`fault.${key} must be a string`);
  return member;
}

function times(value: Record<string, unknown>): { times?: number } {
  const count = value.times;
  if (count === undefined) return {};
  if (typeof count !== 'number' || !Number.isInteger(count) || count < 1) {
    throw new TypeError('fault.times must be an integer >= 1');
  }
  return { times: count };
}

/** The fault in force, and how many more requests it answers. */
export class FaultSwitch {
  #fault: SimulatorFault | null = null;
  #usesLeft: number | undefined;

  get current(): SimulatorFault | null {
    return this.#fault;
  }

  /** Replaces the current fault (checked); null clears it. */
  set(fault: SimulatorFault | null): void {
    const checked = parseFault(fault);
    this.#fault = checked;
    this.#usesLeft = checked === null || checked.kind === 'latency' ? undefined : checked.times;
  }

  /** The fault for a request to `path`, counting one use of it. */
  take(path: string): SimulatorFault | null {
    const fault = this.#fault;
    if (fault === null || (fault.path !== undefined && fault.path !== path)) return null;
    if (this.#usesLeft !== undefined) {
      this.#usesLeft -= 1;
      if (this.#usesLeft <= 0) {
        this.#fault = null;
        this.#usesLeft = undefined;
      }
    }
    return fault;
  }
}
