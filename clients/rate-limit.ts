// A client-side limiter that follows the server's X-RateLimit-* headers so that a compliant server never has to
// refuse us: it sends one probe until the first headers arrive, then never more than the window allows, and waits
// for X-RateLimit-Reset when the window is used up.

export interface RateLimitHeaderNames {
  limit: string;
  remaining: string;
  reset: string;
}

export const RATE_LIMIT_HEADERS: RateLimitHeaderNames = {
  limit: "X-RateLimit-Limit",
  remaining: "X-RateLimit-Remaining",
  reset: "X-RateLimit-Reset",
};

export interface RateLimiterOptions {
  headers?: RateLimitHeaderNames;
  /** Extra wait after the announced reset, for clock skew between us and the server. */
  resetMarginMs?: number;
  now?: () => number;
}

export interface RateLimitSnapshot {
  limit: number | undefined;
  remaining: number | undefined;
  resetAt: number | undefined;
  inFlight: number;
}

export class RateLimiter {
  private limit: number | undefined;
  private remaining: number | undefined;
  private resetAt: number | undefined;
  private inFlight = 0;
  private waiters: Array<() => void> = [];
  private readonly headers: RateLimitHeaderNames;
  private readonly marginMs: number;
  private readonly now: () => number;

  constructor(options: RateLimiterOptions = {}) {
    this.headers = options.headers ?? RATE_LIMIT_HEADERS;
    this.marginMs = options.resetMarginMs ?? 250;
    this.now = options.now ?? Date.now;
  }

  snapshot(): RateLimitSnapshot {
    return { limit: this.limit, remaining: this.remaining, resetAt: this.resetAt, inFlight: this.inFlight };
  }

  /** Runs `send` when the window allows it, and learns the window from the response headers. */
  async schedule(send: () => Promise<Response>): Promise<Response> {
    await this.acquire();
    try {
      const response = await send();
      this.observe(response.headers);
      return response;
    } finally {
      this.inFlight -= 1;
      this.wakeAll();
    }
  }

  private async acquire(): Promise<void> {
    for (;;) {
      const now = this.now();
      if (this.resetAt !== undefined && now >= this.resetAt + this.marginMs) {
        // The window has passed: a fresh one allows `limit` requests, but we only learn its end from a response.
        this.remaining = this.limit === undefined ? undefined : Math.max(0, this.limit - this.inFlight);
        this.resetAt = undefined;
      }
      if (this.remaining === undefined) {
        if (this.inFlight === 0) break; // probe: one request at a time until the headers tell us the window
      } else if (this.remaining > 0) {
        this.remaining -= 1;
        break;
      }
      const waitMs = this.resetAt === undefined ? undefined : this.resetAt + this.marginMs - now;
      await this.waitForChange(waitMs);
    }
    this.inFlight += 1;
  }

  private observe(headers: Headers): void {
    const limit = integerHeader(headers, this.headers.limit);
    const remaining = integerHeader(headers, this.headers.remaining);
    const reset = integerHeader(headers, this.headers.reset);
    if (limit === undefined || remaining === undefined || reset === undefined) return;
    // The contract says Unix time; a small number is read as seconds from now, so a server that sends a delta is safe too.
    const resetAt = reset < 1_000_000_000 ? this.now() + reset * 1000 : reset * 1000;
    const othersInFlight = this.inFlight - 1;
    const serverView = Math.max(0, remaining - othersInFlight);
    const newWindow = this.resetAt === undefined || resetAt > this.resetAt;
    this.limit = limit;
    this.remaining = newWindow || this.remaining === undefined ? serverView : Math.min(this.remaining, serverView);
    this.resetAt = newWindow ? resetAt : this.resetAt;
  }

  private waitForChange(ms: number | undefined): Promise<void> {
    return new Promise((resolve) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const done = () => {
        if (timer) clearTimeout(timer);
        resolve();
      };
      this.waiters.push(done);
      if (ms !== undefined) timer = setTimeout(done, Math.max(0, ms));
    });
  }

  private wakeAll(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }
}

function integerHeader(headers: Headers, name: string): number | undefined {
  const value = headers.get(name);
  if (value === null || !/^\s*\d+\s*$/.test(value)) return undefined;
  return Number(value);
}
