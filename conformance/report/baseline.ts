// Known deviations: a baseline file lists failures a team has accepted for now, so that the runner can be adopted on
// a deployment that is not clean yet and still fail on every new regression. A failure is known when its key (check,
// operation, where, normalized reason) is in the file; the key leaves out everything that changes between runs and
// seeds (numbers, ids, quoted values, URLs, array positions), so the same deviation has the same key every time.
import { readFileSync, writeFileSync } from "node:fs";
import { UsageError } from "../../lib/cli.js";
import type { FailureRecord } from "./ledger.js";

export interface BaselineEntry {
  key: string;
  check: string;
  operationId: string;
  where: string;
  reason: string;
  /** Found by random data of the baseline's seed: a run with another seed may not send a case that shows it. */
  seeded?: true;
}

export interface BaselineFile {
  /** What the file is, for whoever opens it. */
  description: string;
  /** The --seed of the run that wrote it: a run with the same seed sends the same random data. */
  seed?: number;
  failures: BaselineEntry[];
}

export interface BaselineOutcome {
  file: string;
  /** Keys of this run's failures that the baseline lists: reported, not failing. */
  known: string[];
  /** Baseline entries this run did not see fail although it ran their check on their operation, with the cases that
   * showed them: examples, boundaries and fixed steps, or random data of the baseline's own seed. */
  fixed: BaselineEntry[];
  /** Entries found by random data of another seed that this run did not see: not shown to be fixed. */
  unseen: BaselineEntry[];
  /** The seed of the run that wrote the baseline. */
  seed?: number;
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

export function baselineEntry(
  failure: Pick<FailureRecord, "check" | "operationId" | "where" | "message">,
): BaselineEntry {
  const where = normalizeReason(failure.where ?? "");
  const reason = normalizeReason(failure.message);
  return {
    key: [failure.check, failure.operationId, where, reason].join(" | "),
    check: failure.check,
    operationId: failure.operationId,
    where,
    reason,
  };
}

/** The entry as the baseline file keeps it: with whether random data found it. */
function fileEntry(failure: FailureRecord): BaselineEntry {
  return { ...baselineEntry(failure), ...(failure.seeded ? { seeded: true as const } : {}) };
}

export function readBaseline(file: string): BaselineFile {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw new UsageError(
      `cannot read the baseline ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
  let parsed: Partial<BaselineFile>;
  try {
    parsed = JSON.parse(text) as Partial<BaselineFile>;
  } catch {
    throw new UsageError(`the baseline ${file} is not JSON; write it with --update-baseline`);
  }
  if (!Array.isArray(parsed.failures) || parsed.failures.some((f) => typeof f?.key !== "string"))
    throw new UsageError(`the baseline ${file} has no "failures" list of keys; write it with --update-baseline`);
  return {
    description: String(parsed.description ?? ""),
    ...(typeof parsed.seed === "number" ? { seed: parsed.seed } : {}),
    failures: parsed.failures,
  };
}

export function writeBaseline(file: string, failures: FailureRecord[], seed: number): BaselineFile {
  const entries = new Map(failures.map(fileEntry).map((e) => [e.key, e]));
  const baseline: BaselineFile = {
    description:
      "Known failures of `contracts conform`: listed failures are reported as known and do not fail the run. Rewrite with --update-baseline.",
    seed,
    failures: [...entries.values()].sort((a, b) => a.key.localeCompare(b.key)),
  };
  writeFileSync(file, `${JSON.stringify(baseline, null, 2)}\n`);
  return baseline;
}

/**
 * Marks this run's known failures and finds the fixed ones. `ran(check, operationId)` says whether the run exercised
 * that check on that operation: an entry whose check did not run is neither known nor fixed. An entry found by random
 * data is fixed only for a run of the baseline's seed, which sends the same data; otherwise it is unseen.
 */
export function applyBaseline(
  file: string,
  baseline: BaselineFile,
  failures: FailureRecord[],
  ran: (check: string, operationId: string) => boolean,
  seed: number,
): BaselineOutcome {
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
  const notSeen = baseline.failures.filter((entry) => !seen.has(entry.key) && ran(entry.check, entry.operationId));
  const sameCases = (entry: BaselineEntry) => !entry.seeded || baseline.seed === seed;
  return {
    file,
    known,
    fixed: notSeen.filter(sameCases),
    unseen: notSeen.filter((entry) => !sameCases(entry)),
    ...(baseline.seed !== undefined ? { seed: baseline.seed } : {}),
  };
}
