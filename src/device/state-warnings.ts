/**
 * Says each thing the device state had to drop once, however often the device sends it: a device that
 * makes up a new name with every event must not fill the log (or memory) either.
 */

/** How many different things are said before the rest go unsaid. */
export const MAX_SAID = 100;

export class OnceSaid {
  readonly #said = new Set<string>();
  #full = false;

  /** Says `message` through `say` unless something with this `key` was said before. */
  say(key: string, message: string, say: (message: string) => void): void {
    if (this.#said.has(key) || this.#full) return;
    if (this.#said.size >= MAX_SAID) {
      this.#full = true;
      say(`${message} (the last such warning: ${MAX_SAID} were logged, the rest are not)`);
      return;
    }
    this.#said.add(key);
    say(message);
  }
}
