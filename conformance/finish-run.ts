// The end of every `contracts conform` run, active or from recorded traffic: the report files it will write are
// checked before it starts, then the baseline and overlay are applied, the reports written and the exit code chosen.
import { accessSync, constants, existsSync, mkdirSync, statSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { UsageError } from "../lib/cli.js";
import type { ApiName } from "../lib/contract/index.js";
import type { ConformValues } from "./cli-options.js";
import { markKnownBehaviours, overlayOutcome } from "./overlay/outcome.js";
import { applyBaseline, type readBaseline, writeBaseline } from "./report/baseline.js";
import { causesSummary, groupCauses, knownCauses, knownWhere } from "./report/causes.js";
import type { ConformConsole } from "./report/console.js";
import { consoleReport } from "./report/console-report.js";
import { junitReport } from "./report/junit.js";
import { checkRan, jsonReport, type RunReport, verdict } from "./report/report.js";
import { htmlReport } from "./report/report-html.js";
import type { Secrets } from "./report/secrets.js";

/** A report file the run will write: checked before the run, which could take long and then lose its report. */
export function checkWritable(file: string | undefined, flag: string): void {
  if (file === undefined) return;
  const directory = dirname(file);
  // `--junit reports/x.xml` in a project that has no reports/ yet (the guides' commands, run outside this checkout):
  // the directory is made, as `mkdir -p` would.
  try {
    mkdirSync(directory, { recursive: true });
  } catch (error) {
    throw new UsageError(
      `${flag} ${file}: cannot create the directory ${directory} (${(error as NodeJS.ErrnoException).code})`,
    );
  }
  let isDirectory = false;
  try {
    isDirectory = statSync(directory).isDirectory();
    accessSync(directory, constants.W_OK);
    if (existsSync(file)) accessSync(file, constants.W_OK);
  } catch {
    throw new UsageError(
      isDirectory
        ? `${flag} ${file}: cannot write there`
        : `${flag} ${file}: the directory ${directory} does not exist`,
    );
  }
  if (!isDirectory) throw new UsageError(`${flag} ${file}: ${directory} is not a directory`);
}

/** Where a run's reports go, and what they are judged against: `contracts conform`'s options, the proxy's too. */
export interface ReportOptions {
  overlay?: string;
  baseline?: string;
  json?: string;
  junit?: string;
  html?: string;
  verbose?: boolean;
}

/**
 * Marks the failures the overlay knows, applies the baseline, then prints the console report and writes the report
 * files: the same for every run, active, from recorded traffic or through the proxy.
 */
export function writeReports(
  api: ApiName,
  report: RunReport,
  options: ReportOptions,
  baseline: ReturnType<typeof readBaseline> | undefined,
  redact: (text: string) => string,
  out: (text: string) => void,
): void {
  const ran = checkRan(report);
  if (options.overlay) markKnownBehaviours(api, report.failures);
  if (baseline && options.baseline)
    report.baseline = applyBaseline(options.baseline, baseline, report.failures, ran, report.seed);
  if (options.overlay)
    report.overlay = overlayOutcome(api, options.overlay, {
      baseUrl: report.baseUrl,
      exchanges: report.exchanges ?? [],
      failures: report.failures,
      ran,
    });
  out(consoleReport(report, redact, { verbose: options.verbose }));
  if (options.json) writeFileSync(options.json, jsonReport(report, redact));
  if (options.junit) writeFileSync(options.junit, junitReport(report, redact));
  if (options.html) writeFileSync(options.html, htmlReport(report, redact));
}

/** Writes the reports (writeReports) and returns the exit code. */
export function finishRun(
  api: ApiName,
  report: RunReport,
  values: ConformValues,
  baseline: ReturnType<typeof readBaseline> | undefined,
  secrets: Secrets,
  io: ConformConsole,
): number {
  writeReports(
    api,
    report,
    values,
    baseline,
    (text) => secrets.redact(text),
    (text) => io.out(text),
  );
  const leftBehind = report.resources.filter((r) => r.state !== "deleted").length;
  const tail = leftBehind ? `; ${leftBehind} created resource(s) left behind, listed above` : "";
  if (report.interrupted) {
    io.err(`contracts conform: interrupted after ${report.requests} requests${tail}\n`);
    return 130;
  }
  if (values["update-baseline"] && values.baseline) {
    const written = writeBaseline(values.baseline, report.failures, report.seed);
    io.err(
      `contracts conform: wrote ${written.failures.length} known failure(s) of ${api} to ${values.baseline}${tail}\n`,
    );
    return 0;
  }
  const { newFailures, couldNotRun, checkedNothing } = verdict(report);
  // One line per reason, not per check: a failed sign-in stops twenty flow checks for the same reason.
  const byReason = new Map<string, string[]>();
  for (const check of couldNotRun)
    byReason.set(check.couldNotRun!, [...(byReason.get(check.couldNotRun!) ?? []), check.name]);
  for (const [reason, names] of byReason) {
    io.err(
      names.length === 1
        ? `contracts conform: ${names[0]} applies but could not run: ${reason} (exclude it with --exclude-check ${names[0]})\n`
        : `contracts conform: ${names.length} checks apply but could not run: ${reason} (${names.join(", ")})\n`,
    );
  }
  // The same counts as the console's verdict line and its "Failures by cause" heading.
  const causes = groupCauses(api, report.failures);
  const known = causes.filter((c) => c.known).length;
  const knownText = known ? `; ${knownCauses(known, knownWhere(report.failures))}` : "";
  if (newFailures.length > 0) {
    io.err(`contracts conform: ${causesSummary(causes.filter((c) => !c.known))} on ${api}${knownText}${tail}\n`);
    return 1;
  }
  if (couldNotRun.length > 0) {
    io.err(`contracts conform: ${couldNotRun.length} check(s) on ${api} could not run${knownText}${tail}\n`);
    return 1;
  }
  // A shard may hold no work of its own; the merged report is judged as a whole.
  if (checkedNothing && report.shard === undefined) {
    io.err(
      `contracts conform: nothing on ${api} was checked: every selected check was skipped (the reasons are listed above)${tail}\n`,
    );
    return 1;
  }
  if (known) {
    io.err(`contracts conform: no new failures on ${api} (${report.requests} requests)${knownText}${tail}\n`);
    return 0;
  }
  io.err(`contracts conform: no failures on ${api} (${report.requests} requests)${tail}\n`);
  return 0;
}
