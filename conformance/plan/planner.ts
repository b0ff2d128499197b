// The planner: orders the plan coverage-first. Every (operation, kind of case, check) key is reached once before any
// is reached twice; among items whose keys have been reached as often, the lower priority goes first (examples,
// sequences, boundaries, systematic invalid data, credentials, probes, random data), then the built order. Pure.
import { coverageKey, type PlanItem } from "../model/plan.js";

/** How often the least reached key of an item has been reached (an item without checks counts its operation). */
function reach(item: PlanItem, counts: ReadonlyMap<string, number>): number {
  const keys = item.checks.length > 0 ? item.checks.map((check) => coverageKey(item, check)) : [coverageKey(item)];
  return Math.min(...keys.map((key) => counts.get(key) ?? 0));
}

function reached(item: PlanItem, counts: Map<string, number>): void {
  const keys = item.checks.length > 0 ? item.checks.map((check) => coverageKey(item, check)) : [coverageKey(item)];
  for (const key of keys) counts.set(key, (counts.get(key) ?? 0) + 1);
}

/**
 * The items in the order a run spends its budget on them. Items of one (operation, kind) share their checks, so the
 * order is computed by rounds over those groups: round n takes the n-th item of every group, by priority.
 */
export function coverageFirst(items: readonly PlanItem[]): PlanItem[] {
  const counts = new Map<string, number>();
  const waiting = [...items].sort((a, b) => a.priority - b.priority || a.id - b.id);
  const ordered: PlanItem[] = [];
  while (waiting.length > 0) {
    let best = 0;
    let bestReach = reach(waiting[0]!, counts);
    for (let i = 1; i < waiting.length && bestReach > 0; i++) {
      const r = reach(waiting[i]!, counts);
      if (r < bestReach) [best, bestReach] = [i, r];
    }
    const [next] = waiting.splice(best, 1);
    reached(next!, counts);
    ordered.push(next!);
  }
  return ordered;
}

/** What the run may still spend; the planner's view of the budget. */
export interface BudgetView {
  /** Requests the budget still allows, or undefined without a request budget. */
  requestsLeft(): number | undefined;
  /** Whether the time budget still allows an item of this many requests. */
  timeAllows(cost: number): boolean;
}

/**
 * Walks the ordered plan: `next()` gives the first item the budget still allows (an item too large is passed over for
 * smaller ones after it, and stays not reached). What was never given is `notReached()`.
 */
export class Planner {
  private readonly queue: PlanItem[];
  private readonly skipped: PlanItem[] = [];

  constructor(
    items: readonly PlanItem[],
    private readonly budget: BudgetView,
  ) {
    this.queue = coverageFirst(items);
  }

  next(): PlanItem | undefined {
    for (let item = this.queue.shift(); item; item = this.queue.shift()) {
      const left = this.budget.requestsLeft();
      if ((left === undefined || item.cost <= left) && this.budget.timeAllows(item.cost)) return item;
      this.skipped.push(item);
    }
    return undefined;
  }

  /** Items passed over for the budget, then those never taken (the run stopped). */
  notReached(): PlanItem[] {
    return [...this.skipped, ...this.queue];
  }
}
