/**
 * Reads and resets the counters of hosted simulators through their `/_simulator/` controls, which are
 * neither counted nor rate limited, so reading them does not change what is measured.
 */
import { Agent, request } from 'undici';
import type { RecordedRequest, SimulatorCounters, SimulatorState } from '../../src/simulator/types';

/** The simulators' certificates are self-signed; the bench only talks to its own child processes. */
let agent: Agent | undefined;

async function control(url: string, method: 'GET' | 'POST', controlPath: string): Promise<unknown> {
  agent ??= new Agent({ connect: { rejectUnauthorized: false } });
  const response = await request(`${url}${controlPath}`, { method, dispatcher: agent });
  const text = await response.body.text();
  if (response.statusCode !== 200) {
    throw new Error(`${method} ${controlPath} answered ${response.statusCode}: ${text}`);
  }
  return JSON.parse(text);
}

/** Runs `task` for every item, at most `limit` at a time, keeping the order of the results. */
export async function mapLimited<T, R>(
  items: readonly T[],
  limit: number,
  task: (item: T) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      results[index] = await task(items[index] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

export async function readState(url: string): Promise<SimulatorState> {
  return (await control(url, 'GET', '/_simulator/state')) as SimulatorState;
}

export async function readCounters(urls: readonly string[]): Promise<SimulatorCounters[]> {
  return mapLimited(urls, 20, async (url) => (await readState(url)).counters);
}

/** Counters and the request record (up to the simulator's last 10,000 requests) back to empty. */
export async function resetCounters(urls: readonly string[]): Promise<void> {
  await mapLimited(urls, 20, (url) => control(url, 'POST', '/_simulator/reset-records'));
}

export async function readRequests(url: string): Promise<RecordedRequest[]> {
  return (await control(url, 'GET', '/_simulator/requests')) as RecordedRequest[];
}

export function totalRequests(counters: SimulatorCounters): number {
  return Object.values(counters.requestsByPath).reduce((sum, count) => sum + count, 0);
}

/** The most of `times` (epoch ms, any order) within any `spanMs` (sliding). */
export function mostWithin(times: readonly number[], spanMs: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  let most = 0;
  let start = 0;
  for (let end = 0; end < sorted.length; end++) {
    while ((sorted[end] as number) - (sorted[start] as number) >= spanMs) start++;
    most = Math.max(most, end - start + 1);
  }
  return most;
}

/** The most requests that arrived within any one minute (sliding), from the arrival times. */
export function peakPerMinute(requests: readonly RecordedRequest[]): number {
  return mostWithin(
    requests.map((recorded) => recorded.time),
    60_000,
  );
}

/** Closes the connections to the simulators; a later call opens new ones (benchmarks run in turn). */
export async function closeCounterAgent(): Promise<void> {
  const closing = agent;
  agent = undefined;
  await closing?.close();
}
