// What the budget reached and what it did not: the report's `budget` section, the not-reached cases per operation
// and kind (for the coverage section) and per check, and the console's lines. A planned case the budget did not
// reach is reported as not reached, never as passed.
import { budgetText, type BudgetSettings } from "../plan/budget.js";
import type { PlanItem } from "../model/plan.js";

export interface BudgetReport {
  maxRequests?: number;
  maxDurationSeconds?: number;
  /** The default budget of a rate-limited contract (no --max-requests or --max-duration given). */
  default: boolean;
  /** Items of the plan, reached and not. */
  planned: number;
  reached: number;
  notReached: number;
}

/** Cases of one kind on one operation that the budget did not reach, and the checks that would have judged them. */
export interface NotReachedCases {
  kind: string;
  cases: number;
  checks: string[];
}

export interface PlanOutcome {
  budget: BudgetSettings;
  planned: number;
  notReached: PlanItem[];
}

export function budgetReport(plan: PlanOutcome): BudgetReport {
  const { maxRequests, maxDurationMs, isDefault } = plan.budget;
  return {
    ...(maxRequests !== undefined ? { maxRequests } : {}),
    ...(maxDurationMs !== undefined ? { maxDurationSeconds: maxDurationMs / 1000 } : {}),
    default: isDefault,
    planned: plan.planned,
    reached: plan.planned - plan.notReached.length,
    notReached: plan.notReached.length,
  };
}

/** operationId → the kinds of case the budget left out there. */
export function notReachedByOperation(items: readonly PlanItem[]): Map<string, NotReachedCases[]> {
  const byOperation = new Map<string, Map<string, NotReachedCases>>();
  for (const item of items) {
    const kinds = byOperation.get(item.operationId) ?? new Map<string, NotReachedCases>();
    byOperation.set(item.operationId, kinds);
    const entry = kinds.get(item.kind) ?? { kind: item.kind, cases: 0, checks: [] };
    kinds.set(item.kind, entry);
    entry.cases += 1;
    for (const check of item.checks) if (!entry.checks.includes(check)) entry.checks.push(check);
  }
  return new Map([...byOperation].map(([id, kinds]) => [id, [...kinds.values()]]));
}

/** check → how many planned cases it would have judged that the budget did not reach. */
export function notReachedByCheck(items: readonly PlanItem[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const item of items) for (const check of item.checks) counts.set(check, (counts.get(check) ?? 0) + 1);
  return counts;
}

/** What the budget was, in words (plan/budget.ts budgetText). */
export function budgetWords(budget: BudgetReport): string {
  return budgetText({
    ...(budget.maxRequests !== undefined ? { maxRequests: budget.maxRequests } : {}),
    ...(budget.maxDurationSeconds !== undefined ? { maxDurationMs: budget.maxDurationSeconds * 1000 } : {}),
    isDefault: budget.default,
  });
}

/** The console's lines about the budget: nothing when the whole plan was reached without one. */
export function budgetLines(budget: BudgetReport | undefined): string[] {
  if (!budget || (budget.notReached === 0 && budget.maxRequests === undefined && !budget.maxDurationSeconds)) return [];
  const lines = [`Budget: ${budgetWords(budget)}; ${budget.reached} of ${budget.planned} planned cases reached`];
  if (budget.notReached > 0)
    lines.push(
      `  ${budget.notReached} planned cases not reached (not passed): raise --max-requests or --max-duration to reach them`,
    );
  return lines;
}

/** The budgets of the shards of one run as one (contracts conform merge): what each reached and left out, summed. */
export function mergeBudgets(parts: BudgetReport[]): BudgetReport {
  const sum = (pick: (b: BudgetReport) => number | undefined) =>
    parts.every((b) => pick(b) !== undefined) ? parts.reduce((n, b) => n + pick(b)!, 0) : undefined;
  const maxRequests = sum((b) => b.maxRequests);
  const maxDurationSeconds = parts.every((b) => b.maxDurationSeconds !== undefined)
    ? Math.max(...parts.map((b) => b.maxDurationSeconds!))
    : undefined;
  return {
    ...(maxRequests !== undefined ? { maxRequests } : {}),
    ...(maxDurationSeconds !== undefined ? { maxDurationSeconds } : {}),
    default: parts.every((b) => b.default),
    planned: sum((b) => b.planned)!,
    reached: sum((b) => b.reached)!,
    notReached: sum((b) => b.notReached)!,
  };
}

/** The not-reached cases of one operation in several shards, by kind. */
export function mergeNotReached(parts: Array<NotReachedCases[] | undefined>): NotReachedCases[] | undefined {
  const byKind = new Map<string, NotReachedCases>();
  for (const entry of parts.flatMap((p) => p ?? [])) {
    const into = byKind.get(entry.kind) ?? { kind: entry.kind, cases: 0, checks: [] };
    byKind.set(entry.kind, into);
    into.cases += entry.cases;
    for (const check of entry.checks) if (!into.checks.includes(check)) into.checks.push(check);
  }
  return byKind.size > 0 ? [...byKind.values()] : undefined;
}
