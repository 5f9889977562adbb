/**
 * The one error type of this package. `code` is stable and documented: flows
 * switch on it (Catch node -> switch on msg.error.code), so codes are never
 * renamed, only added.
 */
export const ERROR_CODES = [
  'AUTH_FAILED',
  'VENDOR_MISMATCH',
  'FORBIDDEN',
  'UNSUPPORTED_MODEL',
  'NOT_FOUND',
  'RATE_LIMITED',
  'UNREACHABLE',
  'TIMEOUT',
  'TLS',
  'BAD_RESPONSE',
  'HTTP_ERROR',
  'INVALID_CONFIG',
  'INVALID_INPUT',
  'CLOSED',
  /** The device's firmware is too old (or, for a field since removed, too new) for a field or an action. */
  'UNSUPPORTED_FIRMWARE',
  /** The device cannot do it now, for a reason it gives (calibrating with a speaker bar unplugged). */
  'DEVICE_BUSY',
] as const;

export type DeviceErrorCode = (typeof ERROR_CODES)[number];

export interface DeviceErrorDetails {
  /** HTTP status of the device's answer, when there was one. */
  statusCode?: number;
  /** The device's own message, read from its error body (never a secret). */
  deviceMessage?: string;
  /** The underlying error (network, TLS, parse); must never hold a secret. */
  cause?: unknown;
  /** How long the client holds back before it asks the device again (login backoff, rate-limit pause). */
  retryAfterMs?: number;
}

export class DeviceError extends Error {
  readonly code: DeviceErrorCode;
  readonly statusCode?: number;
  readonly deviceMessage?: string;
  readonly retryAfterMs?: number;

  constructor(code: DeviceErrorCode, message: string, details: DeviceErrorDetails = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = 'DeviceError';
    this.code = code;
    if (details.statusCode !== undefined) this.statusCode = details.statusCode;
    if (details.deviceMessage !== undefined) this.deviceMessage = details.deviceMessage;
    if (details.retryAfterMs !== undefined) this.retryAfterMs = details.retryAfterMs;
  }

  /** Plain-object form used in messages, admin answers and logs. */
  toJSON(): {
    name: string;
    code: DeviceErrorCode;
    message: string;
    statusCode?: number;
    deviceMessage?: string;
    retryAfterMs?: number;
  } {
    return {
      name: this.name,
      code: this.code,
      message: this.message,
      ...(this.statusCode !== undefined ? { statusCode: this.statusCode } : {}),
      ...(this.deviceMessage !== undefined ? { deviceMessage: this.deviceMessage } : {}),
      ...(this.retryAfterMs !== undefined ? { retryAfterMs: this.retryAfterMs } : {}),
    };
  }
}

export function isDeviceError(value: unknown): value is DeviceError {
  return value instanceof DeviceError;
}
