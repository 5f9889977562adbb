import { SingleFlight } from './single-flight';

/**
 * Caches one value for `maxAgeMs` after it was loaded. Concurrent callers
 * while a load runs share that load; a failed load is not cached, so the
 * next caller tries again. `maxAgeMs` 0 caches nothing but still shares
 * concurrent loads.
 */
export class TtlCache<T> {
  private value: { data: T; loadedAt: number } | undefined;
  private readonly flight: SingleFlight<T>;
  private generation = 0;
  /** Loads started (for tests and diagnostics). */
  loads = 0;

  constructor(
    load: () => Promise<T>,
    private readonly maxAgeMs: number,
    private readonly now: () => number = Date.now,
  ) {
    if (!(Number.isFinite(maxAgeMs) && maxAgeMs >= 0)) {
      throw new RangeError(`maxAgeMs must be a number >= 0, got ${String(maxAgeMs)}`);
    }
    this.flight = new SingleFlight(async () => {
      const generation = this.generation;
      this.loads++;
      const data = await load();
      // A value set or invalidated while this load ran is newer than what the load read.
      if (generation === this.generation) this.value = { data, loadedAt: this.now() };
      return data;
    });
  }

  get(): Promise<T> {
    const cached = this.value;
    if (cached && this.now() - cached.loadedAt < this.maxAgeMs) return Promise.resolve(cached.data);
    return this.flight.run();
  }

  /** Takes a value learnt elsewhere (a change event) as freshly loaded. */
  set(data: T): void {
    this.generation++;
    this.value = { data, loadedAt: this.now() };
  }

  invalidate(): void {
    this.generation++;
    this.value = undefined;
  }
}
