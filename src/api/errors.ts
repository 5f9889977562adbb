import { DeviceError, type DeviceErrorDetails } from '../errors';
import { timeoutText } from './settings-rules';

const MAX_DEVICE_MESSAGE_LENGTH = 200;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function nonEmptyText(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const text = value.replace(/\s+/g, ' ').trim();
  return text.length > 0 ? text : undefined;
}

function shorten(text: string): string {
  return text.length <= MAX_DEVICE_MESSAGE_LENGTH ? text : `${text.slice(0, MAX_DEVICE_MESSAGE_LENGTH - 1)}…`;
}

function decodeHtmlEntities(text: string): string {
  const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (entity, name: string) => {
    if (name.startsWith('#x') || name.startsWith('#X'))
      return String.fromCodePoint(Number.parseInt(name.slice(2), 16));
    if (name.startsWith('#')) return String.fromCodePoint(Number.parseInt(name.slice(1), 10));
    return named[name.toLowerCase()] ?? entity;
  });
}

/** `{errors:[{message}]}`: the shape most endpoints use. */
function messageFromErrorsArray(body: Record<string, unknown>): string | undefined {
  if (!Array.isArray(body.errors)) return undefined;
  const messages = body.errors
    .map((entry) => (isRecord(entry) ? nonEmptyText(entry.message) : nonEmptyText(entry)))
    .filter((message): message is string => message !== undefined);
  return messages.length > 0 ? messages.join('; ') : undefined;
}

/** Problem details: `{title, problems:[{title, details}]}`; the problems say more than the title. */
function messageFromProblemDetails(body: Record<string, unknown>): string | undefined {
  const problems = Array.isArray(body.problems)
    ? body.problems
        .filter(isRecord)
        .map((problem) => {
          const title = nonEmptyText(problem.title);
          const details = nonEmptyText(problem.details) ?? nonEmptyText(problem.detail);
          if (title && details && title !== details) return `${title}: ${details}`;
          return title ?? details;
        })
        .filter((text): text is string => text !== undefined)
    : [];
  const title = nonEmptyText(body.title);
  if (problems.length === 0) return title ?? nonEmptyText(body.detail);
  const joined = problems.join('; ');
  return title && !joined.startsWith(title) ? `${title}: ${joined}` : joined;
}

function messageFromObject(body: Record<string, unknown>): string | undefined {
  return (
    messageFromErrorsArray(body) ??
    messageFromProblemDetails(body) ??
    nonEmptyText(body.message) ??
    nonEmptyText(body.error)
  );
}

function messageFromText(text: string, contentType: string): string | undefined {
  const trimmed = text.trim();
  if (trimmed.length === 0) return undefined;
  if (/html/i.test(contentType) || /^<(?:!doctype|html|head|body)/i.test(trimmed)) {
    const title = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(trimmed)?.[1];
    const readable = title === undefined ? undefined : nonEmptyText(decodeHtmlEntities(title));
    return readable === undefined ? undefined : shorten(readable);
  }
  if (/json/i.test(contentType) || /^[{[]/.test(trimmed)) {
    try {
      return deviceMessageFrom(JSON.parse(trimmed));
    } catch {
      // Not JSON after all: read it as text.
    }
  }
  const plain = nonEmptyText(trimmed);
  return plain === undefined ? undefined : shorten(plain);
}

/**
 * The device's own explanation inside an error answer, whatever shape the firmware used:
 * `{errors:[{message}]}`, problem details, plain text, the <title> of an HTML page. Undefined when there is none.
 */
export function deviceMessageFrom(body: unknown, contentType = ''): string | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string') return messageFromText(body, contentType);
  if (Buffer.isBuffer(body)) return messageFromText(body.toString('utf8'), contentType);
  if (Array.isArray(body)) {
    const messages = body
      .map((entry) => deviceMessageFrom(entry))
      .filter((message): message is string => message !== undefined);
    return messages.length > 0 ? shorten(messages.join('; ')) : undefined;
  }
  if (isRecord(body)) {
    const message = messageFromObject(body);
    return message === undefined ? undefined : shorten(message);
  }
  return undefined;
}

/** "(device said: ...)" or "(HTTP 404)" to finish a message. */
export function deviceSaid(statusCode: number, deviceMessage: string | undefined): string {
  return deviceMessage === undefined
    ? `(HTTP ${statusCode})`
    : `(HTTP ${statusCode}; device said: ${deviceMessage})`;
}

export function isTooManyRequests(deviceMessage: string | undefined): boolean {
  return deviceMessage !== undefined && /too many|rate.?limit/i.test(deviceMessage);
}

export function isUnsupportedDevice(deviceMessage: string | undefined): boolean {
  return deviceMessage !== undefined && /unsupported|not supported/i.test(deviceMessage);
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
  if (statusCode === 429 || (statusCode === 409 && isTooManyRequests(deviceMessage))) {
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

/** Replaces each secret in a text; secrets shorter than 4 characters are too common to hunt for. */
/**
 * A secret with characters written as JSON \uXXXX escapes, as a device's error body quoting the request
 * may write it: only those past ASCII (quotes and backslashes JSON-escaped), or every character, with
 * hex digits in either case. Code units, as JSON escapes a character beyond U+FFFF as a surrogate pair.
 */
function unicodeEscaped(secret: string, every: boolean, upper: boolean): string {
  let escaped = '';
  for (let index = 0; index < secret.length; index++) {
    const unit = secret.charCodeAt(index);
    if (!every && unit >= 0x20 && unit < 0x7f) {
      escaped += unit === 0x22 ? '\\"' : unit === 0x5c ? '\\\\' : secret.charAt(index);
      continue;
    }
    const hex = unit.toString(16).padStart(4, '0');
    escaped += `\\u${upper ? hex.toUpperCase() : hex}`;
  }
  return escaped;
}

/** The ways a secret can stand in a text a device sends back, longest first. */
function spellings(secret: string): string[] {
  const forms = new Set([
    secret,
    JSON.stringify(secret).slice(1, -1),
    unicodeEscaped(secret, false, false),
    unicodeEscaped(secret, false, true),
    unicodeEscaped(secret, true, false),
    unicodeEscaped(secret, true, true),
  ]);
  return [...forms].sort((a, b) => b.length - a.length);
}

export function redact(text: string, secrets: readonly (string | undefined)[]): string {
  let result = text;
  for (const secret of secrets) {
    if (secret === undefined || secret.length < 4) continue;
    for (const form of spellings(secret)) result = result.split(form).join('[redacted]');
  }
  return result;
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
