import type { IncomingMessage, ServerResponse } from 'node:http';
import { errorBody, problemDetailsBody, sendBody, sendJson } from './http';
import type { AnswerEncoding, ErrorFormat, RecordedRequest, SimulatorAccount, WriteAnswer } from './types';

/** One device request on its way through the simulator, with how this device answers. */
export interface Exchange {
  request: IncomingMessage;
  response: ServerResponse;
  path: string;
  /** Values of `{name}` segments of the route's path. */
  params: Record<string, string>;
  record: RecordedRequest;
  account: SimulatorAccount | null;
  encoding: AnswerEncoding;
  errorFormat: ErrorFormat;
  writeAnswer: WriteAnswer;
}

export type Handler = (exchange: Exchange) => Promise<void> | void;

export interface Route {
  minimumRole: SimulatorAccount | null;
  methods: Partial<Record<string, Handler>>;
}

/** Routes by path; a path may hold `{name}` segments. */
export type Routes = Record<string, Route>;

export function send(exchange: Exchange, status: number, body: string, contentType?: string): void {
  exchange.record.status = status;
  sendBody(exchange.response, status, body, contentType, exchange.encoding);
}

export function sendJsonAnswer(exchange: Exchange, status: number, value: unknown): void {
  exchange.record.status = status;
  sendJson(exchange.response, status, value, exchange.encoding);
}

/** An error in the device's configured error shape (`errors` list by default). */
export function sendError(exchange: Exchange, status: number, messages: readonly string[]): void {
  const { body, contentType } = errorBody(exchange.errorFormat, status, messages, exchange.path);
  send(exchange, status, body, contentType);
}

/** A refusal that newer endpoints always give in the problem-details shape (schema validation, 1000). */
export function sendProblem(exchange: Exchange, status: number, details: readonly string[]): void {
  const { body, contentType } = problemDetailsBody(details, exchange.path);
  send(exchange, status, body, contentType);
}

/** A successful write: `{}`, an empty body or the request echoed, as the device is set to answer. */
export function answerWrite(exchange: Exchange, status: number, requestBody: unknown): void {
  if (exchange.writeAnswer === 'empty-body') send(exchange, status, '');
  else if (exchange.writeAnswer === 'echo') sendJsonAnswer(exchange, status, requestBody ?? {});
  else sendJsonAnswer(exchange, status, {});
}
