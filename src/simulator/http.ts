import { type IncomingMessage, type ServerResponse, STATUS_CODES } from 'node:http';
import type { ErrorFormat } from './types';

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

export function sendBody(response: ServerResponse, status: number, body: string, contentType?: string): void {
  const headers: Record<string, string | number> = { 'Content-Length': Buffer.byteLength(body) };
  if (contentType !== undefined) headers['Content-Type'] = contentType;
  response.writeHead(status, headers);
  response.end(body);
}

export function sendJson(response: ServerResponse, status: number, value: unknown): void {
  sendBody(response, status, JSON.stringify(value), 'application/json; charset=utf-8');
}

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
  const type = `urn:conference-audio-simulator:problem:${status}`;
  return {
    body: JSON.stringify({
      type,
      title,
      instance,
      errorLevel: 'Error',
      problems: messages.map((message) => ({
        type,
        errorCode: String(status),
        title,
        details: message,
        instance,
        errorLevel: 'Error',
      })),
    }),
    contentType: 'application/problem+json; charset=utf-8',
  };
}
