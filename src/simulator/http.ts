import { type IncomingMessage, type ServerResponse, STATUS_CODES } from 'node:http';
import { gzipSync } from 'node:zlib';
import type { AnswerEncoding, ErrorFormat } from './types';

export const MAX_BODY_BYTES = 64 * 1024;

export class BodyTooLargeError extends Error {}

export async function readBody(request: IncomingMessage, limit = MAX_BODY_BYTES): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > limit) throw new BodyTooLargeError('body too large');
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * Answers with a whole body. `chunked` leaves the length out and sends the body in two pieces, as a
 * streaming web server does; `gzip` compresses it too (Content-Encoding: gzip), as a proxy may.
 */
export function sendBody(
  response: ServerResponse,
  status: number,
  body: string,
  contentType?: string,
  encoding: AnswerEncoding = 'plain',
): void {
  const headers: Record<string, string | number> = {};
  if (contentType !== undefined) headers['Content-Type'] = contentType;
  if (encoding === 'plain') {
    headers['Content-Length'] = Buffer.byteLength(body);
    response.writeHead(status, headers);
    response.end(body);
    return;
  }
  const bytes = encoding === 'gzip' ? gzipSync(body) : Buffer.from(body, 'utf8');
  if (encoding === 'gzip') headers['Content-Encoding'] = 'gzip';
  response.writeHead(status, headers);
  const half = Math.ceil(bytes.length / 2);
  response.write(bytes.subarray(0, half));
  response.end(bytes.subarray(half));
}

export function sendJson(
  response: ServerResponse,
  status: number,
  value: unknown,
  encoding: AnswerEncoding = 'plain',
): void {
  sendBody(response, status, JSON.stringify(value), 'application/json; charset=utf-8', encoding);
}

const PROBLEM_CONTENT_TYPE = 'application/problem+json; charset=utf-8';

/** The body and content type of an error answer, in either shape real devices use. */
export function errorBody(
  format: ErrorFormat,
  status: number,
  messages: readonly string[],
  instance: string,
): { body: string; contentType: string } {
  if (format === 'errors') {
    return {
      body: JSON.stringify({ errors: messages.map((message) => ({ message })) }),
      contentType: 'application/json; charset=utf-8',
    };
  }
  const title = STATUS_CODES[status] ?? 'Error';
  return {
    body: JSON.stringify(
      problemDetails({ title, errorCode: String(status), errorLevel: 'Error' }, messages, instance),
    ),
    contentType: PROBLEM_CONTENT_TYPE,
  };
}

/** The problem-details refusal of the device's newer endpoints: schema validation, error code 1000. */
export function problemDetailsBody(
  details: readonly string[],
  instance: string,
): { body: string; contentType: string } {
  const shape = { title: 'One or more problems occurred', errorCode: 1000, errorLevel: 'ERROR' };
  return {
    body: JSON.stringify(problemDetails(shape, details, instance)),
    contentType: PROBLEM_CONTENT_TYPE,
  };
}

function problemDetails(
  shape: { title: string; errorCode: string | number; errorLevel: string },
  details: readonly string[],
  instance: string,
): Record<string, unknown> {
  const type = `urn:conference-audio-simulator:problem:${shape.errorCode}`;
  const { title, errorLevel, errorCode } = shape;
  return {
    type,
    title,
    instance,
    errorLevel,
    problems: details.map((detail) => ({ type, errorCode, title, details: detail, instance, errorLevel })),
  };
}
