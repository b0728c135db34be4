// Paces requests from what the server says about its bucket. Real instances send
// X-Rate-Limit-Remaining (and X-Request-Cost) on every answer; as the remaining quota falls, fewer
// requests run at once and they are spaced out, so a bulk job slows down instead of being throttled.

export interface LimiterOptions {
  /** Most requests in flight while the quota is healthy. */
  maxConcurrency: number;
  /** Longest pause between requests when the quota is nearly spent. */
  maxSpacingMs?: number;
  now?: () => number;
}

export class RateLimiter {
  private readonly max: number;
  private readonly maxSpacingMs: number;
  private readonly now: () => number;
  private inFlight = 0;
  private remaining: number | undefined;
  /** The largest remaining quota seen: our estimate of the bucket's size. */
  private capacity = 0;
  private notBefore = 0;
  private readonly waiting: (() => void)[] = [];
  private timer: NodeJS.Timeout | undefined;
  /** Counts for summaries and benchmarks. */
  readonly stats = { requests: 0, throttled: 0, retries: 0 };

  constructor(options: LimiterOptions) {
    this.max = Math.max(1, options.maxConcurrency);
    this.maxSpacingMs = options.maxSpacingMs ?? 2000;
    this.now = options.now ?? Date.now;
  }

  /** How many may run at once now. */
  concurrency(): number {
    const ratio = this.ratio();
    if (ratio === undefined || ratio > 0.5) return this.max;
    if (ratio > 0.25) return Math.max(1, Math.ceil(this.max / 2));
    return 1;
  }

  async acquire(): Promise<void> {
    for (;;) {
      // One reading of the clock decides both whether to wait and for how long: read twice, the
      // pause could end between the two, leaving a waiter with no timer to wake it.
      const pause = this.notBefore - this.now();
      if (this.inFlight < this.concurrency() && pause <= 0) break;
      await new Promise<void>((resolve) => {
        this.waiting.push(resolve);
        if (pause > 0) this.wakeAfter(pause);
      });
    }
    this.inFlight++;
    this.stats.requests++;
  }

  /** Call once per acquire, with the answer's headers when there was one. */
  release(headers?: Record<string, string>): void {
    this.inFlight = Math.max(0, this.inFlight - 1);
    const remaining = headers?.['x-rate-limit-remaining'];
    if (remaining !== undefined && remaining !== '' && Number.isFinite(Number(remaining))) {
      this.remaining = Number(remaining);
      this.capacity = Math.max(this.capacity, this.remaining);
      const ratio = this.ratio();
      if (ratio !== undefined && ratio < 0.25) {
        // The emptier the bucket, the longer the pause before the next request.
        this.notBefore = Math.max(this.notBefore, this.now() + Math.round(((0.25 - ratio) / 0.25) * this.maxSpacingMs));
      }
    }
    this.wake();
  }

  /** The server said "throttled": hold everyone back for a while. */
  backOff(ms: number): void {
    this.stats.throttled++;
    this.notBefore = Math.max(this.notBefore, this.now() + ms);
    if (this.capacity > 0) this.remaining = 0;
  }

  private ratio(): number | undefined {
    if (this.remaining === undefined || this.capacity <= 0) return undefined;
    return this.remaining / this.capacity;
  }

  private wake(): void {
    const ready = this.waiting.splice(0, this.waiting.length);
    for (const resolve of ready) resolve();
  }

  private wakeAfter(delay: number): void {
    if (this.timer) return;
    // Not unref'd: while every request waits on this timer it is all that keeps the process alive.
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.wake();
    }, delay);
  }
}
