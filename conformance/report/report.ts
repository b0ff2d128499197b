// The run's results as data (the --json file), as JUnit XML (--junit) and as the console summary. Every text goes
// through the run's secret filter before it leaves the process.
import type { ApiName } from "../../lib/contract/index.js";
import { type BaselineOutcome, baselineEntry } from "./baseline.js";
import { appliesTo, CHECKS } from "../judge/checks.js";
import { type CoverageReport, coverageLines } from "./coverage.js";
import {
  budgetLines,
  budgetReport,
  type BudgetReport,
  budgetWords,
  notReachedByCheck,
  notReachedByOperation,
  type PlanOutcome,
} from "./budget-report.js";
import { operationsOf } from "../contract/lookup.js";
import type { Observation } from "../judge/observations.js";
import type { FailureRecord, Tally, WarningRecord } from "./ledger.js";
import type { Session } from "../send/session.js";
import type { ResourceTracker, TrackedResource } from "../send/resources.js";
import type { PassiveSummary, RecordedExchange } from "../passive/types.js";
import { passiveConsoleLines, passiveJunitCases } from "../passive/report-lines.js";
import { recordedExchanges } from "../passive/recorded.js";

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
  /** With --baseline: which failures are known and which known ones are fixed. */
  baseline?: BaselineOutcome;
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
}

/** Why an operation was not run: the run's skipped operations, then those left out by --operation or --shard. */
function notRunReasons(session: Session, budget: BudgetReport | undefined): Map<string, string> {
  const reasons = new Map(session.skippedOperations);
  const spent = budget && `not reached within the budget (${budgetWords(budget)})`;
  const selected = session.options.operations;
  for (const op of operationsOf(session.options.api)) {
    if (op.webhook || reasons.has(op.operationId)) continue;
    if (selected.length > 0 && !selected.includes(op.operationId))
      reasons.set(op.operationId, "not selected (--operation)");
    else if (!session.ownsPath(op.path)) reasons.set(op.operationId, "another shard's (--shard)");
    else if (spent && budget.notReached > 0) reasons.set(op.operationId, spent);
  }
  return reasons;
}

export function buildReport(
  session: Session,
  tracker: ResourceTracker,
  meta: { startedAt: Date; finishedAt: Date; interrupted: boolean; plan?: PlanOutcome },
): RunReport {
  // A passive run (recorded traffic) has no plan and no budget.
  const budget = meta.plan && budgetReport(meta.plan);
  const notReached = meta.plan?.notReached ?? [];
  const unreachedChecks = notReachedByCheck(notReached);
  const checks: CheckResult[] = CHECKS.filter((c) => session.options.checks.has(c.name)).map((info) => {
    const byOperation = session.ledger.tallies.get(info.name) ?? new Map<string, Tally>();
    const operations = Object.fromEntries([...byOperation.entries()].sort(([a], [b]) => a.localeCompare(b)));
    const passed = [...byOperation.values()].reduce((n, t) => n + t.passed, 0);
    const failed = [...byOperation.values()].reduce((n, t) => n + t.failed, 0);
    const result: CheckResult = { name: info.name, catches: info.catches, passed, failed, operations };
    const couldNotRun = session.ledger.unrunChecks.get(info.name);
    const skipped =
      session.skippedChecks.get(info.name) ??
      (passed + failed === 0 ? "no request of this run was one it applies to" : undefined);
    const unreached = unreachedChecks.get(info.name);
    if (unreached && budget)
      result.notReached = `${unreached} planned cases beyond the budget (${budgetWords(budget)})`;
    if (couldNotRun) result.couldNotRun = couldNotRun;
    else if (skipped && passed + failed === 0 && !unreached) result.skipped = skipped;
    return result;
  });
  return {
    api: session.options.api,
    baseUrl: session.secrets.redact(session.options.baseUrl),
    seed: session.options.seed,
    ...(session.options.shard ? { shard: `${session.options.shard.index}/${session.options.shard.count}` } : {}),
    maxExamples: session.options.maxExamples,
    allowWrites: session.options.allowWrites,
    startedAt: meta.startedAt.toISOString(),
    finishedAt: meta.finishedAt.toISOString(),
    interrupted: meta.interrupted,
    requests: session.transport.requestCount,
    checks,
    skippedOperations: [...session.skippedOperations.entries()].map(([operationId, reason]) => ({
      operationId,
      reason,
    })),
    failures: [...session.ledger.failures.values()].map((f) => ({ ...f, key: baselineEntry(f).key })),
    warnings: [...session.ledger.warnings.values()],
    observations: session.observations.list(),
    resources: tracker.resources.map((r) => ({ ...r })),
    coverage: session.coverage.report(
      session.options.api,
      notRunReasons(session, budget),
      meta.interrupted ? "not reached before the run was interrupted" : undefined,
      notReachedByOperation(notReached),
    ),
    exchanges: recordedExchanges(session.exchanges, (text) => session.secrets.redactSent(text), session.expectations),
    ...(budget ? { budget } : {}),
  };
}

export function failedCount(report: RunReport): number {
  return report.checks.reduce((n, c) => n + c.failed, 0);
}

/**
 * What makes the run fail: failures not in the baseline, checks that applied but could not run, and a run that
 * checked nothing although a selected check applies to its API (every one was skipped: fail closed).
 */
export function verdict(report: RunReport): {
  newFailures: FailureRecord[];
  couldNotRun: CheckResult[];
  checkedNothing: boolean;
} {
  const applies = (check: CheckResult) =>
    appliesTo(
      CHECKS.find((info) => info.name === check.name)!,
      report.api,
    );
  return {
    newFailures: report.failures.filter((f) => !f.known),
    couldNotRun: report.checks.filter((c) => c.couldNotRun),
    checkedNothing: report.checks.some(applies) && !report.checks.some((c) => c.passed + c.failed > 0),
  };
}

export function jsonReport(report: RunReport, redact: (text: string) => string): string {
  return redact(JSON.stringify(report, null, 2)) + "\n";
}

function xml(text: string): string {
  return (
    text
      .replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" })[c]!) // XML 1.0 has no way to write these control characters, so they are dropped.
      // eslint-disable-next-line no-control-regex -- matching control characters is the point
      .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, "")
  );
}

/** One test case per check and operation; a check that did not run is one skipped test case. */
export function junitReport(report: RunReport, redact: (text: string) => string): string {
  const cases: string[] = [];
  let tests = 0;
  let failures = 0;
  let skipped = 0;
  let errors = 0;
  const seconds = (Date.parse(report.finishedAt) - Date.parse(report.startedAt)) / 1000;
  for (const check of report.checks) {
    if (check.couldNotRun) {
      tests += 1;
      errors += 1;
      cases.push(
        `    <testcase classname="${xml(`conform.${report.api}`)}" name="${xml(check.name)}"><error message="${xml(`could not run: ${check.couldNotRun}`)}" type="could-not-run"/></testcase>`,
      );
      continue;
    }
    if (check.notReached) {
      tests += 1;
      skipped += 1;
      cases.push(
        `    <testcase classname="${xml(`conform.${report.api}`)}" name="${xml(`${check.name} (not reached)`)}"><skipped message="${xml(`not reached: ${check.notReached}`)}"/></testcase>`,
      );
      if (check.passed + check.failed === 0) continue;
    }
    if (check.skipped) {
      tests += 1;
      skipped += 1;
      cases.push(
        `    <testcase classname="${xml(`conform.${report.api}`)}" name="${xml(check.name)}"><skipped message="${xml(check.skipped)}"/></testcase>`,
      );
      continue;
    }
    for (const [operationId, tally] of Object.entries(check.operations)) {
      tests += 1;
      const name = `${check.name} ${operationId}`;
      const failure = report.failures.find((f) => f.check === check.name && f.operationId === operationId);
      if (tally.failed > 0 && failure?.known) {
        skipped += 1;
        cases.push(
          `    <testcase classname="${xml(`conform.${report.api}.${operationId}`)}" name="${xml(name)}"><skipped message="${xml(`known failure (baseline): ${failure.message}`)}"/></testcase>`,
        );
      } else if (tally.failed > 0 && failure) {
        failures += 1;
        cases.push(
          `    <testcase classname="${xml(`conform.${report.api}.${operationId}`)}" name="${xml(name)}">\n      <failure message="${xml(failure.message)}" type="${xml(check.name)}">${xml(describeFailure(failure))}</failure>\n    </testcase>`,
        );
      } else
        cases.push(`    <testcase classname="${xml(`conform.${report.api}.${operationId}`)}" name="${xml(name)}"/>`);
    }
  }
  const gaps = passiveJunitCases(report.api, report.passive, xml);
  tests += gaps.length;
  skipped += gaps.length;
  cases.push(...gaps);
  return redact(
    `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="contracts conform" tests="${tests}" failures="${failures}" errors="${errors}" skipped="${skipped}" time="${seconds}">\n  <testsuite name="${xml(`conform ${report.api} ${report.baseUrl}`)}" tests="${tests}" failures="${failures}" errors="${errors}" skipped="${skipped}" time="${seconds}" timestamp="${report.startedAt}">\n    <properties>${junitProperties(report)}</properties>\n${cases.join("\n")}\n  </testsuite>\n</testsuites>\n`,
  );
}

/** The run's seed, depth and coverage as JUnit properties (CI dashboards show them next to the test cases). */
function junitProperties(report: RunReport): string {
  const properties: Array<[string, string | number]> = [
    ["seed", report.seed],
    ["max-examples", report.maxExamples],
  ];
  const coverage = report.coverage;
  if (coverage) {
    const missed = coverage.byOperation.filter((op) => !op.reached).map((op) => op.operationId);
    properties.push(
      ["coverage.operations-reached", `${coverage.operations.reached}/${coverage.operations.total}`],
      ["coverage.documented-statuses-seen", `${coverage.statuses.seen}/${coverage.statuses.documented}`],
      ["coverage.kinds-of-case", coverage.kinds.join(", ")],
      ["coverage.not-reached", missed.join(", ")],
    );
  }
  if (report.budget)
    properties.push(
      ["budget", budgetWords(report.budget)],
      ["budget.cases-planned", report.budget.planned],
      ["budget.cases-not-reached", report.budget.notReached],
    );
  return properties.map(([name, value]) => `<property name="${xml(name)}" value="${xml(String(value))}"/>`).join("");
}

/** A failure as text: what failed, the request, the response and the reproduction. */
export function describeFailure(failure: FailureRecord): string {
  const lines = [
    `${failure.check} on ${failure.operationId}: ${failure.message}`,
    `  case: ${failure.case}${failure.occurrences > 1 ? ` (${failure.occurrences} failing requests)` : ""}`,
  ];
  lines.push(`  request: ${failure.request.method} ${failure.request.url}`);
  for (const [name, value] of Object.entries(failure.request.headers)) lines.push(`    ${name}: ${value}`);
  if (failure.request.body !== undefined) lines.push(`    ${truncate(failure.request.body, 400)}`);
  if (failure.response) {
    lines.push(`  response: ${failure.response.status}`);
    for (const [name, value] of Object.entries(failure.response.headers))
      if (!["date", "connection", "keep-alive"].includes(name)) lines.push(`    ${name}: ${value}`);
    if (failure.response.body) lines.push(`    ${truncate(failure.response.body, 400)}`);
  } else if (failure.error) lines.push(`  no response: ${failure.error}`);
  lines.push("  reproduce:", ...failure.curl.split("\n").map((l) => `    ${l}`));
  return lines.join("\n");
}

function truncate(text: string, max: number): string {
  const oneLine = text.replace(/\s*\n\s*/g, " ");
  return oneLine.length > max ? `${oneLine.slice(0, max)}… (${oneLine.length} characters)` : oneLine;
}

/** What the budget left out of a check that has results: said beside them, so that they are not read as all. */
function checkNotReached(check: CheckResult): string {
  return check.notReached && check.passed + check.failed > 0 && !check.couldNotRun ? " (more not reached)" : "";
}

/** The console summary: per check, per operation, the failures with reproductions, observations and resources. */
// eslint-disable-next-line max-lines-per-function -- over the cap since formatted at 120 columns; to be split
export function consoleReport(report: RunReport, redact: (text: string) => string): string {
  const out: string[] = [];
  // The checks of the other APIs are one line, not one each (the JSON and JUnit reports list them all).
  const elsewhere = `does not apply to ${report.api}`;
  const shown = report.checks.filter((c) => c.skipped !== elsewhere);
  const width = Math.max(...shown.map((c) => c.name.length));
  out.push(
    "",
    report.passive
      ? `Checks (${report.requests} recorded exchanges, nothing sent):`
      : `Checks (${report.requests} requests, seed ${report.seed}${report.interrupted ? ", INTERRUPTED" : ""}):`,
  );
  for (const check of shown) {
    const allKnown = check.failed > 0 && report.failures.filter((f) => f.check === check.name).every((f) => f.known);
    const state = check.couldNotRun
      ? `COULD NOT RUN: ${check.couldNotRun}`
      : check.skipped
        ? `skipped: ${check.skipped}`
        : check.failed > 0
          ? `${allKnown ? "known failures (baseline)" : "FAILED"} ${check.failed} of ${check.passed + check.failed}`
          : check.passed > 0
            ? `passed ${check.passed}`
            : `not reached: ${check.notReached ?? "no result"}`;
    const mark = check.couldNotRun ? "!" : check.failed > 0 ? (allKnown ? "~" : "✗") : check.passed > 0 ? "✓" : "-";
    out.push(`  ${mark} ${check.name.padEnd(width)}  ${state}${checkNotReached(check)}`);
  }
  const otherApis = report.checks.length - shown.length;
  if (otherApis > 0)
    out.push(`  - ${otherApis} checks of other APIs do not apply to ${report.api} (contracts conform --list-checks)`);
  const operations = new Map<string, { passed: number; failed: number }>();
  for (const check of report.checks) {
    for (const [operationId, tally] of Object.entries(check.operations)) {
      const total = operations.get(operationId) ?? { passed: 0, failed: 0 };
      total.passed += tally.passed;
      total.failed += tally.failed;
      operations.set(operationId, total);
    }
  }
  if (operations.size > 0) {
    out.push("", "Operations:");
    const opWidth = Math.max(...[...operations.keys()].map((k) => k.length));
    for (const [operationId, total] of [...operations.entries()].sort(([a], [b]) => a.localeCompare(b))) {
      const failedChecks = report.failures.filter((f) => f.operationId === operationId).map((f) => f.check);
      out.push(
        `  ${total.failed > 0 ? "✗" : "✓"} ${operationId.padEnd(opWidth)}  ${total.passed + total.failed} check results${failedChecks.length ? `, failed: ${failedChecks.join(", ")}` : ""}`,
      );
    }
  }
  for (const skipped of report.skippedOperations) out.push(`  - ${skipped.operationId}: not run, ${skipped.reason}`);
  out.push(...passiveConsoleLines(report.passive));
  if (report.coverage) out.push("", ...coverageLines(report.coverage));
  out.push(...budgetLines(report.budget));
  if (report.failures.length > 0) {
    out.push("", `Failures (${report.failures.length}):`);
    report.failures.forEach((failure, index) =>
      out.push("", `${index + 1}. ${failure.known ? "(known, in the baseline) " : ""}${describeFailure(failure)}`),
    );
  }
  if (report.baseline) {
    const { file, known, fixed, unseen, seed } = report.baseline;
    const notSeen = unseen.length > 0 ? `, ${unseen.length} not seen` : "";
    out.push(
      "",
      `Baseline ${file}: ${known.length} known failure(s), ${fixed.length} fixed${notSeen}, ${report.failures.filter((f) => !f.known).length} new`,
    );
    for (const entry of fixed) out.push(`  ✓ fixed: ${entry.key}`);
    // Random data of another seed may simply not have sent a case that shows them.
    for (const entry of unseen)
      out.push(
        `  ? not seen with seed ${report.seed}, found by random data of seed ${seed} (--seed ${seed} sends it again): ${entry.key}`,
      );
  }
  if (report.warnings.length > 0) {
    out.push(
      "",
      `Warnings (a constraint marked x-assumption was broken; not failures unless --strict; ${report.warnings.length}):`,
    );
    for (const warning of report.warnings) {
      out.push(
        `  ⚠ ${warning.check} on ${warning.operationId}: ${warning.message}${warning.occurrences > 1 ? ` (${warning.occurrences}×)` : ""}`,
        `      assumption: ${warning.assumption}`,
      );
    }
  }
  if (report.observations.length > 0) {
    out.push("", `Observations (gaps in the contract, never failures; ${report.observations.length}):`);
    for (const observation of report.observations) {
      out.push(
        `  • ${observation.detail}${observation.count > 1 ? ` (${observation.count}×)` : ""}, on ${observation.operations.join(", ")}`,
      );
      for (const entry of observation.undocumented) out.push(`      sheds light on: ${entry}`);
    }
  }
  if (report.resources.length > 0) {
    out.push("", "Resources created by this run:");
    for (const resource of report.resources)
      out.push(
        `  ${resource.state === "deleted" ? "✓ deleted" : "! LEFT BEHIND"}  ${resource.kind} ${resource.id ?? "(no id)"} (by ${resource.createdBy})${resource.note ? `: ${resource.note}` : ""}`,
      );
  }
  return redact(out.join("\n")) + "\n";
}
