import { RETURN_WAIT_MS } from './state-settings';

/**
 * When the device state reads everything again: a timed resync an interval after the start, the last
 * timed one or the last full read, held back briefly while the change stream has just stopped (its
 * return reads everything). The one place that decides the resync's timing.
 */
export class ResyncSchedule {
  readonly #intervalMs: number;
  /** One full read, a group after another; the schedule never runs two at once. */
  readonly #readInTurn: () => Promise<void>;
  #timer: NodeJS.Timeout | undefined;
  /** When the change stream last stopped streaming; undefined while it streams. */
  #changesDownSince: number | undefined;
  #resyncing = false;

  constructor(intervalMs: number, readInTurn: () => Promise<void>) {
    this.#intervalMs = intervalMs;
    this.#readInTurn = readInTurn;
  }

  /** The next timed resync comes a whole interval from now: at the start, or after a full read. */
  restart(): void {
    this.#schedule(this.#intervalMs);
  }

  stop(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#changesDownSince = undefined;
  }

  /** What the change stream is doing: a resync due just after it stopped waits for its return. */
  changesStreaming(streaming: boolean): void {
    if (streaming) this.#changesDownSince = undefined;
    else this.#changesDownSince ??= Date.now();
  }

  #schedule(delayMs: number): void {
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      // The change stream has just stopped (a silent one is reopened every 5 minutes, at the same moment
      // as every fifth minute's resync): its return reads everything, and a read now would be read again
      // a second later. Should it not come back soon, the resync reads after a short wait.
      const downSince = this.#changesDownSince;
      const waitMs = Math.min(RETURN_WAIT_MS, this.#intervalMs);
      if (downSince !== undefined && Date.now() - downSince < waitMs) {
        this.#schedule(waitMs);
        return;
      }
      this.#schedule(this.#intervalMs);
      void this.#resyncInTurn();
    }, delayMs);
  }

  /**
   * The minute's resync, one group after another: nothing waits for it, and in turn its reads go on the
   * one request connection the device keeps open, not on a burst of new ones (a TLS handshake each, for
   * the device too: three a minute per room of example 9 before). A resync still under way when the next
   * is due lets that one go.
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
