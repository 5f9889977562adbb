/** A backoff: a delay that doubles with each failure in a row, from `initialMs` up to `maxMs`. */
export interface Backoff {
  initialMs: number;
  maxMs: number;
}

/** The delay before the next try after `failures` failures in a row (1 = the first failure). */
export function backoffDelay(backoff: Backoff, failures: number): number {
  return Math.min(backoff.initialMs * 2 ** Math.max(0, failures - 1), backoff.maxMs);
}

/** Between half and all of `ms`: spreads the retries of many clients after one device restart. */
export function withJitter(ms: number): number {
  return Math.round(ms * (0.5 + Math.random() * 0.5));
}
