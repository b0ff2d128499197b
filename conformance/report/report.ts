// The run's results as data (the --json file), built from the ledger alone; what makes the run fail. The console
// summary (console-report.ts), JUnit XML (junit.ts) and the HTML page (report-html.ts) are written from this data.
// Every text goes through the run's secret filter before it leaves the process.
import type { ApiName } from "../../lib/contract/index.js";
import { DEFAULT_NONCE, nonceModeText } from "../send/nonces.js";
import type { BaselineOutcome } from "./baseline.js";
import { causeOf, groupCauses } from "./causes.js";
import { CHECK_LIST, appliesTo } from "../model/check-registry.js";
import type { CoverageReport } from "./coverage.js";
import {
  budgetReport,
  type BudgetReport,
  budgetWords,
  notReachedByCheck,
  notReachedByOperation,
  type PlanOutcome,
} from "./budget-report.js";
import { operationsOf } from "../contract/lookup.js";
import type { Observation } from "../judge/observations.js";
import type { RunOptions } from "../context.js";
import type { Secrets } from "./secrets.js";
import type { FailureRecord, Ledger, RefusalPageRecord, Tally, WarningRecord } from "./ledger.js";
import type { TrackedResource } from "../send/resources.js";
import type { PassiveSummary, RecordedExchange } from "../model/recorded-traffic.js";
import { recordedExchanges } from "./recorded-exchanges.js";
import type { OverlayOutcome } from "../overlay/outcome.js";

export interface CheckResult {
  name: string;
  catches: string;
  passed: number;
  failed: number;
  /** Why the check did not run, when it does not apply (another API, a read-only run, nothing it applies to). */
  skipped?: string;
  /** Why the check applies but could not run (a missing credential, a failed prerequisite): the run fails. */
  couldNotRun?: string;
  /** Planned cases this check would have judged that the budget did not reach: not passed, not failed. */
  notReached?: string;
  operations: Record<string, Tally>;
}

export interface RunReport {
  api: ApiName;
  baseUrl: string;
  seed: number;
  /** The part of the work this report covers (--shard i/n), or the shards a merged report joins. */
  shard?: string;
  maxExamples: number;
  allowWrites: boolean;
  startedAt: string;
  finishedAt: string;
  interrupted: boolean;
  requests: number;
  checks: CheckResult[];
  skippedOperations: Array<{ operationId: string; reason: string }>;
  failures: FailureRecord[];
  /** Broken `x-assumption`s: not failures unless --strict. */
  warnings: WarningRecord[];
  /** The pages checks counted as refusals (error or confirmation pages), redacted (absent in older reports). */
  refusalPages?: RefusalPageRecord[];
  /** With --baseline: which failures are known and which known ones are fixed. */
  baseline?: BaselineOutcome;
  /** With --overlay: the overlay, and which of its deviations the run confirmed or no longer saw. */
  overlay?: OverlayOutcome;
  observations: Observation[];
  resources: TrackedResource[];
  /** What the run reached per operation, documented status and kind of case (absent in reports of older versions). */
  coverage?: CoverageReport;
  /** A passive run (recorded traffic): its source and the entries it could not judge (conformance/passive/). */
  passive?: PassiveSummary;
  /** The exchanges the run judged, redacted (passive runs): `--from-json` judges them again. */
  exchanges?: RecordedExchange[];
  /** The budget and how much of the plan it reached (absent in reports of older versions). */
  budget?: BudgetReport;
  /** pay: how the run numbered its nonces (--nonce), in words. */
  nonce?: string;
}

/** Why an operation was not run: the run's skipped operations, then those left out by --operation or --shard. */
function notRunReasons(context: ReportContext, ledger: Ledger, budget: BudgetReport | undefined): Map<string, string> {
  const reasons = new Map(ledger.skippedOperations);
  const spent = budget && `not reached within the budget (${budgetWords(budget)})`;
  const selected = context.options.operations;
  for (const op of operationsOf(context.options.api)) {
    if (op.webhook || reasons.has(op.operationId)) continue;
    if (selected.length > 0 && !selected.includes(op.operationId))
      reasons.set(op.operationId, "not selected (--operation)");
    else if (!context.ownsPath(op.path)) reasons.set(op.operationId, "another shard's (--shard)");
    else if (spent && budget.notReached > 0) reasons.set(op.operationId, spent);
  }
  return reasons;
}

/** Each selected check's results from the ledger, or why it has none (skipped, could not run, not reached). */
function checkResults(
  context: ReportContext,
  ledger: Ledger,
  budget: BudgetReport | undefined,
  notReached: PlanOutcome["notReached"],
): CheckResult[] {
  const unreachedChecks = notReachedByCheck(notReached);
  return CHECK_LIST.filter((c) => context.options.checks.has(c.name)).map((info) => {
    const byOperation = ledger.tallies.get(info.name) ?? new Map<string, Tally>();
    const operations = Object.fromEntries([...byOperation.entries()].sort(([a], [b]) => a.localeCompare(b)));
    const passed = [...byOperation.values()].reduce((n, t) => n + t.passed, 0);
    const failed = [...byOperation.values()].reduce((n, t) => n + t.failed, 0);
    const result: CheckResult = { name: info.name, catches: info.catches, passed, failed, operations };
    const couldNotRun = ledger.unrunChecks.get(info.name);
    const skipped =
      ledger.skippedChecks.get(info.name) ??
      (passed + failed === 0 ? "no request of this run was one it applies to" : undefined);
    const unreached = unreachedChecks.get(info.name);
    if (unreached && budget)
      result.notReached = `${unreached} planned cases beyond the budget (${budgetWords(budget)})`;
    if (couldNotRun) result.couldNotRun = couldNotRun;
    else if (skipped && passed + failed === 0 && !unreached) result.skipped = skipped;
    return result;
  });
}

/** How the run went, besides what the ledger holds: when, whether interrupted, what it created, what it planned. */
export interface RunOutcome {
  startedAt: Date;
  finishedAt: Date;
  interrupted: boolean;
  /** The resources the run created, and whether the cleanup deleted them. */
  resources: TrackedResource[];
  /** A passive run (recorded traffic) has no plan and no budget. */
  plan?: PlanOutcome;
}

/**
 * What the report reads of a run besides its ledger: the options it states, the secrets to keep out of it, and the
 * paths of the run's shard. An active run's context is one; a passive run states a recorded run's.
 */
export interface ReportContext {
  readonly options: Pick<
    RunOptions,
    "api" | "baseUrl" | "seed" | "shard" | "maxExamples" | "allowWrites" | "nonce" | "operations" | "checks"
  >;
  readonly secrets: Secrets;
  ownsPath(path: string): boolean;
}
/** The report of a run, from its ledger alone (and the run's options): every text in it redacted. */
export function buildReport(context: ReportContext, ledger: Ledger, outcome: RunOutcome): RunReport {
  const { options, secrets } = context;
  const budget = outcome.plan && budgetReport(outcome.plan);
  const notReached = outcome.plan?.notReached ?? [];
  return {
    api: options.api,
    baseUrl: secrets.redact(options.baseUrl),
    seed: options.seed,
    ...(options.shard ? { shard: `${options.shard.index}/${options.shard.count}` } : {}),
    maxExamples: options.maxExamples,
    allowWrites: options.allowWrites,
    ...(options.api === "pay" && outcome.plan ? { nonce: nonceModeText(options.nonce ?? DEFAULT_NONCE) } : {}),
    startedAt: outcome.startedAt.toISOString(),
    finishedAt: outcome.finishedAt.toISOString(),
    interrupted: outcome.interrupted,
    // Every request sent is recorded, the reachability check and the cleanup's included.
    requests: ledger.exchanges.length,
    checks: checkResults(context, ledger, budget, notReached),
    skippedOperations: [...ledger.skippedOperations.entries()].map(([operationId, reason]) => ({
      operationId,
      reason,
    })),
    failures: [...ledger.failures.values()].map((f) => ({ ...f, key: f.key ?? causeOf(f) })),
    warnings: [...ledger.warnings.values()],
    refusalPages: ledger.refusalPages,
    observations: ledger.observations.list(),
    resources: outcome.resources.map((r) => ({ ...r })),
    coverage: ledger.coverage.report(
      options.api,
      notRunReasons(context, ledger, budget),
      outcome.interrupted ? "not reached before the run was interrupted" : undefined,
      notReachedByOperation(notReached),
    ),
    exchanges: recordedExchanges(ledger.exchanges, (text) => secrets.redactSent(text), ledger.expectations),
    ...(budget ? { budget } : {}),
  };
}

/**
 * What makes the run fail: failures not in the baseline, checks that applied but could not run, and a run that
 * checked nothing although a selected check applies to its API (every one was skipped: fail closed).
 */
/** Whether the run exercised a check on an operation: what a baseline or overlay entry needs to be called fixed. */
export const checkRan = (report: RunReport) => (check: string, operationId: string) =>
  Boolean(report.checks.find((c) => c.name === check)?.operations[operationId]);

export function verdict(report: RunReport): {
  newFailures: FailureRecord[];
  couldNotRun: CheckResult[];
  checkedNothing: boolean;
} {
  const applies = (check: CheckResult) =>
    appliesTo(
      CHECK_LIST.find((info) => info.name === check.name)!,
      report.api,
    );
  return {
    newFailures: report.failures.filter((f) => !f.known),
    couldNotRun: report.checks.filter((c) => c.couldNotRun),
    checkedNothing: report.checks.some(applies) && !report.checks.some((c) => c.passed + c.failed > 0),
  };
}

/** A cause in the JSON report: numbered as the console, HTML and JUnit reports and the progress line number it. */
export interface CauseEntry {
  number: number;
  key: string;
  check: string;
  message: string;
  known: boolean;
  operations: string[];
  results: number;
}

/** The report as JSON, with its causes numbered (`causes`); a report read back (merge, --from-json) ignores them. */
export function jsonReport(report: RunReport, redact: (text: string) => string): string {
  const causes: CauseEntry[] = groupCauses(report.api, report.failures).map((cause, index) => ({
    number: index + 1,
    key: cause.key,
    check: cause.check,
    message: cause.message,
    known: cause.known,
    operations: cause.operations,
    results: cause.results,
  }));
  return redact(JSON.stringify({ ...report, causes }, null, 2)) + "\n";
}
