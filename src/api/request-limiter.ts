import { performance } from 'node:perf_hooks';
import { DeviceError } from '../errors';
import { SlidingWindow } from '../timing/sliding-window';
import { TokenBucket } from '../timing/token-bucket';
import { type CallerSignal, whenAborted } from './abort';
import { clientClosedError } from './errors';
import { MAX_TIMER_MS } from './settings-rules';

interface Waiter {
  resolve: () => void;
  reject: (error: DeviceError) => void;
  /** Stops hearing the caller's signal. */
  stopListening?: () => void;
}

/**
 * Keeps the requests sent to one device under a ceiling per sliding window, and holds every request
 * back while the device has asked for a pause (rate limited). Callers past the ceiling wait in order;
 * nobody is rejected except on close or their own abort.
 *
 * Pacing is a token bucket: a short burst (a tenth of the ceiling, at least one) may go at once, then
 * requests are spaced evenly at the rate that refills the rest of the ceiling over one window. Any window
 * therefore holds at most burst + (ceiling - burst) = ceiling requests, and sustained demand above the
 * ceiling is answered at a steady pace instead of a full window's worth at once followed by a stall until
 * the first of them leaves the window. The sliding window checks the same ceiling directly, so rounding
 * in the refill can never let one more through. Time is monotonic: setting the system clock back
 * neither holds requests nor ends a pause early.
 */
export class RequestLimiter {
  readonly #window: SlidingWindow;
  readonly #bucket: TokenBucket;
  readonly #waiters: Waiter[] = [];
  #pausedUntil = 0;
  #timer: NodeJS.Timeout | undefined;
  #closed = false;

  constructor(maxPerWindow: number, windowMs = 60_000) {
    this.#window = new SlidingWindow(maxPerWindow, windowMs);
    const burst = Math.min(maxPerWindow, Math.max(1, Math.ceil(maxPerWindow / 10)));
    // 0 when the burst is the whole ceiling (a ceiling of one): then the window alone paces.
    this.#bucket = new TokenBucket(burst, (maxPerWindow - burst) / windowMs, performance.now());
  }

  /**
   * True, counting the request as sent, when one more may go to the device now; false, counting nothing,
   * when it would have to wait (or the limiter is closed). Spares the caller a promise on the usual path.
   */
  tryAcquire(): boolean {
    if (this.#closed || this.#waiters.length > 0 || this.#delayBeforeNext() > 0) return false;
    this.#take();
    return true;
  }

  /** Resolves when one more request may go to the device; counts it as sent. */
  acquire(signal?: CallerSignal): Promise<void> {
    if (this.#closed) return Promise.reject(clientClosedError());
    if (signal?.aborted) return Promise.reject(abortedError());
    if (this.tryAcquire()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const waiter: Waiter = { resolve, reject };
      this.#waiters.push(waiter);
      if (signal !== undefined) {
        waiter.stopListening = whenAborted(signal, () => {
          const index = this.#waiters.indexOf(waiter);
          if (index >= 0) this.#waiters.splice(index, 1);
          reject(abortedError());
          this.#schedule();
        });
      }
      this.#schedule();
    });
  }

  /** No request leaves for the next `ms` milliseconds (the device asked us to slow down). */
  pauseFor(ms: number): void {
    this.#pausedUntil = Math.max(this.#pausedUntil, performance.now() + ms);
    this.#schedule();
  }

  /** How many callers are waiting for a slot. */
  get waiting(): number {
    return this.#waiters.length;
  }

  close(): void {
    this.#closed = true;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    for (const waiter of this.#waiters.splice(0)) {
      waiter.stopListening?.();
      waiter.reject(clientClosedError());
    }
  }

  /** Call only right after #delayBeforeNext() returned 0: that refilled the bucket. */
  #take(): void {
    this.#bucket.take();
    this.#window.count(this.#bucket.refilledAt);
  }

  #delayBeforeNext(): number {
    const now = performance.now();
    const tokenDelay = this.#bucket.waitAt(now);
    const pauseDelay = Math.max(0, this.#pausedUntil - now);
    return Math.max(pauseDelay, this.#window.waitAt(now), tokenDelay);
  }

  #schedule(): void {
    if (this.#closed) return;
    if (this.#timer !== undefined) {
      clearTimeout(this.#timer);
      this.#timer = undefined;
    }
    while (this.#waiters.length > 0) {
      const delay = this.#delayBeforeNext();
      if (delay > 0) {
        // Clamped: a long device-asked pause must not overflow the timer (it would fire at once).
        this.#timer = setTimeout(
          () => {
            this.#timer = undefined;
            this.#schedule();
          },
          Math.min(delay, MAX_TIMER_MS),
        );
        return;
      }
      const waiter = this.#waiters.shift();
      if (waiter === undefined) return;
      waiter.stopListening?.();
      this.#take();
      waiter.resolve();
    }
  }
}

function abortedError(): DeviceError {
  return new DeviceError('CLOSED', 'The request was aborted by its caller before it was sent');
}
