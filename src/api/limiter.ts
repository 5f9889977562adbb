import { DeviceError } from '../errors';

interface Waiter {
  resolve: () => void;
  reject: (error: DeviceError) => void;
  signal?: AbortSignal;
  onAbort?: () => void;
}

/**
 * Keeps the requests sent to one device under a ceiling per sliding window, and holds every request
 * back while the device has asked for a pause (rate limited). Callers past the ceiling wait in order;
 * nobody is rejected except on close or their own abort.
 */
export class RequestLimiter {
  readonly #maxPerWindow: number;
  readonly #windowMs: number;
  readonly #sentAt: number[] = [];
  readonly #waiters: Waiter[] = [];
  #pausedUntil = 0;
  #timer: NodeJS.Timeout | undefined;
  #closed = false;

  constructor(maxPerWindow: number, windowMs = 60_000) {
    this.#maxPerWindow = maxPerWindow;
    this.#windowMs = windowMs;
  }

  /**
   * True, counting the request as sent, when one more may go to the device now; false, counting nothing,
   * when it would have to wait (or the limiter is closed). Spares the caller a promise on the usual path.
   */
  tryAcquire(): boolean {
    if (this.#closed || this.#waiters.length > 0 || this.#delayBeforeNext() > 0) return false;
    this.#sentAt.push(Date.now());
    return true;
  }

  /** Resolves when one more request may go to the device; counts it as sent. */
  acquire(signal?: AbortSignal): Promise<void> {
    if (this.#closed) return Promise.reject(closedError());
    if (signal?.aborted) return Promise.reject(abortedError());
    if (this.tryAcquire()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const waiter: Waiter = { resolve, reject };
      if (signal !== undefined) {
        waiter.signal = signal;
        waiter.onAbort = () => {
          const index = this.#waiters.indexOf(waiter);
          if (index >= 0) this.#waiters.splice(index, 1);
          reject(abortedError());
          this.#schedule();
        };
        signal.addEventListener('abort', waiter.onAbort, { once: true });
      }
      this.#waiters.push(waiter);
      this.#schedule();
    });
  }

  /** No request leaves before this time (the device asked us to slow down). */
  pauseUntil(time: number): void {
    this.#pausedUntil = Math.max(this.#pausedUntil, time);
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
      if (waiter.signal !== undefined && waiter.onAbort !== undefined) {
        waiter.signal.removeEventListener('abort', waiter.onAbort);
      }
      waiter.reject(closedError());
    }
  }

  #delayBeforeNext(): number {
    const now = Date.now();
    while (this.#sentAt.length > 0 && (this.#sentAt[0] ?? 0) <= now - this.#windowMs) this.#sentAt.shift();
    const pauseDelay = Math.max(0, this.#pausedUntil - now);
    const windowDelay =
      this.#sentAt.length < this.#maxPerWindow ? 0 : (this.#sentAt[0] ?? now) + this.#windowMs - now;
    return Math.max(pauseDelay, windowDelay);
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
        this.#timer = setTimeout(() => {
          this.#timer = undefined;
          this.#schedule();
        }, delay);
        return;
      }
      const waiter = this.#waiters.shift();
      if (waiter === undefined) return;
      if (waiter.signal !== undefined && waiter.onAbort !== undefined) {
        waiter.signal.removeEventListener('abort', waiter.onAbort);
      }
      this.#sentAt.push(Date.now());
      waiter.resolve();
    }
  }
}

function closedError(): DeviceError {
  return new DeviceError('CLOSED', 'The device client is closed');
}

function abortedError(): DeviceError {
  return new DeviceError('CLOSED', 'The request was aborted by its caller before it was sent');
}
