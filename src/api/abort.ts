import { EventEmitter } from 'node:events';

/**
 * Ends one request or one stream connection. undici takes an EventEmitter that emits `abort` as its
 * `signal`; it holds half the heap of an AbortController with a listener, and adding and removing a
 * listener costs a fraction of an AbortSignal's (an EventTarget). A fleet keeps one per stream connection.
 */
export class RequestAbort extends EventEmitter<{ abort: [] }> {
  aborted = false;

  abort(): void {
    if (this.aborted) return;
    this.aborted = true;
    this.emit('abort');
  }
}

/** What a caller may hand in to end a request: its own AbortSignal, or the package's RequestAbort. */
export type CallerSignal = AbortSignal | RequestAbort;

/** Calls `listener` once when `signal` aborts (at once when it has); answers what stops listening. */
export function whenAborted(signal: CallerSignal | undefined, listener: () => void): () => void {
  if (signal === undefined) return () => undefined;
  if (signal.aborted) {
    listener();
    return () => undefined;
  }
  if (signal instanceof AbortSignal) {
    signal.addEventListener('abort', listener, { once: true });
    return () => signal.removeEventListener('abort', listener);
  }
  signal.once('abort', listener);
  return () => signal.off('abort', listener);
}
