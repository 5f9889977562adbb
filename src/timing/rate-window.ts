import { MAX_WINDOW_LIMIT, SlidingWindow } from './sliding-window';

/** The highest rate a live node takes, in messages a second: above it a window would hold too many times. */
export const MAX_MESSAGE_RATE = MAX_WINDOW_LIMIT;

/**
 * A rate window: "at most `perSecond` messages a second", held in every window, not on average (a
 * sliding window underneath). A rate below one a second becomes one message per 1/rate seconds; a
 * fraction above one keeps its ratio (2.5 a second = 2 per 0.8 s). 0 lets everything pass. No timers: time comes in with each call.
 */
export class RateWindow {
  readonly #window: SlidingWindow | undefined;
  /** Calls that were refused (for status and tests). */
  dropped = 0;

  constructor(perSecond: number) {
    if (!(Number.isFinite(perSecond) && perSecond >= 0 && perSecond <= MAX_MESSAGE_RATE)) {
      throw new RangeError(
        `the rate must be a number from 0 to ${MAX_MESSAGE_RATE}, got ${String(perSecond)}`,
      );
    }
    if (perSecond === 0) return;
    const count = Math.max(1, Math.floor(perSecond));
    this.#window = new SlidingWindow(count, (count * 1000) / perSecond);
  }

  /** Whether a message at `now` (ms) may pass; a pass is remembered. */
  admit(now: number): boolean {
    if (this.#window === undefined || this.#window.take(now) === 0) return true;
    this.dropped++;
    return false;
  }
}
