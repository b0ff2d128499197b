// The console summary of a run. One screen first: the verdict and one line per new cause (the known ones as one
// counted line), then the new causes in full with one reproduction each; then the baseline, the warnings, the
// observations folded into one line per kind, per check, per operation, the coverage and the budget, and the
// resources the run created. --verbose adds the known causes in full and every observation (the JSON and HTML reports
// hold them all). Each section is a function of the report alone; every text goes through the run's secret filter.
import { overlayLines } from "../overlay/outcome.js";
import { budgetLines } from "./budget-report.js";
import { type Cause, causesHeadline, groupCauses, knownCauses, knownWhere } from "./causes.js";
import { coverageLines } from "./coverage.js";
import type { FailureRecord, Tally } from "./ledger.js";
import type { BaselineEntry } from "./baseline.js";
import { type CheckResult, type RunReport, verdict } from "./report.js";
import { passiveConsoleLines } from "./recorded-traffic-lines.js";
import type { Observation } from "../judge/observations.js";

/** A failure as text: what failed, the request, the response and the reproduction. */
export function describeFailure(failure: FailureRecord): string {
  return [`${failure.check} on ${failure.operationId}: ${failure.message}`, ...exchangeLines(failure)].join("\n");
}

/** A failure's case, request, response and reproduction, indented under what failed. */
function exchangeLines(failure: FailureRecord): string[] {
  const repeated = failure.occurrences > 1 ? ` (${failure.occurrences} failing requests)` : "";
  const lines = [`  case: ${failure.case}${repeated}`];
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
  return lines;
}

/** A cause as text: the check and the reason, the operations it fails, what it breaks, and one reproduction. */
export function describeCause(cause: Cause): string {
  const example = cause.reproduction;
  const lines = [
    `${cause.check}: ${cause.message}`,
    `  on ${cause.operations.length} operation(s), ${cause.results} failing result(s): ${cause.operations.join(", ")}`,
    ...cause.breaks.map((text) => `  breaks: ${text}`),
  ];
  const exactly = example.message === cause.message ? "" : `: ${example.message}`;
  if (cause.operations.length > 1 || exactly) lines.push(`  reproduced on ${example.operationId}${exactly}`);
  return [...lines, ...exchangeLines(example)].join("\n");
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

/** The reasons checks could not run that several checks share (a failed sign-in stops every flow check): each once. */
export function sharedReasons(report: RunReport): Array<{ reason: string; checks: string[] }> {
  const byReason = new Map<string, string[]>();
  for (const check of report.checks)
    if (check.couldNotRun) byReason.set(check.couldNotRun, [...(byReason.get(check.couldNotRun) ?? []), check.name]);
  return [...byReason.entries()]
    .filter(([, checks]) => checks.length > 1)
    .map(([reason, checks]) => ({ reason, checks }));
}

/** A check's state in words, and its mark: ✓ passed, ✗ failed, ~ only known failures, ! could not run, - no result. */
function checkState(report: RunReport, check: CheckResult): { mark: string; state: string } {
  const allKnown = check.failed > 0 && report.failures.filter((f) => f.check === check.name).every((f) => f.known);
  const shared = sharedReasons(report).findIndex((r) => r.reason === check.couldNotRun);
  if (shared >= 0) return { mark: "!", state: `COULD NOT RUN: reason ${shared + 1} under "Could not run"` };
  if (check.couldNotRun) return { mark: "!", state: `COULD NOT RUN: ${check.couldNotRun}` };
  if (check.skipped) return { mark: "-", state: `skipped: ${check.skipped}` };
  if (check.failed > 0) {
    const failed = `${check.failed} of ${check.passed + check.failed}`;
    return allKnown
      ? {
          mark: "~",
          state: `known failures (${knownWhere(report.failures.filter((f) => f.check === check.name))}) ${failed}`,
        }
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

/**
 * One line per operation judged, with the cases of it that were not sent (held back by --max-writes, say) on the
 * same line: an operation that ran is never also listed as not run. Then the operations not run and why.
 */
function operationLines(report: RunReport): string[] {
  const operations = operationTotals(report);
  const causes = groupCauses(report.api, report.failures);
  const lines: string[] = [];
  if (operations.size > 0) {
    lines.push("", "Operations:");
    const width = Math.max(...[...operations.keys()].map((k) => k.length));
    for (const [operationId, total] of [...operations.entries()].sort(([a], [b]) => a.localeCompare(b))) {
      const failedCauses = causes.flatMap((c, i) => (c.operations.includes(operationId) ? [`${i + 1}`] : []));
      const failed = failedCauses.length ? `, failed: cause ${failedCauses.join(", ")}` : "";
      const notSent = report.skippedOperations.find((s) => s.operationId === operationId);
      const partly = notSent ? `; partly: ${notSent.reason}` : "";
      const mark = total.failed > 0 ? "✗" : "✓";
      lines.push(
        `  ${mark} ${operationId.padEnd(width)}  ${total.passed + total.failed} check results${failed}${partly}`,
      );
    }
  }
  for (const skipped of report.skippedOperations)
    if (!operations.has(skipped.operationId)) lines.push(`  - ${skipped.operationId}: not run, ${skipped.reason}`);
  return lines;
}

/** What the console shows in full: without --verbose, the new causes only. */
export interface ConsoleOptions {
  verbose?: boolean;
}

/**
 * The first lines: the verdict, then one line per cause as every report numbers them (new ones first); the known
 * ones are one counted line unless --verbose.
 */
function verdictLines(report: RunReport, causes: readonly Cause[], verbose: boolean): string[] {
  const { newFailures, couldNotRun, checkedNothing } = verdict(report);
  // A shard may hold no work of its own; the merged report is judged as a whole.
  const nothing = checkedNothing && report.shard === undefined;
  const failed = newFailures.length > 0 || couldNotRun.length > 0 || nothing;
  const state = report.interrupted ? "INTERRUPTED" : failed ? "FAILED" : "passed";
  const said = [
    causes.length > 0 ? causesHeadline(causes) : "no failures",
    ...(couldNotRun.length > 0 ? [`${couldNotRun.length} check(s) could not run (listed below)`] : []),
    ...(nothing ? ["nothing was checked: every selected check was skipped"] : []),
  ];
  const lines = [`conform ${report.api}: ${state}: ${said.join("; ")}`];
  const known = causes.filter((c) => c.known).length;
  causes.forEach((cause, index) => {
    if (cause.known && !verbose) return;
    const on = cause.operations.length === 1 ? cause.operations[0]! : `${cause.operations.length} operations`;
    const mark = cause.known ? "~ " : "";
    lines.push(`  ${index + 1}. ${mark}${cause.check} on ${on}: ${truncate(cause.message, 100)}`);
  });
  if (known > 0 && !verbose)
    lines.push(`  ~ ${knownCauses(known, knownWhere(report.failures))}, listed with --verbose`);
  return lines;
}

/**
 * One block per new cause, numbered, with one reproduction; the known ones with --verbose. The heading counts causes,
 * not results, as the verdict line and the run's last line do.
 */
function failureLines(causes: readonly Cause[], verbose: boolean): string[] {
  if (causes.length === 0) return [];
  const lines = ["", `Failures by cause: ${causesHeadline(causes)}`];
  causes.forEach((cause, index) => {
    if (cause.known && !verbose) return;
    const known = cause.known ? `(known, in the ${knownWhere(cause.failures)}) ` : "";
    lines.push("", `${index + 1}. ${known}${describeCause(cause)}`);
  });
  const known = causes.filter((c) => c.known).length;
  if (known > 0 && !verbose)
    lines.push(
      "",
      `${knownCauses(known, knownWhere(causes.flatMap((c) => c.failures)))}: in full with --verbose and in the HTML report`,
    );
  return lines;
}

/** The reasons several checks could not run for, each once with its checks. */
function couldNotRunLines(report: RunReport): string[] {
  const shared = sharedReasons(report);
  if (shared.length === 0) return [];
  const lines = ["", "Could not run (fails the run):"];
  shared.forEach(({ reason, checks }, index) =>
    lines.push(`  ${index + 1}. ${reason}`, `     ${checks.length} checks: ${checks.join(", ")}`),
  );
  return lines;
}

function baselineLines(report: RunReport): string[] {
  if (!report.baseline) return [];
  const { file, known, fixed, unseen, seed } = report.baseline;
  const notSeen = unseen.length > 0 ? `, ${unseen.length} not seen` : "";
  const fresh = report.failures.filter((f) => !f.known).length;
  const lines = [
    "",
    `Baseline ${file}: ${known.length} known cause(s), ${fixed.length} fixed${notSeen}, ${fresh} new failure(s)`,
  ];
  for (const entry of fixed) lines.push(`  ✓ fixed: ${entry.key}${entryOperations(entry)}`);
  // Random data of another seed may simply not have sent a case that shows them.
  const again = `found by random data of seed ${seed} (--seed ${seed} sends it again)`;
  for (const entry of unseen)
    lines.push(`  ? not seen with seed ${report.seed}, ${again}: ${entry.key}${entryOperations(entry)}`);
  return lines;
}

/** ` (on listDomains, listOverlays)`: where a baseline entry's cause failed when the file was written. */
export function entryOperations(entry: BaselineEntry): string {
  const operations = entry.operations ?? (entry.operationId ? [entry.operationId] : []);
  return operations.length > 0 ? ` (on ${operations.join(", ")})` : "";
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

/** What one kind of observation is, counted: `3 undocumented fields`. */
const OBSERVATION_KINDS: Record<Observation["kind"], [one: string, many: string]> = {
  "extra-field": ["undocumented field", "undocumented fields"],
  "undocumented-status": ["undocumented status", "undocumented statuses"],
  "undocumented-header": ["undocumented header", "undocumented headers"],
  "accepted-invalid": ["invalid request accepted", "invalid requests accepted"],
  deployment: ["fact about the deployment", "facts about the deployment"],
};

/** The observations: one line per kind with its counts, or (--verbose) each with the entries it sheds light on. */
function observationLines(report: RunReport, verbose: boolean): string[] {
  if (report.observations.length === 0) return [];
  const lines = ["", `Observations (gaps in the contract, never failures; ${report.observations.length}):`];
  if (verbose) {
    for (const observation of report.observations) {
      const on = observation.operations.join(", ");
      lines.push(`  • ${observation.detail}${times(observation.count)}, on ${on}`);
      for (const entry of observation.undocumented) lines.push(`      sheds light on: ${entry}`);
    }
    return lines;
  }
  for (const [kind, [one, many]] of Object.entries(OBSERVATION_KINDS)) {
    const ofKind = report.observations.filter((o) => o.kind === kind);
    if (ofKind.length === 0) continue;
    const operations = new Set(ofKind.flatMap((o) => o.operations)).size;
    const entries = new Set(ofKind.flatMap((o) => o.undocumented)).size;
    const light = entries > 0 ? `; sheds light on ${entries} x-undocumented entr${entries === 1 ? "y" : "ies"}` : "";
    const where = `on ${operations} operation${operations === 1 ? "" : "s"}`;
    const known = ofKind.filter((o) => o.known).length;
    const recorded = known > 0 ? `; ${known} known (in the overlay)` : "";
    lines.push(`  • ${ofKind.length} ${ofKind.length === 1 ? one : many} ${where}${light}${recorded}`);
  }
  lines.push("  each one, and the entries it sheds light on, with --verbose and in the HTML report");
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

/**
 * The console summary: the verdict and the causes first, the new causes in full, then the baseline, overlay,
 * warnings, observations, per check, per operation, coverage, budget and resources.
 */
export function consoleReport(
  report: RunReport,
  redact: (text: string) => string,
  { verbose = false }: ConsoleOptions = {},
): string {
  const causes = groupCauses(report.api, report.failures);
  const out = [
    ...verdictLines(report, causes, verbose),
    ...failureLines(causes, verbose),
    ...couldNotRunLines(report),
    ...baselineLines(report),
    ...(report.overlay ? ["", overlayLines(report.overlay).trimEnd()] : []),
    ...warningLines(report),
    ...observationLines(report, verbose),
    ...checkLines(report),
    ...operationLines(report),
    ...passiveConsoleLines(report.passive),
    ...(report.coverage ? ["", ...coverageLines(report.coverage)] : []),
    ...budgetLines(report.budget),
    ...resourceLines(report),
  ];
  return redact(out.join("\n")) + "\n";
}
