/**
 * "At most `perSecond` messages a second", held in every window, not on average: the last `count` passes
 * are remembered and the next may pass once the oldest is a window old. A rate below one a second becomes
 * one message per 1/rate seconds; a fraction above one keeps its ratio (2.5 a second = 2 per 0.8 s).
 * 0 lets everything pass. No timers and no Node-RED: time comes in with each call.
 */
export class RateWindow {
  readonly #count: number;
  readonly #windowMs: number;
  readonly #passed: number[] = [];
  /** Calls that were refused (for status and tests). */
  dropped = 0;

  constructor(perSecond: number) {
    if (!(Number.isFinite(perSecond) && perSecond >= 0)) {
      throw new RangeError(`the rate must be a number >= 0, got ${String(perSecond)}`);
    }
    this.#count = perSecond === 0 ? 0 : Math.max(1, Math.floor(perSecond));
    this.#windowMs = perSecond === 0 ? 0 : (this.#count * 1000) / perSecond;
  }

  /** Whether a message at `now` (ms) may pass; a pass is remembered. */
  admit(now: number): boolean {
    if (this.#count === 0) return true;
    if (this.#passed.length === this.#count) {
      const oldest = this.#passed[0] ?? now;
      if (now - oldest < this.#windowMs) {
        this.dropped++;
        return false;
      }
      this.#passed.shift();
    }
    this.#passed.push(now);
    return true;
  }
}
