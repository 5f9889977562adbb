/**
 * Reading what a device answers: the answer as it came, its body decoded and parsed with the limits every
 * answer must keep (size, nesting), the login answer's token, and a request body as JSON. Pure functions;
 * the transport moves the bytes and the client judges the status.
 */
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { DeviceError } from '../errors';
import { isHeaderValue } from './http-syntax';
import { redact } from './redact';
import type { HttpMethod } from './types';

/** What came back from the device, before it is judged. */
export interface Answer {
  statusCode: number;
  headers: Record<string, string>;
  contentType: string;
  text: string;
}

/** Far above any zone list or settings answer; a proxy or a broken device streaming more is cut short. */
export const MAX_RESPONSE_BYTES = 1024 * 1024;

/** Deeper than any device answer; a message nested far deeper crashes Node-RED when it is cloned. */
export const MAX_JSON_DEPTH = 64;

export function flattenHeaders(
  headers: Record<string, string | string[] | undefined>,
): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}

export function isSuccess(statusCode: number): boolean {
  return statusCode >= 200 && statusCode < 300;
}

/** Whether the JSON text nests objects and arrays deeper than `limit`, strings skipped; one pass, no parse. */
export function nestsDeeperThan(text: string, limit: number): boolean {
  // Runs for every event of every stream. Nesting deeper than `limit` takes more than `limit` opening
  // brackets, and counting them with indexOf is several times faster than the scan below.
  if (!opensMoreThan(text, limit)) return false;
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === 0x5c) index++;
      else if (code === 0x22) inString = false;
    } else if (code === 0x22) inString = true;
    else if (code === 0x7b || code === 0x5b) {
      depth++;
      if (depth > limit) return true;
    } else if (code === 0x7d || code === 0x5d) depth--;
  }
  return false;
}

/** Whether `text` holds more than `limit` of `{` and `[` together, in strings or not. */
function opensMoreThan(text: string, limit: number): boolean {
  const braces = occurrencesUpTo(text, '{', limit + 1);
  return braces > limit || braces + occurrencesUpTo(text, '[', limit + 1 - braces) > limit;
}

/** How often `char` occurs in `text`, counting no further than `most`. */
function occurrencesUpTo(text: string, char: string, most: number): number {
  let count = 0;
  for (let at = text.indexOf(char); at !== -1 && count < most; at = text.indexOf(char, at + 1)) count++;
  return count;
}

const DECODERS: Record<string, (bytes: Buffer, options: { maxOutputLength: number }) => Buffer> = {
  gzip: gunzipSync,
  'x-gzip': gunzipSync,
  deflate: inflateSync,
  br: brotliDecompressSync,
};

/**
 * The body as text. A device or a proxy in front of it may compress an answer nobody asked to be
 * compressed; it is decoded here, and never to more than the size cap, so a small bomb stays small.
 */
export function decodeBody(
  bytes: Buffer,
  contentEncoding: string | undefined,
  method: HttpMethod,
  path: string,
  statusCode: number,
): string {
  const encoding = (contentEncoding ?? '').trim().toLowerCase();
  if (encoding === '' || encoding === 'identity' || bytes.length === 0) return bytes.toString('utf8');
  const decoder = DECODERS[encoding];
  if (decoder === undefined) {
    throw new DeviceError(
      'BAD_RESPONSE',
      `The device's answer to ${method} ${path} is encoded as "${encoding}", which the client cannot read`,
      { statusCode },
    );
  }
  try {
    return decoder(bytes, { maxOutputLength: MAX_RESPONSE_BYTES }).toString('utf8');
  } catch (error) {
    const tooLarge = (error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE';
    throw new DeviceError(
      'BAD_RESPONSE',
      tooLarge
        ? `The device's ${encoding} answer to ${method} ${path} unpacks to more than ${MAX_RESPONSE_BYTES / 1024 / 1024} MiB; stopped`
        : `The device's ${encoding} answer to ${method} ${path} cannot be unpacked: ${(error as Error).message}`,
      { statusCode },
    );
  }
}

/** Stops reading a body; undici reports that as an error that nobody needs to hear. */

export function encodeBody(body: unknown): string | undefined {
  if (body === undefined) return undefined;
  try {
    const text = JSON.stringify(body);
    if (text === undefined) throw new Error('not serialisable');
    return text;
  } catch (error) {
    throw new DeviceError(
      'INVALID_INPUT',
      `Request body cannot be sent as JSON: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

function looksLikeJson(answer: Answer): boolean {
  return /[/+]json\b/i.test(answer.contentType) || /^\s*[{[]/.test(answer.text);
}

/** Parsed JSON when the answer is JSON, the text otherwise, undefined when empty. */
/** The body of a 2xx answer: JSON parsed, or the text. `secrets` stay out of the parse error's quote. */
export function parseBody(
  method: HttpMethod,
  path: string,
  answer: Answer,
  secrets: readonly (string | undefined)[],
): unknown {
  if (answer.text.trim().length === 0) return undefined;
  if (!looksLikeJson(answer)) return answer.text;
  if (nestsDeeperThan(answer.text, MAX_JSON_DEPTH)) {
    throw new DeviceError(
      'BAD_RESPONSE',
      `The device answered ${method} ${path} with JSON nested deeper than ${MAX_JSON_DEPTH} levels; refused, as no device answer is`,
      { statusCode: answer.statusCode },
    );
  }
  try {
    return JSON.parse(answer.text);
  } catch (error) {
    throw new DeviceError(
      'BAD_RESPONSE',
      // JSON.parse quotes part of the text in its message.
      `The device answered ${method} ${path} with JSON that cannot be read: ${redact(error instanceof Error ? error.message : String(error), secrets)}`,
      { statusCode: answer.statusCode },
    );
  }
}

/** The token in a login answer, `{"authParameters": "..."}`; BAD_RESPONSE for anything else. */
export function readAuthParameters(answer: Answer): string {
  let body: unknown;
  try {
    body = JSON.parse(answer.text);
  } catch {
    throw new DeviceError(
      'BAD_RESPONSE',
      'The login answer is not JSON: expected {"authParameters": "..."}',
      {
        statusCode: answer.statusCode,
      },
    );
  }
  const token = typeof body === 'object' && body !== null ? Reflect.get(body, 'authParameters') : undefined;
  if (typeof token !== 'string' || !isHeaderValue(token)) {
    throw new DeviceError(
      'BAD_RESPONSE',
      'The login answer has no usable authParameters (expected a non-empty printable string)',
      { statusCode: answer.statusCode },
    );
  }
  return token;
}

/**
 * Throws BAD_RESPONSE (and frees the body) unless a 2xx answer to a stream request is an event stream
 * that can be read: a compressed one nobody asked for (no Accept-Encoding is sent) would never yield an
 * event, so it is an error rather than a stream that looks open forever.
 */
export function assertEventStream(
  path: string,
  statusCode: number,
  headers: Record<string, string>,
  body: { destroy(): void },
): void {
  const contentType = headers['content-type'] ?? '';
  const encoding = headers['content-encoding'];
  let instead: string | undefined;
  if (!/^text\/event-stream\b/i.test(contentType)) {
    instead = `${contentType || 'no content type'}, not an event stream`;
  } else if (encoding !== undefined && !/^\s*identity\s*$/i.test(encoding)) {
    instead = `an event stream compressed as '${encoding}', which was not asked for and cannot be read`;
  }
  if (instead === undefined) return;
  body.destroy();
  throw new DeviceError('BAD_RESPONSE', `The device answered GET ${path} with ${instead}`, { statusCode });
}
