import { DeviceError } from '../errors';
import type { Answer } from './bodies';
import { deviceMessageFrom } from './device-message';
import type { HttpMethod } from './protocol';

/**
 * The vendor word a device names when it does not know ours: real devices use their maker's word where
 * the spec writes `Vendor`, and answer 400 `<Word>-Client-Id is missing`.
 */
const NAMED_VENDOR = /\b([A-Za-z][A-Za-z0-9]*)-Client-Id is missing/;

export interface VendorWordsOptions {
  vendor: string;
  clientId: string;
  clientVersion: string;
  /** The device named another word; it is used from now on. */
  onLearned: (word: string, configured: string) => void;
}

/**
 * The word in the Authorization scheme and the client header names: the configured one until the device
 * names its own, then the device's for the life of the client. A second word means no word will do.
 */
export class VendorWords {
  #word: string;
  #headers: Record<string, string>;
  #learned = false;
  readonly #clientId: string;
  readonly #clientVersion: string;
  readonly #onLearned: (word: string, configured: string) => void;

  constructor(options: VendorWordsOptions) {
    this.#clientId = options.clientId;
    this.#clientVersion = options.clientVersion;
    this.#onLearned = options.onLearned;
    this.#word = options.vendor;
    this.#headers = this.#headersFor(options.vendor);
  }

  get word(): string {
    return this.#word;
  }

  /** The client id and version headers under the word in force. */
  get headers(): Record<string, string> {
    return this.#headers;
  }

  /**
   * `send` once; when the device answers that it misses its own word's client header, learn that word
   * and `send` once more. Throws VENDOR_MISMATCH when the device refuses the word it named too.
   */
  async send(method: HttpMethod, path: string, send: () => Promise<Answer>): Promise<Answer> {
    const answer = await send();
    const named = answer.statusCode === 400 ? this.#namedIn(answer, false) : undefined;
    if (named === undefined) return answer;
    if (this.#learned) throw this.#mismatch(named, method, path);
    const configured = this.#word;
    this.#learned = true;
    this.#word = named;
    this.#headers = this.#headersFor(named);
    this.#onLearned(named, configured);
    const retried = await send();
    // Still a header "missing", even with the word the device named: no word will do.
    const still = retried.statusCode === 400 ? this.#namedIn(retried, true) : undefined;
    if (still !== undefined) throw this.#mismatch(still, method, path);
    return retried;
  }

  #headersFor(word: string): Record<string, string> {
    return { [`${word}-Client-Id`]: this.#clientId, [`${word}-Client-Version`]: this.#clientVersion };
  }

  /** The vendor word a 400 answer names as missing: another than ours, or (`anyWord`) ours too. */
  #namedIn(answer: Answer, anyWord: boolean): string | undefined {
    const said = deviceMessageFrom(answer.text, answer.contentType);
    const word = said === undefined ? undefined : NAMED_VENDOR.exec(said)?.[1];
    if (word === undefined) return undefined;
    return anyWord || word.toLowerCase() !== this.#word.toLowerCase() ? word : undefined;
  }

  #mismatch(word: string, method: HttpMethod, path: string): DeviceError {
    return new DeviceError(
      'VENDOR_MISMATCH',
      `The device wants the vendor word '${word}' for ${method} ${path}, and did not accept '${this.#word}' ` +
        "either: set the vendor word of the config node to the one in the device maker's documentation",
      { statusCode: 400 },
    );
  }
}
