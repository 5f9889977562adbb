/**
 * A node's status updates, coalesced: the latest wins and at most one reaches Node-RED per interval. A
 * device that floods events (the muted error and sound location in turn) would otherwise send thousands
 * of updates a second to every open editor, whose queue then holds them all. No Node-RED import.
 */

/** At most four status updates a second per node: as fast as a person reads, far below a flood. */
export const STATUS_INTERVAL_MS = 250;

export interface StatusLike {
  fill?: string;
  shape?: string;
  text?: string;
}

export class CoalescedStatus<S extends StatusLike> {
  readonly #show: (status: S) => void;
  readonly #intervalMs: number;
  #shown: string | undefined;
  #pending: S | undefined;
  #timer: NodeJS.Timeout | undefined;
  #lastShownAt = Number.NEGATIVE_INFINITY;
  #closed = false;

  constructor(show: (status: S) => void, intervalMs = STATUS_INTERVAL_MS) {
    this.#show = show;
    this.#intervalMs = intervalMs;
  }

  /** Shows `status` now, or at the end of the current interval if one was shown in it (then the latest). */
  set(status: S): void {
    if (this.#closed) return;
    this.#pending = status;
    if (this.#timer !== undefined) return;
    const wait = this.#lastShownAt + this.#intervalMs - Date.now();
    if (wait <= 0) {
      this.#flush();
      return;
    }
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#flush();
    }, wait);
  }

  /** Drops what is pending; nothing is shown after this (the node is closing). */
  close(): void {
    this.#closed = true;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#pending = undefined;
  }

  #flush(): void {
    const status = this.#pending;
    this.#pending = undefined;
    if (status === undefined) return;
    // The same status again tells nobody anything and costs an editor update.
    const key = JSON.stringify([status.fill, status.shape, status.text]);
    if (key === this.#shown) return;
    this.#shown = key;
    this.#lastShownAt = Date.now();
    this.#show(status);
  }
}
