/** Waiting helpers shared by every test folder: poll for a condition, pause, find a free port. */
import { createServer } from 'node:net';

/**
 * Waits until `condition` holds, polling every few milliseconds; fails after `limitMs` naming what it
 * waited for. A generous bound, never a measurement: the tests count things instead of timing them.
 */
export async function until(
  condition: () => boolean,
  what: string | (() => string),
  limitMs = 5000,
): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (!condition()) {
    if (Date.now() > deadline) {
      throw new Error(`timed out waiting for ${typeof what === 'string' ? what : what()}`);
    }
    await delay(5);
  }
}

/** Polls `probe` until it returns a value other than undefined (errors count as "not yet"). */
export async function probeUntil<T>(
  what: string,
  probe: () => T | undefined | Promise<T | undefined>,
  timeoutMs = 20000,
  intervalMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > deadline) {
      const reason = lastError instanceof Error ? ` (last error: ${lastError.message})` : '';
      throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}${reason}`);
    }
    await delay(intervalMs);
  }
}

export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** A TCP port on 127.0.0.1 that was free a moment ago (for processes that need a fixed port). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  const address = server.address();
  await new Promise<void>((closed) => server.close(() => closed()));
  if (address === null || typeof address === 'string') throw new Error('no TCP port from the OS');
  return address.port;
}
