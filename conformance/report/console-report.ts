// The console summary of a run: per check, per operation, the coverage and the budget, the failures with their
// reproductions, the baseline, the warnings, the observations and the resources the run created. Each section is a
// function of the report alone; every text goes through the run's secret filter.
import { overlayLines } from "../overlay/outcome.js";
import { budgetLines } from "./budget-report.js";
import { coverageLines } from "./coverage.js";
import type { FailureRecord, Tally } from "./ledger.js";
import type { CheckResult, RunReport } from "./report.js";
import { passiveConsoleLines } from "../passive/report-lines.js";

/** A failure as text: what failed, the request, the response and the reproduction. */
export function describeFailure(failure: FailureRecord): string {
  const repeated = failure.occurrences > 1 ? ` (${failure.occurrences} failing requests)` : "";
  const lines = [
    `${failure.check} on ${failure.operationId}: ${failure.message}`,
    `  case: ${failure.case}${repeated}`,
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

/** `3×` after a line that stands for several. */
const times = (count: number, unit = "×") => (count > 1 ? ` (${count}${unit})` : "");

/** What the budget left out of a check that has results: said beside them, so that they are not read as all. */
function checkNotReached(check: CheckResult): string {
  return check.notReached && check.passed + check.failed > 0 && !check.couldNotRun ? " (more not reached)" : "";
}

/** A check's state in words, and its mark: ✓ passed, ✗ failed, ~ only known failures, ! could not run, - no result. */
function checkState(report: RunReport, check: CheckResult): { mark: string; state: string } {
  const allKnown = check.failed > 0 && report.failures.filter((f) => f.check === check.name).every((f) => f.known);
  if (check.couldNotRun) return { mark: "!", state: `COULD NOT RUN: ${check.couldNotRun}` };
  if (check.skipped) return { mark: "-", state: `skipped: ${check.skipped}` };
  if (check.failed > 0) {
    const failed = `${check.failed} of ${check.passed + check.failed}`;
    return allKnown
      ? { mark: "~", state: `known failures (baseline) ${failed}` }
      : { mark: "✗", state: `FAILED ${failed}` };
  }
  if (check.passed > 0) return { mark: "✓", state: `passed ${check.passed}` };
  return { mark: "-", state: `not reached: ${check.notReached ?? "no result"}` };
}

/** One line per check of this API; the checks of the other APIs are one line, not one each. */
function checkLines(report: RunReport): string[] {
  const elsewhere = `does not apply to ${report.api}`;
  const shown = report.checks.filter((c) => c.skipped !== elsewhere);
  const width = Math.max(...shown.map((c) => c.name.length));
  const heading = report.passive
    ? `Checks (${report.requests} recorded exchanges, nothing sent):`
    : `Checks (${report.requests} requests, seed ${report.seed}${report.interrupted ? ", INTERRUPTED" : ""}):`;
  const lines = ["", heading];
  for (const check of shown) {
    const { mark, state } = checkState(report, check);
    lines.push(`  ${mark} ${check.name.padEnd(width)}  ${state}${checkNotReached(check)}`);
  }
  const otherApis = report.checks.length - shown.length;
  if (otherApis > 0)
    lines.push(`  - ${otherApis} checks of other APIs do not apply to ${report.api} (contracts conform --list-checks)`);
  return lines;
}

/** operationId → its check results of every check, summed. */
function operationTotals(report: RunReport): Map<string, Tally> {
  const operations = new Map<string, Tally>();
  for (const check of report.checks) {
    for (const [operationId, tally] of Object.entries(check.operations)) {
      const total = operations.get(operationId) ?? { passed: 0, failed: 0 };
      total.passed += tally.passed;
      total.failed += tally.failed;
      operations.set(operationId, total);
    }
  }
  return operations;
}

/** One line per operation judged, then the operations not run and why. */
function operationLines(report: RunReport): string[] {
  const operations = operationTotals(report);
  const lines: string[] = [];
  if (operations.size > 0) {
    lines.push("", "Operations:");
    const width = Math.max(...[...operations.keys()].map((k) => k.length));
    for (const [operationId, total] of [...operations.entries()].sort(([a], [b]) => a.localeCompare(b))) {
      const failedChecks = report.failures.filter((f) => f.operationId === operationId).map((f) => f.check);
      const failed = failedChecks.length ? `, failed: ${failedChecks.join(", ")}` : "";
      const mark = total.failed > 0 ? "✗" : "✓";
      lines.push(`  ${mark} ${operationId.padEnd(width)}  ${total.passed + total.failed} check results${failed}`);
    }
  }
  for (const skipped of report.skippedOperations) lines.push(`  - ${skipped.operationId}: not run, ${skipped.reason}`);
  return lines;
}

function failureLines(report: RunReport): string[] {
  if (report.failures.length === 0) return [];
  const lines = ["", `Failures (${report.failures.length}):`];
  report.failures.forEach((failure, index) => {
    const known = failure.known ? "(known, in the baseline) " : "";
    lines.push("", `${index + 1}. ${known}${describeFailure(failure)}`);
  });
  return lines;
}

function baselineLines(report: RunReport): string[] {
  if (!report.baseline) return [];
  const { file, known, fixed, unseen, seed } = report.baseline;
  const notSeen = unseen.length > 0 ? `, ${unseen.length} not seen` : "";
  const fresh = report.failures.filter((f) => !f.known).length;
  const lines = [
    "",
    `Baseline ${file}: ${known.length} known failure(s), ${fixed.length} fixed${notSeen}, ${fresh} new`,
  ];
  for (const entry of fixed) lines.push(`  ✓ fixed: ${entry.key}`);
  // Random data of another seed may simply not have sent a case that shows them.
  const again = `found by random data of seed ${seed} (--seed ${seed} sends it again)`;
  for (const entry of unseen) lines.push(`  ? not seen with seed ${report.seed}, ${again}: ${entry.key}`);
  return lines;
}

function warningLines(report: RunReport): string[] {
  if (report.warnings.length === 0) return [];
  const heading = `Warnings (a constraint marked x-assumption was broken; not failures unless --strict; ${report.warnings.length}):`;
  const lines = ["", heading];
  for (const warning of report.warnings)
    lines.push(
      `  ⚠ ${warning.check} on ${warning.operationId}: ${warning.message}${times(warning.occurrences)}`,
      `      assumption: ${warning.assumption}`,
    );
  return lines;
}

function observationLines(report: RunReport): string[] {
  if (report.observations.length === 0) return [];
  const lines = ["", `Observations (gaps in the contract, never failures; ${report.observations.length}):`];
  for (const observation of report.observations) {
    const on = observation.operations.join(", ");
    lines.push(`  • ${observation.detail}${times(observation.count)}, on ${on}`);
    for (const entry of observation.undocumented) lines.push(`      sheds light on: ${entry}`);
  }
  return lines;
}

function resourceLines(report: RunReport): string[] {
  if (report.resources.length === 0) return [];
  const lines = ["", "Resources created by this run:"];
  for (const resource of report.resources) {
    const state = resource.state === "deleted" ? "✓ deleted" : "! LEFT BEHIND";
    const note = resource.note ? `: ${resource.note}` : "";
    lines.push(`  ${state}  ${resource.kind} ${resource.id ?? "(no id)"} (by ${resource.createdBy})${note}`);
  }
  return lines;
}

/** The console summary: per check, per operation, the failures with reproductions, observations and resources. */
export function consoleReport(report: RunReport, redact: (text: string) => string): string {
  const out = [
    ...checkLines(report),
    ...operationLines(report),
    ...passiveConsoleLines(report.passive),
    ...(report.coverage ? ["", ...coverageLines(report.coverage)] : []),
    ...budgetLines(report.budget),
    ...failureLines(report),
    ...baselineLines(report),
    ...(report.overlay ? ["", overlayLines(report.overlay).trimEnd()] : []),
    ...warningLines(report),
    ...observationLines(report),
    ...resourceLines(report),
  ];
  return redact(out.join("\n")) + "\n";
}
