/**
 * A single flight with a gap: runs a task on request, and turns a burst of requests into few runs: at most one run in flight and one
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
  /** Who waits for the run in flight, and who for the next one. */
  #servedByRunning: Array<() => void> = [];
  #servedByNext: Array<() => void> = [];

  constructor(task: () => Promise<void>, gapMs: number) {
    this.#task = task;
    this.#gapMs = gapMs;
  }

  /**
   * Asks for a run. The promise resolves once the run that serves this request has ended (whether the
   * task succeeded or not), or at once when no run will serve it (closed, or cancelled before it began);
   * it never rejects, and a caller that only asks may leave it.
   */
  request(): Promise<void> {
    if (this.#closed) return Promise.resolve();
    const served = new Promise<void>((resolve) => this.#servedByNext.push(resolve));
    if (this.#running) {
      this.#queued = true;
      return served;
    }
    if (this.#timer !== undefined) return served;
    const wait = this.#lastEnd + this.#gapMs - Date.now();
    if (wait <= 0) this.#start();
    else this.#timer = setTimeout(() => this.#start(), wait);
    return served;
  }

  /** Forgets a queued run; a run in flight finishes. Later requests are served again. */
  cancel(): void {
    this.#queued = false;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    for (const resolve of this.#servedByNext.splice(0)) resolve();
  }

  /** Cancels, and serves no request from now on. */
  close(): void {
    this.#closed = true;
    this.cancel();
  }

  #start(): void {
    this.#timer = undefined;
    this.#running = true;
    this.#servedByRunning = this.#servedByNext;
    this.#servedByNext = [];
    // The task reports its own failures; a rejection here only ends the run.
    void this.#task()
      .catch(() => undefined)
      .then(() => {
        this.#running = false;
        this.#lastEnd = Date.now();
        for (const resolve of this.#servedByRunning.splice(0)) resolve();
        if (!this.#queued) return;
        this.#queued = false;
        void this.request();
      });
  }
}
