/**
 * Runs a task on request, and turns a burst of requests into few runs: at most one run in flight and one
 * queued behind it, and at least `gapMs` from the end of one run to the start of the next. Requests made
 * while a run is in flight or queued are served by the queued run, which starts after everything they
 * asked about happened.
 */
export class CoalescedTask {
  readonly #task: () => Promise<void>;
  readonly #gapMs: number;
  #running = false;
  #queued = false;
  #timer: NodeJS.Timeout | undefined;
  #lastEnd = Number.NEGATIVE_INFINITY;
  #closed = false;

  constructor(task: () => Promise<void>, gapMs: number) {
    this.#task = task;
    this.#gapMs = gapMs;
  }

  request(): void {
    if (this.#closed) return;
    if (this.#running) {
      this.#queued = true;
      return;
    }
    if (this.#timer !== undefined) return;
    const wait = this.#lastEnd + this.#gapMs - Date.now();
    if (wait <= 0) this.#start();
    else this.#timer = setTimeout(() => this.#start(), wait);
  }

  /** Forgets a queued run; a run in flight finishes. Later requests are served again. */
  cancel(): void {
    this.#queued = false;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  /** Cancels, and serves no request from now on. */
  close(): void {
    this.#closed = true;
    this.cancel();
  }

  #start(): void {
    this.#timer = undefined;
    this.#running = true;
    // The task reports its own failures; a rejection here only ends the run.
    void this.#task()
      .catch(() => undefined)
      .then(() => {
        this.#running = false;
        this.#lastEnd = Date.now();
        if (!this.#queued) return;
        this.#queued = false;
        this.request();
      });
  }
}
