// `contracts conform merge <json...>`: joins the JSON reports of the shards of one run (--shard i/n, one CI job
// each) into one report, as if one process had done the whole work: tallies are summed per check and operation, a
// check counts as skipped only if every shard skipped it, and a check that could not run in any shard could not run.
import { readFileSync, writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { UsageError } from "../../lib/cli.js";
import { type ConformConsole, PROCESS_CONSOLE } from "./console.js";
import type { Observation } from "../judge/observations.js";
import { mergeCoverage } from "./coverage.js";
import { mergeBudgets } from "./budget-report.js";
import { htmlReport } from "./report-html.js";
import { consoleReport } from "./console-report.js";
import { junitReport } from "./junit.js";
import { type CheckResult, jsonReport, type RunReport, verdict } from "./report.js";
import type { FailureRecord, WarningRecord } from "./ledger.js";

/** One check over every shard: tallies summed per operation; skipped only if every shard skipped it. */
function mergeCheck(check: CheckResult, reports: RunReport[]): CheckResult {
  const all = reports
    .map((r) => r.checks.find((c) => c.name === check.name))
    .filter((c): c is CheckResult => c !== undefined);
  const operations: CheckResult["operations"] = {};
  for (const part of all) {
    for (const [operationId, tally] of Object.entries(part.operations)) {
      const sum = (operations[operationId] ??= { passed: 0, failed: 0 });
      sum.passed += tally.passed;
      sum.failed += tally.failed;
    }
  }
  const merged: CheckResult = {
    name: check.name,
    catches: check.catches,
    passed: all.reduce((n, c) => n + c.passed, 0),
    failed: all.reduce((n, c) => n + c.failed, 0),
    operations: Object.fromEntries(Object.entries(operations).sort(([a], [b]) => a.localeCompare(b))),
  };
  const couldNotRun = all.find((c) => c.couldNotRun)?.couldNotRun;
  const notReached = [...new Set(all.flatMap((c) => (c.notReached ? [c.notReached] : [])))];
  if (notReached.length > 0) merged.notReached = notReached.join("; ");
  if (couldNotRun) merged.couldNotRun = couldNotRun;
  else if (merged.passed + merged.failed === 0 && all.every((c) => c.skipped)) merged.skipped = all[0]!.skipped;
  return merged;
}

export function mergeReports(reports: RunReport[]): RunReport {
  const [first] = reports;
  if (!first) throw new UsageError("contracts conform merge needs at least one JSON report");
  for (const report of reports)
    if (report.api !== first.api) throw new UsageError(`cannot merge reports of ${first.api} and ${report.api}`);
  const checks = first.checks.map((check) => mergeCheck(check, reports));
  const failures = new Map<string, FailureRecord>();
  for (const failure of reports.flatMap((r) => r.failures)) {
    const key = `${failure.check} ${failure.operationId}`;
    const existing = failures.get(key);
    if (existing) existing.occurrences += failure.occurrences;
    else failures.set(key, { ...failure });
  }
  const warnings = new Map<string, WarningRecord>();
  for (const warning of reports.flatMap((r) => r.warnings ?? [])) {
    const key = `${warning.check} ${warning.operationId} ${warning.assumption}`;
    const existing = warnings.get(key);
    if (existing) existing.occurrences += warning.occurrences;
    else warnings.set(key, { ...warning });
  }
  const observations = new Map<string, Observation>();
  for (const observation of reports.flatMap((r) => r.observations)) {
    const key = `${observation.kind} ${observation.detail}`;
    const existing = observations.get(key);
    if (existing) {
      existing.count += observation.count;
      for (const operationId of observation.operations)
        if (!existing.operations.includes(operationId)) existing.operations.push(operationId);
    } else observations.set(key, { ...observation, operations: [...observation.operations] });
  }
  const skippedOperations = first.skippedOperations.filter((s) =>
    reports.every((r) => r.skippedOperations.some((o) => o.operationId === s.operationId)),
  );
  return {
    ...first,
    shard: reports.map((r) => r.shard ?? "whole").join(" + "),
    startedAt: reports.map((r) => r.startedAt).sort()[0]!,
    finishedAt: reports
      .map((r) => r.finishedAt)
      .sort()
      .at(-1)!,
    interrupted: reports.some((r) => r.interrupted),
    requests: reports.reduce((n, r) => n + r.requests, 0),
    checks,
    skippedOperations,
    failures: [...failures.values()],
    warnings: [...warnings.values()],
    refusalPages: reports.flatMap((r) => r.refusalPages ?? []),
    observations: [...observations.values()],
    resources: reports.flatMap((r) => r.resources),
    baseline: undefined,
    coverage: reports.every((r) => r.coverage) ? mergeCoverage(reports.map((r) => r.coverage!)) : undefined,
    budget: reports.every((r) => r.budget) ? mergeBudgets(reports.map((r) => r.budget!)) : undefined,
    // Every shard's recorded exchanges (--from-json judges the merged run); none when a shard did not record them.
    exchanges: reports.every((r) => r.exchanges) ? reports.flatMap((r) => r.exchanges!) : undefined,
  };
}

export const MERGE_USAGE = `contracts conform merge <report.json>... [--json <file>] [--junit <file>] [--html <file>]
  Join the JSON reports of the shards of one run (contracts conform ... --shard i/n --json <file>) into one report;
  prints it and exits 1 when it holds a failure not in the baseline or a check that could not run.
`;

export function runMergeCommand(argv: string[], io: ConformConsole = PROCESS_CONSOLE): number {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      json: { type: "string" },
      junit: { type: "string" },
      html: { type: "string" },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  if (values.help) {
    io.out(MERGE_USAGE);
    return 0;
  }
  if (positionals.length === 0) throw new UsageError("contracts conform merge needs the JSON reports to join");
  const reports = positionals.map((file) => {
    try {
      return JSON.parse(readFileSync(file, "utf8")) as RunReport;
    } catch (error) {
      throw new UsageError(
        `cannot read the report ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
      );
    }
  });
  const merged = mergeReports(reports);
  // The reports were redacted when they were written; nothing here adds a secret.
  const same = (text: string) => text;
  io.out(consoleReport(merged, same));
  if (values.json) writeFileSync(values.json, jsonReport(merged, same));
  if (values.junit) writeFileSync(values.junit, junitReport(merged, same));
  if (values.html) writeFileSync(values.html, htmlReport(merged, same));
  const { newFailures, couldNotRun, checkedNothing } = verdict(merged);
  const nothing = checkedNothing ? "; nothing was checked: every selected check was skipped" : "";
  const counts = `${newFailures.length} failure(s), ${couldNotRun.length} check(s) that could not run`;
  io.err(
    `contracts conform merge: ${reports.length} report(s) of ${merged.api}, ${merged.requests} requests, ${counts}${nothing}\n`,
  );
  return newFailures.length > 0 || couldNotRun.length > 0 || checkedNothing ? 1 : 0;
}
