/**
 * A token bucket: holds up to `burst` tokens, starts full, and refills at `refillPerMs` tokens a
 * millisecond. Each take spends one. Time comes in with each call, in any unit that only moves forward
 * (the callers use a monotonic clock); no timers.
 */
export class TokenBucket {
  readonly #burst: number;
  /** 0 keeps the bucket always full: then something else paces. */
  readonly #refillPerMs: number;
  #tokens: number;
  #refilledAt: number;

  constructor(burst: number, refillPerMs: number, now: number) {
    this.#burst = burst;
    this.#refillPerMs = refillPerMs;
    this.#tokens = burst;
    this.#refilledAt = now;
  }

  /** Refills up to `now`; 0 when a token is there, otherwise how long until one is. Spends nothing. */
  waitAt(now: number): number {
    this.#refill(now);
    // Rounded up: a timer that fires a hair before the token is whole would only have to wait again.
    return this.#tokens >= 1 ? 0 : Math.ceil((1 - this.#tokens) / this.#refillPerMs);
  }

  /** Spends one token; call it only right after `waitAt` said 0 (that refilled the bucket). */
  take(): void {
    this.#tokens -= 1;
  }

  /** When the bucket was last refilled: the time of the last `waitAt`. */
  get refilledAt(): number {
    return this.#refilledAt;
  }

  #refill(now: number): void {
    if (this.#refillPerMs === 0) {
      this.#tokens = this.#burst;
    } else {
      this.#tokens = Math.min(this.#burst, this.#tokens + (now - this.#refilledAt) * this.#refillPerMs);
    }
    this.#refilledAt = now;
  }
}
