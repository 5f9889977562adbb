/**
 * Reading a device request's body as the device does: a body over the cap is answered 413, JSON is checked
 * for its content type and its syntax, and each refusal is answered here.
 */

import { type Exchange, sendError } from './exchange';
import { BodyTooLargeError, readBody } from './http';

/** The request body as text, or undefined after answering 413 itself. */
export async function readText(exchange: Exchange): Promise<string | undefined> {
  try {
    return await readBody(exchange.request);
  } catch (error) {
    if (error instanceof BodyTooLargeError) {
      // The rest of the body is never read: close the connection, as web servers do, or it stalls the next request.
      exchange.response.setHeader('Connection', 'close');
      sendError(exchange, 413, ['Request body too large']);
      return undefined;
    }
    throw error;
  }
}

export const NOT_JSON = Symbol('not JSON');

/** Parses JSON text; an empty text is undefined, bad JSON is NOT_JSON. */
export function parseJson(text: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return NOT_JSON;
  }
}

/** Parses a JSON request body, or answers the error itself (415, 413, 400) and returns undefined. */
export async function readJsonBody(exchange: Exchange): Promise<unknown> {
  const contentType = exchange.request.headers['content-type'] ?? '';
  if (!/^application\/json\s*(;|$)/i.test(contentType)) {
    sendError(exchange, 415, ['Content-Type must be application/json']);
    return undefined;
  }
  const text = await readText(exchange);
  if (text === undefined) return undefined;
  const parsed = parseJson(text);
  if (parsed === NOT_JSON || parsed === undefined) {
    sendError(exchange, 400, ['Request body is not valid JSON']);
    return undefined;
  }
  return parsed;
}
