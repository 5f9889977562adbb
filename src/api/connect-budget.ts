import { SlidingWindow } from '../timing/sliding-window';

const MINUTE_MS = 60_000;

/**
 * New event-stream connections per device (its base URL: host and port) in any minute, for the life of
 * the process: a redeploy makes new clients, and the device counts their connections together (it allows
 * about 60 a minute and answers 429 past them). The latest client's limit is the one in force.
 */
const budgets = new Map<string, SlidingWindow>();

/** A function that says 0 (and counts the connection) when one may open now, else how long to wait. */
export function streamConnectBudget(baseUrl: string, perMinute: number): () => number {
  let window = budgets.get(baseUrl);
  if (window === undefined) {
    window = new SlidingWindow(perMinute, MINUTE_MS);
    budgets.set(baseUrl, window);
  } else {
    window.limit = perMinute;
  }
  const shared = window;
  return () => Math.ceil(shared.take(performance.now()));
}
