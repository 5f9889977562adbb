/**
 * Most events a window can count: a limit above it would let a user-given rate keep unbounded
 * timestamps (a rate of 1e308 once kept every one: 100 MB more in half a minute of flood).
 */
export const MAX_WINDOW_LIMIT = 10_000;

/**
 * A sliding window: "at most `limit` in any `windowMs`", held in every window, not on average: the times of the last
 * `limit` events are kept (never more), and the next may come once the oldest is a window old. Time
 * comes in with each call, in any unit that only moves forward (the callers use a monotonic clock).
 */
export class SlidingWindow {
  #limit: number;
  readonly #windowMs: number;
  readonly #times: number[] = [];

  constructor(limit: number, windowMs: number) {
    this.#limit = checkedLimit(limit);
    this.#windowMs = windowMs;
  }

  get limit(): number {
    return this.#limit;
  }

  /** A new limit from now on; events already counted stay counted. */
  set limit(limit: number) {
    this.#limit = checkedLimit(limit);
    while (this.#times.length > this.#limit) this.#times.shift();
  }

  /** 0 when one more event may happen at `now`; otherwise how long until it may. Counts nothing. */
  waitAt(now: number): number {
    if (this.#times.length < this.#limit) return 0;
    return Math.max(0, (this.#times[0] ?? now) + this.#windowMs - now);
  }

  /** Counts an event at `now`; call it only when `waitAt(now)` said 0. */
  count(now: number): void {
    if (this.#times.length >= this.#limit) this.#times.shift();
    this.#times.push(now);
  }

  /** Takes back one event counted at `at`, if the window still holds it. */
  uncount(at: number): void {
    const index = this.#times.lastIndexOf(at);
    if (index !== -1) this.#times.splice(index, 1);
  }

  /** 0, counting the event, when it may happen at `now`; otherwise how long until it may. */
  take(now: number): number {
    const wait = this.waitAt(now);
    if (wait === 0) this.count(now);
    return wait;
  }
}

function checkedLimit(limit: number): number {
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_WINDOW_LIMIT) {
    throw new RangeError(
      `a window's limit must be a whole number from 1 to ${MAX_WINDOW_LIMIT}, got ${limit}`,
    );
  }
  return limit;
}
