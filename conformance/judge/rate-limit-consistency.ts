// rate_limit_headers_consistent: the X-RateLimit-* headers of consecutive responses, judged together (the cap the
// contract states, a count that goes down within a window, a reset ahead but not beyond one window).
import { resetAtOf } from "../../lib/rate-limit.js";
import { headerOf } from "../apis.js";
import type { Exchange } from "../model/exchange.js";
import { type AssumptionJudge, assumptionBroken } from "./assumptions.js";

/**
 * Follows the X-RateLimit-* headers across consecutive responses (the runner sends one request at a time). Servers
 * count per key, so each credential (including none and a wrong one) is followed on its own.
 */
export class RateLimitConsistency {
  private readonly previous = new Map<string, { remaining: number; reset: number }>();
  constructor(
    private readonly config: {
      limit: number;
      windowSeconds: number;
      headers: { limit: string; remaining: string; reset: string };
    },
    /** The contract's x-assumption on the reset's unit (Unix seconds), if it carries one. */
    private readonly unitAssumption?: string,
  ) {}

  /**
   * The failure for this exchange, "" when consistent, `undefined` when it carries no rate-limit headers. A reset in
   * another unit than the assumed one breaks that assumption: a warning told to `judge.note`, a failure under --strict.
   */
  observe(exchange: Exchange, judge: AssumptionJudge = {}): string | undefined {
    const response = exchange.response;
    if (!response) return undefined;
    const read = (name: string) => {
      const value = response.headers[name.toLowerCase()];
      return value !== undefined && /^\s*-?\d+\s*$/.test(value) ? Number(value) : undefined;
    };
    const limit = read(this.config.headers.limit);
    const remaining = read(this.config.headers.remaining);
    const reset = read(this.config.headers.reset);
    if (limit === undefined || remaining === undefined || reset === undefined) return undefined;
    const problems: string[] = [];
    if (limit !== this.config.limit)
      problems.push(`${this.config.headers.limit} is ${limit}, the contract's cap is ${this.config.limit}`);
    if (remaining > limit || remaining < 0)
      problems.push(`${this.config.headers.remaining} ${remaining} is outside 0..${limit}`);
    // The unit is our assumption (the seeds say "timestamp"): a reset in seconds from now or in Unix milliseconds
    // breaks it (a warning), and the window is judged in the server's own unit.
    const resetAt = resetAtOf(reset, exchange.receivedAt);
    if (resetAt !== reset * 1000 && this.unitAssumption !== undefined) {
      const unit = resetAt > reset * 1000 ? "seconds from now" : "Unix milliseconds";
      const broken = assumptionBroken(
        judge,
        `${this.config.headers.reset} ${reset} reads as ${unit}, not Unix seconds`,
        this.unitAssumption,
      );
      if (broken) problems.push(broken);
    }
    // The server wrote its headers after the request was sent and before the answer arrived: a reset is in the past
    // only if it had passed when the request went out. An answer slowed on its way (a busy client, a slow network)
    // may arrive after the reset it announced, and that is no inconsistency of the server's.
    const sentSeconds = (exchange.receivedAt - exchange.durationMs) / 1000;
    const nowSeconds = exchange.receivedAt / 1000;
    if (resetAt / 1000 + 1 < sentSeconds)
      problems.push(
        `${this.config.headers.reset} ${reset} is in the past (the request was sent at ${Math.floor(sentSeconds)})`,
      );
    else if (resetAt / 1000 > nowSeconds + this.config.windowSeconds + 5)
      problems.push(
        `${this.config.headers.reset} ${reset} is more than one window (${this.config.windowSeconds}s) ahead`,
      );
    // Servers count per key; recorded traffic (--har, contracts proxy) spells header names in any case.
    const request = exchange.request;
    const key = headerOf(request, "authorization") ?? headerOf(request, "x-seller-api-key") ?? "(no credentials)";
    const previous = this.previous.get(key);
    if (previous && previous.reset === reset && remaining >= previous.remaining) {
      problems.push(
        `${this.config.headers.remaining} did not count down within one window (${previous.remaining} then ${remaining}, same reset ${reset}, same credentials)`,
      );
    }
    this.previous.set(key, { remaining, reset });
    return problems.join("; ");
  }
}
