import { type Exchange, send, sendError, sendJsonAnswer } from './exchange';
import { DEFAULT_HUGE_BODY_BYTES } from './faults';
import type { SimulatorFault } from './types';

const TRUNCATED_JSON = '{"zones":[{"types":["Switching"],"geometry":{"point1":{"x":-25';
const HUGE_BODY_CHUNK = Buffer.alloc(64 * 1024, 'x');

/** Answers a request with a fault instead of the device's answer. `closing` says the simulator is shutting down. */
export function answerWithFault(
  exchange: Exchange,
  fault: Exclude<SimulatorFault, { kind: 'latency' }>,
  zones: unknown,
  closing: () => boolean,
): void {
  switch (fault.kind) {
    case 'reset':
      exchange.request.socket.destroy();
      return;
    case 'malformed-json':
      send(exchange, 200, TRUNCATED_JSON, 'application/json; charset=utf-8');
      return;
    case 'wrong-shape':
      sendJsonAnswer(exchange, 200, fault.body);
      return;
    case 'cut-off':
      sendCutOff(exchange, zones);
      return;
    case 'huge-body':
      streamHugeBody(exchange, fault.bytes ?? DEFAULT_HUGE_BODY_BYTES, closing);
      return;
    case 'huge-header':
      exchange.response.setHeader('x-padding', 'x'.repeat(fault.bytes ?? 200 * 1024));
      sendJsonAnswer(exchange, 200, {});
      return;
    case 'status': {
      if (fault.body === undefined) {
        sendError(exchange, fault.status, [`Simulated ${fault.status} answer`]);
        return;
      }
      send(exchange, fault.status, fault.body, fault.contentType ?? guessContentType(fault.body));
      return;
    }
  }
}

/** The zones answer, announced in full; the connection ends once half of it has been sent. */
function sendCutOff(exchange: Exchange, zones: unknown): void {
  const body = Buffer.from(JSON.stringify({ zones }), 'utf8');
  exchange.record.status = 200;
  exchange.response.writeHead(200, {
    'Content-Length': body.length,
    'Content-Type': 'application/json; charset=utf-8',
  });
  // end(), not destroy(): the half already written must reach the client before the connection goes.
  exchange.response.write(body.subarray(0, Math.floor(body.length / 2)), () => {
    exchange.request.socket.end();
  });
}

/** Chunked, so only a client that counts what it reads notices the size; stops when the client goes. */
function streamHugeBody(exchange: Exchange, bytes: number, closing: () => boolean): void {
  const { response } = exchange;
  const head = '{"zones":[],"padding":"';
  const tail = '"}';
  let left = Math.max(0, bytes - head.length - tail.length);
  exchange.record.status = 200;
  response.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8' });
  response.write(head);
  const pump = (): void => {
    while (left > 0) {
      if (response.destroyed || closing()) return;
      const piece = left >= HUGE_BODY_CHUNK.length ? HUGE_BODY_CHUNK : HUGE_BODY_CHUNK.subarray(0, left);
      left -= piece.length;
      if (!response.write(piece)) {
        response.once('drain', pump);
        return;
      }
    }
    response.end(tail);
  };
  pump();
}

function guessContentType(body: string): string {
  try {
    JSON.parse(body);
    return 'application/json; charset=utf-8';
  } catch {
    return 'text/plain; charset=utf-8';
  }
}
