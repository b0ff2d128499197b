// Known deviations: a baseline file lists failures a team has accepted for now, so that the runner can be adopted on
// a deployment that is not clean yet and still fail on every new regression. A failure is known when its key (check,
// operation, where, normalized reason) is in the file; the key leaves out everything that changes between runs and
// seeds (numbers, ids, quoted values, URLs, array positions), so the same deviation has the same key every time.
import { readFileSync, writeFileSync } from "node:fs";
import { UsageError } from "../lib/cli.js";
import type { FailureRecord } from "./session.js";

export interface BaselineEntry {
  key: string;
  check: string;
  operationId: string;
  where: string;
  reason: string;
}

export interface BaselineFile {
  /** What the file is, for whoever opens it. */
  description: string;
  failures: BaselineEntry[];
}

export interface BaselineOutcome {
  file: string;
  /** Keys of this run's failures that the baseline lists: reported, not failing. */
  known: string[];
  /** Baseline entries this run did not see fail although it ran their check on their operation. */
  fixed: BaselineEntry[];
}

/** The reason with run-specific values replaced by placeholders. */
export function normalizeReason(message: string): string {
  return message
    .replace(/https?:\/\/[^\s"',)]+/g, "<url>")
    .replace(/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, "<uuid>")
    .replace(/"(?:[^"\\]|\\.)*"/g, "<value>")
    .replace(/\/\d+(?=\/|\b)/g, "/*")
    .replace(/-?\d+(\.\d+)?/g, "<n>")
    .replace(/\s+/g, " ")
    .trim();
}

export function baselineEntry(failure: Pick<FailureRecord, "check" | "operationId" | "where" | "message">): BaselineEntry {
  const where = normalizeReason(failure.where ?? "");
  const reason = normalizeReason(failure.message);
  return { key: [failure.check, failure.operationId, where, reason].join(" | "), check: failure.check, operationId: failure.operationId, where, reason };
}

export function readBaseline(file: string): BaselineFile {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw new UsageError(`cannot read the baseline ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  let parsed: Partial<BaselineFile>;
  try {
    parsed = JSON.parse(text) as Partial<BaselineFile>;
  } catch {
    throw new UsageError(`the baseline ${file} is not JSON; write it with --update-baseline`);
  }
  if (!Array.isArray(parsed.failures) || parsed.failures.some((f) => typeof f?.key !== "string")) throw new UsageError(`the baseline ${file} has no "failures" list of keys; write it with --update-baseline`);
  return { description: String(parsed.description ?? ""), failures: parsed.failures };
}

export function writeBaseline(file: string, failures: FailureRecord[]): BaselineFile {
  const entries = new Map(failures.map((f) => baselineEntry(f)).map((e) => [e.key, e]));
  const baseline: BaselineFile = {
    description: "Known failures of `contracts conform`: listed failures are reported as known and do not fail the run. Rewrite with --update-baseline.",
    failures: [...entries.values()].sort((a, b) => a.key.localeCompare(b.key)),
  };
  writeFileSync(file, `${JSON.stringify(baseline, null, 2)}\n`);
  return baseline;
}

/**
 * Marks this run's known failures and finds the fixed ones. `ran(check, operationId)` says whether the run exercised
 * that check on that operation: an entry whose check did not run is neither known nor fixed.
 */
export function applyBaseline(file: string, baseline: BaselineFile, failures: FailureRecord[], ran: (check: string, operationId: string) => boolean): BaselineOutcome {
  const keys = new Set(baseline.failures.map((f) => f.key));
  const known: string[] = [];
  const seen = new Set<string>();
  for (const failure of failures) {
    const key = baselineEntry(failure).key;
    seen.add(key);
    if (keys.has(key)) {
      failure.known = true;
      known.push(key);
    }
  }
  const fixed = baseline.failures.filter((entry) => !seen.has(entry.key) && ran(entry.check, entry.operationId));
  return { file, known, fixed };
}
