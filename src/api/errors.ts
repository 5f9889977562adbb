import { DeviceError, type DeviceErrorDetails } from '../errors';
import { deviceSaid, isRateLimited, isRecord, isUnsupportedDevice } from './device-message';
import { redact } from './redact';
import { timeoutText } from './settings-rules';

/** Every call on a closed client, and every wait it cuts short, ends with this. */
export function clientClosedError(): DeviceError {
  return new DeviceError('CLOSED', 'The device client is closed');
}

/** The error for a non-2xx answer other than 401 (which the client handles itself). */
export function errorFromStatus(
  method: string,
  path: string,
  statusCode: number,
  deviceMessage: string | undefined,
  account: string,
  pause: Pick<DeviceErrorDetails, 'retryAfterMs'> = {},
): DeviceError {
  const details = { statusCode, ...(deviceMessage === undefined ? {} : { deviceMessage }) };
  const said = deviceSaid(statusCode, deviceMessage);
  const target = `${method} ${path}`;
  if (isRateLimited(statusCode, deviceMessage)) {
    return new DeviceError(
      'RATE_LIMITED',
      `The device is limiting requests: too many requests ${said}; the client pauses before the next one`,
      { ...details, ...pause },
    );
  }
  if (statusCode === 403) {
    return new DeviceError(
      'FORBIDDEN',
      `Account '${account}' is not allowed to use ${target} ${said}; an admin account may be needed`,
      details,
    );
  }
  if (statusCode === 404) {
    return new DeviceError('NOT_FOUND', `The device has no ${target} ${said}`, details);
  }
  if (statusCode === 409 && isUnsupportedDevice(deviceMessage)) {
    return new DeviceError(
      'UNSUPPORTED_MODEL',
      `This device model does not support ${target} ${said}`,
      details,
    );
  }
  return new DeviceError('HTTP_ERROR', `The device answered ${target} with an error ${said}`, details);
}

const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'ENETDOWN',
  'EPIPE',
  'EADDRNOTAVAIL',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
]);
const TIMEOUT_CODES = new Set([
  'ETIMEDOUT',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);

function errorCodeOf(error: unknown): string | undefined {
  if (!isRecord(error) && !(error instanceof Error)) return undefined;
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? code : undefined;
}

export function isTlsErrorCode(code: string | undefined): boolean {
  return (
    code !== undefined &&
    (/CERT|SSL|TLS|SIGNATURE|ISSUER|ALTNAME|DEPTH_ZERO/i.test(code) ||
      code === 'ERR_TLS_CERT_ALTNAME_INVALID')
  );
}

/**
 * A plain copy of a low-level error (name, code, message) to use as `cause`: the original may hold
 * request options, headers or sockets, and those must not travel with a DeviceError.
 */
export function safeCause(error: unknown, secrets: readonly (string | undefined)[]): Error {
  const message = error instanceof Error ? error.message : String(error);
  const copy = new Error(redact(message, secrets));
  copy.name = error instanceof Error ? error.name : 'Error';
  const code = errorCodeOf(error);
  if (code !== undefined) Object.assign(copy, { code });
  copy.stack = `${copy.name}: ${copy.message}`;
  return copy;
}

/** The innermost error code: undici and Node wrap socket errors one or two levels deep. */
function deepestCode(error: unknown): string | undefined {
  let current: unknown = error;
  let found: string | undefined;
  for (let depth = 0; depth < 4 && current !== undefined && current !== null; depth += 1) {
    const code = errorCodeOf(current);
    if (code !== undefined && (found === undefined || !code.startsWith('UND_ERR'))) found = code;
    current = current instanceof Error ? current.cause : undefined;
  }
  return found;
}

/** The DeviceError for a failure below HTTP (network, TLS, timeouts). */
export function errorFromTransport(
  error: unknown,
  baseUrl: string,
  timeoutMs: number,
  secrets: readonly (string | undefined)[],
): DeviceError {
  if (error instanceof DeviceError) return error;
  const code = deepestCode(error);
  const cause = safeCause(error, secrets);
  const reason = redact(error instanceof Error ? error.message : String(error), secrets);
  if (code !== undefined && TIMEOUT_CODES.has(code)) {
    return new DeviceError(
      'TIMEOUT',
      `The device at ${baseUrl} did not answer within ${timeoutText(timeoutMs)}`,
      {
        cause,
      },
    );
  }
  if (isTlsErrorCode(code)) {
    return new DeviceError(
      'TLS',
      `TLS failed with the device at ${baseUrl}: ${reason} (${code}); check the TLS mode, CA or fingerprint`,
      { cause },
    );
  }
  if (code === 'UND_ERR_HEADERS_OVERFLOW' || code === 'HPE_HEADER_OVERFLOW') {
    // The device was reached; what it answered is not a sane HTTP answer.
    return new DeviceError(
      'BAD_RESPONSE',
      `The device at ${baseUrl} answered with headers too large to read (${code}); a proxy or a wrong address may be answering`,
      { cause },
    );
  }
  if (code === 'UND_ERR_INVALID_ARG' || code === 'ERR_INVALID_ARG_VALUE' || code === 'ERR_INVALID_CHAR') {
    // Refused here, before anything was sent: the request is at fault, not the device.
    return new DeviceError('INVALID_INPUT', `The request cannot be sent: ${reason}`, { cause });
  }
  if (code !== undefined && UNREACHABLE_CODES.has(code)) {
    return new DeviceError('UNREACHABLE', `Cannot reach the device at ${baseUrl}: ${reason} (${code})`, {
      cause,
    });
  }
  return new DeviceError('UNREACHABLE', `Request to the device at ${baseUrl} failed: ${reason}`, { cause });
}
