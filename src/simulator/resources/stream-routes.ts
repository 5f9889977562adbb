import { type Exchange, type Routes, sendError, sendJsonAnswer } from '../exchange';
import type { SlidingWindowRateLimiter } from '../rate-limiter';
import type { RequestLog } from '../request-log';
import { acceptsEventStream, headerValue, RATE_LIMITED_MESSAGE } from '../router';
import type { EventStreams, ServedStreamKind } from '../streams';

/** The three event streams: sound location and metrics, changes, and the heartbeat (no authorization). */
export function streamRoutes(
  streams: EventStreams,
  limiter: SlidingWindowRateLimiter,
  log: RequestLog,
  vendor: string,
): Routes {
  const open = (exchange: Exchange, kind: ServedStreamKind) =>
    openStream(exchange, kind, { streams, limiter, log, vendor });
  return {
    '/api/v1/heartbeat': {
      minimumRole: null,
      methods: {
        // A stream to a client that asks for one; the plain JSON answer kept for simple checks.
        GET: (exchange) =>
          acceptsEventStream(exchange.request)
            ? open(exchange, 'heartbeat')
            : sendJsonAnswer(exchange, 200, { status: 'ok' }),
      },
    },
    '/api/v1/data': { minimumRole: 'general', methods: { GET: (exchange) => open(exchange, 'data') } },
    '/api/v1/events': { minimumRole: 'general', methods: { GET: (exchange) => open(exchange, 'changes') } },
  };
}

/**
 * An event stream, as real devices serve them: only to a client that asks for `text/event-stream` (404
 * otherwise), and at most so many connections a minute per client (429 past that).
 */
function openStream(
  exchange: Exchange,
  kind: ServedStreamKind,
  parts: { streams: EventStreams; limiter: SlidingWindowRateLimiter; log: RequestLog; vendor: string },
): void {
  const { request } = exchange;
  if (!acceptsEventStream(request)) {
    sendError(exchange, 404, ['Not found']);
    return;
  }
  const clientId = headerValue(request, `${parts.vendor}-Client-Id`) ?? '';
  if (!parts.limiter.tryAcquire(`${request.socket.remoteAddress ?? ''}|${clientId}`)) {
    parts.log.counters.rateLimited += 1;
    sendError(exchange, 429, [RATE_LIMITED_MESSAGE]);
    return;
  }
  parts.log.counters.streamConnections += 1;
  exchange.record.status = 200;
  const query = new URL(request.url ?? '/', 'https://device').searchParams.get('events') ?? '';
  const requested = query
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  parts.streams.open(kind, exchange.response, kind === 'data' ? requested : []);
}
