import { RESYNC_INTERVAL_MS, RETURN_WAIT_MS, STEADY_RESYNC_INTERVAL_MS } from './state-settings';
import type { StreamCondition } from './stream-hub';

/** How often the timed resync reads: at its interval, or stretched while the change stream is steady. */
export interface ResyncTiming {
  /** Between two timed resyncs while the change stream is down or has just failed. */
  intervalMs?: number | undefined;
  /** Between two full reads while the change stream has streamed without a break; never below the interval. */
  steadyIntervalMs?: number | undefined;
}

/**
 * When the device state reads everything again: a timed resync an interval after the last full read (the
 * start, the last timed one, or the read at the change stream's return), held back briefly while the change
 * stream has just stopped (its return reads everything). While the change stream streams without a break,
 * it already says what a resync would read, so the resync waits the steady interval from the last full
 * read instead; an interval in which the stream failed, or had not come back, keeps the interval's rhythm.
 * A first open is no failure, and neither is a silent change stream reopened for its silence: the full
 * read at its return counts. The one place that decides the resync's timing.
 */
export class ResyncSchedule {
  readonly #intervalMs: number;
  readonly #steadyIntervalMs: number;
  /** One full read, a group after another; the schedule never runs two at once. */
  readonly #readInTurn: () => Promise<void>;
  #timer: NodeJS.Timeout | undefined;
  /** When the change stream last stopped streaming; undefined while it streams. */
  #changesDownSince: number | undefined;
  #changesStreaming = false;
  /** The change stream failed, or was not streaming, since the last timed resync fell due: not steady. */
  #changesBroke = false;
  #lastReadAt = 0;
  #resyncing = false;

  constructor(timing: ResyncTiming, readInTurn: () => Promise<void>) {
    this.#intervalMs = timing.intervalMs ?? RESYNC_INTERVAL_MS;
    this.#steadyIntervalMs = Math.max(this.#intervalMs, timing.steadyIntervalMs ?? STEADY_RESYNC_INTERVAL_MS);
    this.#readInTurn = readInTurn;
  }

  /** Everything was just read: the next timed resync comes a whole interval from now. */
  restart(): void {
    this.#lastReadAt = Date.now();
    this.#schedule(this.#intervalMs);
  }

  stop(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#changesDownSince = undefined;
    this.#changesStreaming = false;
    this.#changesBroke = false;
  }

  /** What the change stream is doing, as its condition says: a resync due just after it stopped waits for its return. */
  changesCondition(condition: StreamCondition): void {
    const streaming = condition.state === 'streaming';
    // Idle for its whole idle time, a streaming stream is reopened with a TIMEOUT: no failure of the device.
    const silenceReopen =
      condition.state === 'reconnecting' && condition.code === 'TIMEOUT' && this.#changesStreaming;
    if ((condition.state === 'reconnecting' || condition.state === 'auth_failed') && !silenceReopen)
      this.#changesBroke = true;
    this.#changesStreaming = streaming;
    if (streaming) this.#changesDownSince = undefined;
    else this.#changesDownSince ??= Date.now();
  }

  #schedule(delayMs: number): void {
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      // The change stream has just stopped: its return reads everything, and a read now would be read
      // again a second later. Should it not come back soon, the resync reads after a short wait.
      const downSince = this.#changesDownSince;
      const waitMs = Math.min(RETURN_WAIT_MS, this.#intervalMs);
      if (downSince !== undefined && Date.now() - downSince < waitMs) {
        this.#schedule(waitMs);
        return;
      }
      // Timers run on the monotonic clock and Date.now() on the wall clock, each rounded to its own
      // millisecond: at the steady interval, the wall clock may say a little less. Half an interval absorbs it.
      const steady =
        this.#changesStreaming &&
        !this.#changesBroke &&
        Date.now() - this.#lastReadAt < this.#steadyIntervalMs - this.#intervalMs / 2;
      // The next interval starts now: whatever the stream does in it decides the next resync.
      this.#changesBroke = !this.#changesStreaming;
      this.#schedule(this.#intervalMs);
      if (steady) return;
      this.#lastReadAt = Date.now();
      void this.#resyncInTurn();
    }, delayMs);
  }

  /**
   * The timed resync, one group after another: nothing waits for it, and in turn its reads go on the
   * one request connection the device keeps open, not on a burst of new ones (a TLS handshake each, for
   * the device too). A resync still under way when the next is due lets that one go.
   */
  async #resyncInTurn(): Promise<void> {
    if (this.#resyncing) return;
    this.#resyncing = true;
    try {
      await this.#readInTurn();
    } finally {
      this.#resyncing = false;
    }
  }
}
