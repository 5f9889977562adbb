/** Sliding one-minute window per client key. Refused requests do not fill the window. */
export class SlidingWindowRateLimiter {
  private readonly windows = new Map<string, number[]>();

  constructor(
    public perMinute: number,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Counts the request and says whether it is within the limit. */
  tryAcquire(clientKey: string): boolean {
    const now = this.now();
    const windowStart = now - 60_000;
    const stamps = (this.windows.get(clientKey) ?? []).filter((stamp) => stamp > windowStart);
    if (stamps.length >= this.perMinute) {
      this.windows.set(clientKey, stamps);
      return false;
    }
    stamps.push(now);
    this.windows.set(clientKey, stamps);
    return true;
  }

  clear(): void {
    this.windows.clear();
  }
}
