/** One of each kind a second: as the events node uses it for a device that repeats an error event. */
export const REPEAT_INTERVAL_MS = 1000;

/** Kinds remembered before old ones are forgotten: the names come from the device. */
const PRUNE_AT = 100;

/**
 * A repeat gate: "at most once per interval per kind". A device that repeats an error event (the muted
 * microphone's `error (soundLocation)` comes again and again) gives a flow one message of each kind a
 * second, not a flood. Time comes in with each call; no timers.
 */
export class RepeatGate {
  readonly #intervalMs: number;
  readonly #passedAt = new Map<string, number>();

  constructor(intervalMs = REPEAT_INTERVAL_MS) {
    this.#intervalMs = intervalMs;
  }

  /** Whether an event of `kind` at `now` (ms) may pass; a pass is remembered. */
  admit(kind: string, now: number): boolean {
    const last = this.#passedAt.get(kind);
    if (last !== undefined && now - last < this.#intervalMs && now >= last) return false;
    if (this.#passedAt.size >= PRUNE_AT) this.#prune(now);
    this.#passedAt.set(kind, now);
    return true;
  }

  #prune(now: number): void {
    for (const [kind, at] of this.#passedAt) {
      if (now - at >= this.#intervalMs || now < at) this.#passedAt.delete(kind);
    }
  }
}
