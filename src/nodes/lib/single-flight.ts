/**
 * Shares one in-flight promise between concurrent callers: while a call is
 * running, further calls get the same promise instead of starting another.
 */
export class SingleFlight<T> {
  private inFlight: Promise<T> | undefined;

  constructor(private readonly load: () => Promise<T>) {}

  run(): Promise<T> {
    if (this.inFlight) return this.inFlight;
    const started = (async () => {
      try {
        return await this.load();
      } finally {
        this.inFlight = undefined;
      }
    })();
    this.inFlight = started;
    return started;
  }
}
