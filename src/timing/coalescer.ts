/**
 * A coalescer: of the values set in a burst the latest wins, and at most one is passed on per interval
 * (the first at once, the rest at the end of the interval). A value whose key equals the last passed on
 * is dropped: it tells nobody anything. Close drops what is pending.
 */
export class Coalescer<T> {
  readonly #pass: (value: T) => void;
  readonly #key: (value: T) => string;
  readonly #intervalMs: number;
  #passed: string | undefined;
  #pending: T | undefined;
  #timer: NodeJS.Timeout | undefined;
  #lastPassedAt = Number.NEGATIVE_INFINITY;
  #closed = false;

  constructor(pass: (value: T) => void, key: (value: T) => string, intervalMs: number) {
    this.#pass = pass;
    this.#key = key;
    this.#intervalMs = intervalMs;
  }

  /** Passes `value` on now, or at the end of the current interval if one was passed in it (then the latest). */
  set(value: T): void {
    if (this.#closed) return;
    this.#pending = value;
    if (this.#timer !== undefined) return;
    const wait = this.#lastPassedAt + this.#intervalMs - Date.now();
    if (wait <= 0) {
      this.#flush();
      return;
    }
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#flush();
    }, wait);
  }

  /** Drops what is pending; nothing is passed on after this. */
  close(): void {
    this.#closed = true;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#pending = undefined;
  }

  #flush(): void {
    const value = this.#pending;
    this.#pending = undefined;
    if (value === undefined) return;
    const key = this.#key(value);
    if (key === this.#passed) return;
    this.#passed = key;
    this.#lastPassedAt = Date.now();
    this.#pass(value);
  }
}
