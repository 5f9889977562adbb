/**
 * Runs a task at a fixed rate without ever overlapping two runs: a tick that
 * arrives while the previous run is still busy is skipped, so a slow device
 * sees at most one outstanding read from a poller, never a growing queue.
 * No Node-RED import: the zones node uses it, tests drive it directly.
 */
export interface PollerOptions {
  /** Milliseconds between ticks; must be > 0. */
  intervalMs: number;
  /** The work of one tick; it handles its own failures (a rejection is ignored, never left unhandled). */
  task: () => Promise<void>;
}

export class Poller {
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  private stopped = false;
  private readonly options: PollerOptions;
  /** Ticks that found the previous run still busy. */
  skippedTicks = 0;
  /** Runs started (by a tick or by `runNow`). */
  runs = 0;

  constructor(options: PollerOptions) {
    if (!(Number.isFinite(options.intervalMs) && options.intervalMs > 0)) {
      throw new RangeError(`intervalMs must be a positive number, got ${String(options.intervalMs)}`);
    }
    this.options = options;
  }

  start(): void {
    if (this.timer !== undefined || this.stopped) return;
    this.timer = setInterval(() => {
      if (this.running) {
        this.skippedTicks++;
        return;
      }
      void this.runNow();
    }, this.options.intervalMs);
  }

  /** Runs the task now unless a run is busy; resolves when this run (or the busy one) has finished. */
  async runNow(): Promise<void> {
    if (this.running || this.stopped) return;
    this.running = true;
    this.runs++;
    try {
      await this.options.task();
    } catch {
      // The task reports its own failures.
    } finally {
      this.running = false;
    }
  }

  stop(): void {
    this.stopped = true;
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
  }
}
