// The run's budget: --max-requests and --max-duration, or the default for an API whose contract declares a rate limit
// (x-rate-limit): as many requests as the cap allows in two minutes read-only, three with writes (links, 30 a minute:
// 60 and 90), shared among the shards of a --shard run. An API without a rate limit has no default budget: it keeps
// the full depth.
import type { BudgetView } from "./planner.js";

export interface BudgetSettings {
  /** undefined: no cap on requests. */
  maxRequests?: number;
  maxDurationMs?: number;
  /** The budget is the default one of a rate-limited contract (the report says so). */
  isDefault: boolean;
}

/** Minutes of the provider's cap a run spends by default: a CI job of two or three minutes. */
export const DEFAULT_MINUTES = { readOnly: 2, withWrites: 3 } as const;

/** The budget of a run from its options and the contract's declared rate limit. */
export function resolveBudget(
  options: { maxRequests?: number; maxDurationMs?: number; allowWrites: boolean; shard?: { count: number } },
  declared: { limit: number; windowSeconds: number } | undefined,
): BudgetSettings {
  const given = options.maxRequests !== undefined || options.maxDurationMs !== undefined;
  if (given || !declared)
    return {
      ...(options.maxRequests !== undefined && Number.isFinite(options.maxRequests)
        ? { maxRequests: options.maxRequests }
        : {}),
      ...(options.maxDurationMs !== undefined ? { maxDurationMs: options.maxDurationMs } : {}),
      isDefault: false,
    };
  const minutes = options.allowWrites ? DEFAULT_MINUTES.withWrites : DEFAULT_MINUTES.readOnly;
  // Shards run at once against the same cap: each gets its part of the whole run's default budget.
  const whole = Math.floor((declared.limit * minutes * 60) / declared.windowSeconds);
  return { maxRequests: Math.floor(whole / (options.shard?.count ?? 1)), isDefault: true };
}

/** The budget as the planner sees it while the run goes: requests sent, creations still to delete, time spent. */
export function budgetView(
  settings: BudgetSettings,
  run: {
    requestsSent(): number;
    /** Requests kept for the cleanup: one delete per resource the run created and has not deleted. */
    reserved(): number;
    /** Milliseconds one request is expected to take (the rate limit's interval, or the mean so far). */
    msPerRequest(): number;
    elapsedMs(): number;
  },
): BudgetView {
  return {
    requestsLeft: () =>
      settings.maxRequests === undefined ? undefined : settings.maxRequests - run.requestsSent() - run.reserved(),
    timeAllows: (cost) =>
      settings.maxDurationMs === undefined || run.elapsedMs() + cost * run.msPerRequest() <= settings.maxDurationMs,
  };
}

/** `--max-duration`: 90s, 2m, 1m30s, 1h, or plain seconds; milliseconds, or undefined when it does not parse. */
export function parseDuration(text: string): number | undefined {
  const match = /^(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s?)?$/.exec(text.trim());
  if (!match || text.trim() === "" || !(match[1] || match[2] || match[3])) return undefined;
  const [, h = "0", m = "0", s = "0"] = match;
  return ((Number(h) * 60 + Number(m)) * 60 + Number(s)) * 1000;
}

/** A budget in words: `60 requests, the default for the contract's rate limit`; `no budget`. */
export function budgetText(budget: BudgetSettings): string {
  const parts = [
    ...(budget.maxRequests !== undefined ? [`${budget.maxRequests} requests`] : []),
    ...(budget.maxDurationMs !== undefined ? [`${budget.maxDurationMs / 1000} s`] : []),
  ];
  if (parts.length === 0) return "no budget";
  return `${parts.join(", ")}${budget.isDefault ? ", the default for the contract's rate limit" : ""}`;
}
