import type { DeviceError } from '../errors';
import { type Backoff, backoffDelay } from '../timing/backoff';
import type { Answer } from './bodies';
import { deviceMessageFrom, isRateLimited } from './device-message';
import { errorFromStatus } from './errors';
import type { RequestLimiter } from './request-limiter';

/**
 * The pause after the device limited requests: every request of the client waits it out, and it doubles
 * with each rate-limit answer in a row (docs/device-api.md, Rate limits: 429, or 409 "too many requests").
 */
export class RateLimitPause {
  #strikes = 0;
  readonly #backoff: Backoff;
  readonly #limiter: RequestLimiter;

  constructor(backoff: Backoff, limiter: RequestLimiter) {
    this.#backoff = backoff;
    this.#limiter = limiter;
  }

  /**
   * RATE_LIMITED, with the pause it started, for a rate-limit answer; undefined for any other (which
   * ends the run of strikes unless it is a 401, which says nothing about the rate).
   */
  judge(
    method: string,
    path: string,
    answer: Answer,
    account: string,
    redact: (text: string | undefined) => string | undefined,
  ): DeviceError | undefined {
    const { statusCode } = answer;
    // Only these two can be rate limiting: no other answer is worth reading for it.
    const said =
      statusCode === 429 || statusCode === 409
        ? deviceMessageFrom(answer.text, answer.contentType)
        : undefined;
    if (!isRateLimited(statusCode, said)) {
      if (statusCode !== 401) this.#strikes = 0;
      return undefined;
    }
    this.#strikes += 1;
    const pauseMs = backoffDelay(this.#backoff, this.#strikes);
    this.#limiter.pauseFor(pauseMs);
    return errorFromStatus(method, path, statusCode, redact(said), account, { retryAfterMs: pauseMs });
  }
}
