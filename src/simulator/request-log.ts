import type { RecordedRequest, SimulatorCounters, SimulatorStats } from './types';

/** Keeps a long demo run from growing without bound; tests stay far below it. */
const MAX_RECORDED_REQUESTS = 10_000;

/** What the simulator saw: every device request, the counters, and the raw HTTP requests and connections. */
export class RequestLog {
  readonly requests: RecordedRequest[] = [];
  readonly counters: SimulatorCounters = {
    logins: 0,
    failedLogins: 0,
    rateLimited: 0,
    streamConnections: 0,
    requestsByPath: {},
  };
  #httpRequests = 0;
  #connections = 0;

  /** Any HTTP request, the simulator's own controls included. */
  countHttpRequest(): void {
    this.#httpRequests += 1;
  }

  countConnection(): void {
    this.#connections += 1;
  }

  /** A device request, recorded and counted by path. */
  record(record: RecordedRequest): void {
    this.requests.push(record);
    if (this.requests.length > MAX_RECORDED_REQUESTS) this.requests.shift();
    // The client chose the path: `constructor` or `__proto__` is counted as its own key, not found on Object.
    const counts = this.counters.requestsByPath;
    const before = Object.hasOwn(counts, record.path) ? (counts[record.path] ?? 0) : 0;
    Object.defineProperty(counts, record.path, {
      value: before + 1,
      writable: true,
      enumerable: true,
      configurable: true,
    });
  }

  /** A copy: later requests do not change it. `resetRecords` does not reset the raw counts. */
  stats(): SimulatorStats {
    return {
      ...this.counters,
      requestsByPath: { ...this.counters.requestsByPath },
      httpRequests: this.#httpRequests,
      connections: this.#connections,
    };
  }

  reset(): void {
    this.requests.length = 0;
    this.counters.logins = 0;
    this.counters.failedLogins = 0;
    this.counters.rateLimited = 0;
    this.counters.streamConnections = 0;
    for (const path of Object.keys(this.counters.requestsByPath)) delete this.counters.requestsByPath[path];
  }
}
