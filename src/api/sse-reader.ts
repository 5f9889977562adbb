import { StringDecoder } from 'node:string_decoder';
import { createParser, type EventSourceParser } from 'eventsource-parser';

/** Events end at a blank line; a dropped oversized event is skipped up to it. */
const FIRST_EVENT_END = /\r\n\r\n|\n\n|\r\r/;
/** How much of an event's start is kept to name it when it turns out too large. */
const HEAD_CHARS = 512;

/**
 * The index just past the last event end in `text`, or -1 when it holds none. Three searches from the
 * end rather than a regular expression over the whole text: this runs for every chunk of every stream.
 */
function lastEventEnd(text: string): number {
  // Most chunks end with an event: nothing after the end of the text can be later.
  if (text.endsWith('\n\n') || text.endsWith('\r\r') || text.endsWith('\r\n\r\n')) return text.length;
  const lf = text.lastIndexOf('\n\n');
  const cr = text.lastIndexOf('\r\r');
  const crlf = text.lastIndexOf('\r\n\r\n');
  return Math.max(lf === -1 ? -1 : lf + 2, cr === -1 ? -1 : cr + 2, crlf === -1 ? -1 : crlf + 4);
}

export interface SseReaderOptions {
  /** An event whose text is longer than this many bytes is dropped. */
  maxEventBytes: number;
  onEvent: (name: string, data: string) => void;
  /**
   * An event was dropped for its size, told once its end has come: its name when the `event:` line came
   * before the cap was passed, and its size in bytes (its data's, when it came whole in one piece).
   */
  onOversized: (name: string | undefined, bytes: number) => void;
}

/**
 * Reads Server-Sent Events from the bytes of a stream, keeping each event under a size cap: the text of
 * an event not yet complete is counted, and once it passes the cap the event is dropped and the bytes up
 * to its end are skipped, so a device can never make the reader hold more than the cap.
 */
export class SseReader {
  readonly #options: SseReaderOptions;
  /** Node's decoder: a quarter of TextDecoder's time per chunk; it keeps a BOM, which `feed` drops. */
  readonly #decoder = new StringDecoder('utf8');
  #started = false;
  readonly #parser: EventSourceParser;
  /** Bytes of the event being read (since the last event end). */
  #pendingBytes = 0;
  /** The start of the event being read, to name it. */
  #head = '';
  /** The last characters seen: an event end may straddle two chunks. */
  #tail = '';
  /** The event being skipped: its name and its bytes so far. */
  #skipping: { name: string | undefined; bytes: number } | undefined;

  constructor(options: SseReaderOptions) {
    this.#options = options;
    this.#parser = createParser({
      onEvent: (message) => {
        const name = message.event ?? 'message';
        // A whole event can come within one chunk: the count of pending bytes never saw it.
        if (message.data.length > options.maxEventBytes)
          options.onOversized(name, Buffer.byteLength(message.data));
        else options.onEvent(name, message.data);
      },
    });
  }

  feed(chunk: Uint8Array): void {
    let text = this.#decoder.write(chunk);
    if (!this.#started && text !== '') {
      this.#started = true;
      // A stream may begin with a byte order mark, which is not part of the first line.
      if (text.startsWith('\uFEFF')) text = text.slice(1);
    }
    const skipping = this.#skipping;
    if (skipping !== undefined) {
      const tail = this.#tail;
      const combined = tail + text;
      // The dropped event ends at the first blank line; what follows is the next event.
      const end = FIRST_EVENT_END.exec(combined);
      this.#tail = combined.slice(-3);
      if (end === null) {
        skipping.bytes += Buffer.byteLength(text);
        return;
      }
      skipping.bytes += Buffer.byteLength(text.slice(0, Math.max(0, end.index - tail.length)));
      this.#skipping = undefined;
      text = combined.slice(end.index + end[0].length);
      this.#tail = '';
      this.#options.onOversized(skipping.name, skipping.bytes);
    }
    const seen = this.#tail === '' ? text : this.#tail + text;
    const end = lastEventEnd(seen) - this.#tail.length;
    if (end === text.length) {
      // The usual chunk: whole events and nothing after them. Nothing is pending, so no event end can
      // straddle this chunk and the next: no tail to keep, nothing to count.
      this.#tail = '';
      this.#pendingBytes = 0;
      this.#head = '';
      this.#parser.feed(text);
      return;
    }
    this.#tail = seen.slice(-3);
    if (end > 0) {
      // Whole events up to here: the parser dispatches them, and counting starts afresh after them.
      this.#parser.feed(text.slice(0, end));
      text = text.slice(end);
      this.#pendingBytes = 0;
      this.#head = '';
    }
    this.#pendingBytes += Buffer.byteLength(text);
    if (this.#head.length < HEAD_CHARS) this.#head += text.slice(0, HEAD_CHARS - this.#head.length);
    if (this.#pendingBytes <= this.#options.maxEventBytes) {
      this.#parser.feed(text);
      return;
    }
    const name = /(?:^|[\r\n])event:[ ]?([^\r\n]*)[\r\n]/.exec(this.#head)?.[1];
    this.#parser.reset({ consume: false });
    this.#skipping = { name, bytes: this.#pendingBytes };
    this.#pendingBytes = 0;
    this.#head = '';
  }
}
