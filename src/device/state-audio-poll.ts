/** Reads the audio every interval while someone needs it: the device never announces audio changes. */
export class AudioPoll {
  readonly #intervalMs: number;
  readonly #read: () => void;
  #timer: NodeJS.Timeout | undefined;

  /** An interval of 0 never polls: the audio is read at start, and by the runner after each write. */
  constructor(intervalMs: number, read: () => void) {
    this.#intervalMs = intervalMs;
    this.#read = read;
  }

  /** Polls while `needed`, stops otherwise. */
  need(needed: boolean): void {
    const polls = needed && this.#intervalMs > 0;
    if (polls && this.#timer === undefined) {
      this.#timer = setInterval(this.#read, this.#intervalMs);
    } else if (!polls && this.#timer !== undefined) {
      clearInterval(this.#timer);
      this.#timer = undefined;
    }
  }
}
