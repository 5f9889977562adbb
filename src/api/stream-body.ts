import type { IncomingHttpHeaders } from 'node:http';
import { type Dispatcher, errors } from 'undici';
import { type CallerSignal, whenAborted } from './abort';

/** Hears an open stream's body: each chunk as it comes, then its end once. */
export interface StreamBodyListener {
  onChunk(chunk: Buffer): void;
  /** Undefined when the device ended its answer; else what broke it off (an abort, a dropped socket). */
  onEnd(error: Error | undefined): void;
}

/** The answer to a long-lived request once its head has come. */
export interface StreamAnswer {
  statusCode: number;
  headers: IncomingHttpHeaders;
  body: StreamBody;
}

/** Held for a body nobody reads yet before the connection is paused: far more than an error answer needs. */
const MAX_UNREAD_BYTES = 64 * 1024;

/**
 * The body of a long-lived answer, as undici's dispatcher hands over its chunks: one listener, called
 * directly for each chunk. undici's `request` wraps a body in a Readable instead, whose push, `data` event
 * and two `nextTick`s per chunk cost a fleet of event streams a tenth of each event (bench/README.md,
 * many-rooms). What comes before a listener is held, up to a cap past which the connection waits.
 */
export class StreamBody {
  readonly #controller: Dispatcher.DispatchController;
  #listener: StreamBodyListener | undefined;
  #unread: Buffer[] = [];
  #unreadBytes = 0;
  #end: { error: Error | undefined } | undefined;
  #destroyed = false;

  constructor(controller: Dispatcher.DispatchController) {
    this.#controller = controller;
  }

  /** Starts reading: what came before is told first, then every chunk as it comes. Once per body. */
  read(listener: StreamBodyListener): void {
    if (this.#listener !== undefined) throw new Error('A stream body is read once');
    this.#listener = listener;
    const unread = this.#unread;
    this.#unread = [];
    this.#unreadBytes = 0;
    for (const chunk of unread) {
      // A listener that let go while hearing what came before hears no more of it.
      if (this.#destroyed) break;
      listener.onChunk(chunk);
    }
    if (this.#end !== undefined) listener.onEnd(this.#end.error);
    else if (this.#controller.paused) this.#controller.resume();
  }

  /** Ends the connection; a listener hears the end (an abort) at once. */
  destroy(): void {
    this.#destroyed = true;
    if (this.#end === undefined) this.#controller.abort(new errors.RequestAbortedError());
    // An answer undici has finished with takes no abort: it ends here.
    this.finish(new errors.RequestAbortedError());
  }

  /** A chunk from the dispatcher. */
  push(chunk: Buffer): void {
    if (this.#end !== undefined) return;
    const listener = this.#listener;
    if (listener !== undefined) {
      listener.onChunk(chunk);
      return;
    }
    this.#unread.push(chunk);
    this.#unreadBytes += chunk.length;
    if (this.#unreadBytes > MAX_UNREAD_BYTES) this.#controller.pause();
  }

  /** The end from the dispatcher (or from `destroy`): told once. */
  finish(error: Error | undefined): void {
    if (this.#end !== undefined) return;
    this.#end = { error };
    this.#listener?.onEnd(error);
  }
}

/**
 * Sends a long-lived request on `dispatcher` and resolves once the answer's head has come; rejects with
 * undici's error when it does not (no connection, a TLS failure, the headers' timeout, `signal`).
 * `finished` runs once: when the body has ended, or when the request failed before it began.
 */
export function dispatchStream(
  dispatcher: Dispatcher,
  options: Dispatcher.DispatchOptions,
  signal: CallerSignal | undefined,
  finished: () => void,
): Promise<StreamAnswer> {
  return new Promise((resolve, reject) => {
    let controller: Dispatcher.DispatchController | undefined;
    let body: StreamBody | undefined;
    let abortedEarly = false;
    let done = false;
    const abort = (): void => {
      if (controller === undefined) abortedEarly = true;
      else controller.abort(new errors.RequestAbortedError());
    };
    const stopListening = whenAborted(signal, abort);
    const end = (error: Error | undefined): void => {
      if (done) return;
      done = true;
      stopListening();
      if (body === undefined) reject(error ?? new errors.RequestAbortedError());
      else body.finish(error);
      finished();
    };
    const handler: Dispatcher.DispatchHandler = {
      onRequestStart: (started) => {
        controller = started;
        if (abortedEarly) started.abort(new errors.RequestAbortedError());
      },
      onResponseStart: (started, statusCode, headers) => {
        // An informational answer (1xx) comes before the real one.
        if (statusCode < 200 || body !== undefined) return;
        body = new StreamBody(started);
        resolve({ statusCode, headers, body });
      },
      onResponseData: (_controller, chunk) => body?.push(chunk),
      onResponseEnd: () => end(undefined),
      onResponseError: (_controller, error) => end(error),
    };
    if (abortedEarly) {
      end(new errors.RequestAbortedError());
      return;
    }
    dispatcher.dispatch(options, handler);
  });
}
