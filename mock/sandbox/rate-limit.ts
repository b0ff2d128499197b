// A fixed-window request counter per key (the links API allows 30 requests per minute per API key).

export interface RateLimitPolicy {
  limit: number;
  windowSeconds: number;
}

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Unix time in seconds at which the window resets. */
  reset: number;
}

export class FixedWindowCounter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(
    private readonly policy: RateLimitPolicy,
    private readonly now: () => number = Date.now,
  ) {}

  hit(key: string): RateLimitDecision {
    const now = this.now();
    const windowMs = this.policy.windowSeconds * 1000;
    let window = this.windows.get(key);
    if (!window || now >= window.start + windowMs) {
      window = { start: now, count: 0 };
      this.windows.set(key, window);
      if (this.windows.size > 10_000) this.forgetExpired(now);
    }
    const allowed = window.count < this.policy.limit;
    if (allowed) window.count += 1;
    return {
      allowed,
      limit: this.policy.limit,
      remaining: this.policy.limit - window.count,
      reset: Math.ceil((window.start + windowMs) / 1000),
    };
  }

  private forgetExpired(now: number): void {
    const windowMs = this.policy.windowSeconds * 1000;
    for (const [key, window] of this.windows) if (now >= window.start + windowMs) this.windows.delete(key);
  }
}
