// A client-side limiter that follows the server's X-RateLimit-* headers so that a compliant server never has to
// refuse us: it sends one probe until the first headers arrive, then never more than the window allows, and waits
// for X-RateLimit-Reset when the window is used up. How long a call may wait is the caller's choice: `maxWaitMs`,
// an AbortSignal per call, and `onRateLimit`, told of every wait before it starts (like octokit's throttling plugin).

/** What the limiter reads of a response: its headers by name (a fetch Response's Headers, or the runner's own view). */
export interface HeaderReader {
  get(name: string): string | null;
}

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

/** A wait for the window to reset, as reported to `onRateLimit`. */
export interface RateLimitWait {
  /** How long the call is about to wait, in milliseconds. */
  waitMs: number;
  /** When the next request may go (epoch milliseconds, margin included). */
  resumeAt: number;
  /** The window's cap from X-RateLimit-Limit. */
  limit: number | undefined;
}

export interface RateLimiterOptions {
  headers?: RateLimitHeaderNames | undefined;
  /** Extra wait after the announced reset, for clock skew between us and the server. */
  resetMarginMs?: number | undefined;
  /**
   * The furthest ahead a reset is believed (default: no bound): a server announcing a later one (a unit mix-up, a
   * broken clock) is taken to reset after this long, e.g. the window its contract declares.
   */
  maxResetMs?: number | undefined;
  /**
   * The longest one call may wait for a reset; a call that would wait longer fails at once with RateLimitError
   * (default: no bound).
   */
  maxWaitMs?: number | undefined;
  /** Called before every wait for a reset; return `false` to fail the call with RateLimitError instead of waiting. */
  onRateLimit?: ((wait: RateLimitWait) => boolean | void) | undefined;
  now?: (() => number) | undefined;
}

/**
 * A call that was not sent because the rate-limit window is used up and waiting was refused (maxWaitMs, onRateLimit).
 */
export class RateLimitError extends Error {
  override readonly name = "RateLimitError";
  constructor(
    readonly wait: RateLimitWait,
    reason: string,
  ) {
    super(
      `the rate limit of ${wait.limit ?? "?"} requests is used up until ${new Date(wait.resumeAt).toISOString()}: not waiting ${wait.waitMs} ms (${reason})`,
    );
  }
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
  private readonly maxWaitMs: number;
  private readonly maxResetMs: number;
  private readonly onRateLimit: RateLimiterOptions["onRateLimit"];
  private readonly now: () => number;

  constructor(options: RateLimiterOptions = {}) {
    this.headers = options.headers ?? RATE_LIMIT_HEADERS;
    this.marginMs = options.resetMarginMs ?? 250;
    this.maxWaitMs = options.maxWaitMs ?? Number.POSITIVE_INFINITY;
    this.maxResetMs = options.maxResetMs ?? Number.POSITIVE_INFINITY;
    this.onRateLimit = options.onRateLimit;
    this.now = options.now ?? Date.now;
  }

  snapshot(): RateLimitSnapshot {
    return { limit: this.limit, remaining: this.remaining, resetAt: this.resetAt, inFlight: this.inFlight };
  }

  /**
   * Runs `send` when the window allows it, and learns the window from the response headers. Rejects with the
   * signal's reason when `signal` aborts while waiting, and with RateLimitError when a wait is refused.
   */
  async schedule<T extends { headers: HeaderReader }>(send: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    await this.acquire(signal);
    try {
      const response = await send();
      this.observe(response.headers);
      return response;
    } finally {
      this.inFlight -= 1;
      this.wakeAll();
    }
  }

  private async acquire(signal: AbortSignal | undefined): Promise<void> {
    let reportedFor: number | undefined;
    for (;;) {
      signal?.throwIfAborted();
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
      if (this.resetAt === undefined) {
        await this.waitForChange(undefined, signal); // until the probe in flight answers
        continue;
      }
      const resumeAt = this.resetAt + this.marginMs;
      if (reportedFor !== resumeAt) {
        reportedFor = resumeAt;
        const wait: RateLimitWait = { waitMs: Math.max(0, resumeAt - now), resumeAt, limit: this.limit };
        if (wait.waitMs > this.maxWaitMs) throw new RateLimitError(wait, `maxWaitMs is ${this.maxWaitMs}`);
        if (this.onRateLimit?.(wait) === false) throw new RateLimitError(wait, "onRateLimit returned false");
      }
      await this.waitForChange(resumeAt - now, signal);
    }
    this.inFlight += 1;
  }

  private observe(headers: HeaderReader): void {
    const limit = integerHeader(headers, this.headers.limit);
    const remaining = integerHeader(headers, this.headers.remaining);
    const reset = integerHeader(headers, this.headers.reset);
    if (limit === undefined || remaining === undefined || reset === undefined) return;
    const now = this.now();
    const resetAt = Math.min(resetAtOf(reset, now), now + this.maxResetMs);
    const othersInFlight = this.inFlight - 1;
    const serverView = Math.max(0, remaining - othersInFlight);
    const newWindow = this.resetAt === undefined || resetAt > this.resetAt;
    this.limit = limit;
    this.remaining = newWindow || this.remaining === undefined ? serverView : Math.min(this.remaining, serverView);
    this.resetAt = newWindow ? resetAt : this.resetAt;
  }

  /** Resolves when another call finishes or after `ms`; rejects when `signal` aborts. */
  private waitForChange(ms: number | undefined, signal: AbortSignal | undefined): Promise<void> {
    return new Promise((resolve, reject) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const settle = (error?: unknown) => {
        if (timer) clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
        this.waiters = this.waiters.filter((waiter) => waiter !== done);
        if (error === undefined) resolve();
        // Rejects with the signal's own reason, as fetch does.
        // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- the signal's reason, not an Error
        else reject(error);
      };
      const done = () => settle();
      const onAbort = () => settle(signal!.reason ?? new DOMException("This operation was aborted", "AbortError"));
      this.waiters.push(done);
      signal?.addEventListener("abort", onAbort, { once: true });
      // Beyond 2^31-1 ms setTimeout fires after 1 ms (a busy loop): a longer wait is taken in steps, acquire loops.
      if (ms !== undefined) timer = setTimeout(done, Math.min(MAX_TIMER_MS, Math.max(0, ms)));
    });
  }

  private wakeAll(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }
}

const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * When a window resets, from the reset header. The contract says Unix time, and the seeds only "timestamp": a small
 * number is read as seconds from now (a server that sends a delta), a number too large for seconds in this era
 * (from 10^11, the year 5138) as Unix time in milliseconds, anything else as Unix time in seconds.
 */
export function resetAtOf(reset: number, now: number): number {
  if (reset < 1_000_000_000) return now + reset * 1000;
  return reset >= 100_000_000_000 ? reset : reset * 1000;
}

function integerHeader(headers: HeaderReader, name: string): number | undefined {
  const value = headers.get(name);
  if (value === null || !/^\s*\d+\s*$/.test(value)) return undefined;
  return Number(value);
}
