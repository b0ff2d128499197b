// Known deviations: a baseline file lists the causes of failure a team has accepted for now, so that the runner can
// be adopted on a deployment that is not clean yet and still fail on every new regression. A failure is known when
// its cause (causes.ts: check, where, normalized reason) is in the file; the key leaves out everything that changes
// between runs, seeds and operations (numbers, ids, quoted values, URLs, array positions, the schema's name), so the
// same deviation has the same key every time, and one accepted cause stays accepted on every operation it fails.
// Files written before causes keep a key per operation (check | operation | where | reason), files written before
// located causes a reason where a located failure now has its place (check | where | reason): both still match.
import { readFileSync, writeFileSync } from "node:fs";
import { UsageError } from "../../lib/cli.js";
import { causeOf, normalizeReason, reasonKey } from "./causes.js";
import type { FailureRecord } from "./ledger.js";

export { normalizeReason };

export interface BaselineEntry {
  key: string;
  check: string;
  /** The operations the cause failed on when the file was written. */
  operations?: string[];
  /** Files written before causes: the one operation of a per-operation key. */
  operationId?: string;
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

/** A failure's key in files written before causes: `check | operation | where | normalized reason`. */
function operationKey(failure: Pick<FailureRecord, "check" | "operationId" | "where" | "message">): string {
  return [
    failure.check,
    failure.operationId,
    normalizeReason(failure.where ?? ""),
    normalizeReason(failure.message),
  ].join(" | ");
}

/** The keys a baseline may list a failure by: its cause, and those of files written by older versions. */
function keysOf(failure: FailureRecord): string[] {
  return [failure.key ?? causeOf(failure), reasonKey(failure), operationKey(failure)];
}

/**
 * Whether the baseline lists this failure: the progress line marks it as the report will, known, before the run
 * ends. The same test as applyBaseline's.
 */
export function baselineLists(baseline: BaselineFile): (failure: FailureRecord) => boolean {
  const keys = new Set(baseline.failures.map((f) => f.key));
  return (failure) => keysOf(failure).some((key) => keys.has(key));
}

/** The entries of a run's failures, one per cause, with the operations each failed on. */
function fileEntries(failures: readonly FailureRecord[]): BaselineEntry[] {
  const entries = new Map<string, BaselineEntry>();
  for (const failure of failures) {
    const key = failure.key ?? causeOf(failure);
    const [check, where, reason] = key.split(" | ");
    const entry = entries.get(key);
    if (entry) {
      if (!entry.operations!.includes(failure.operationId)) entry.operations!.push(failure.operationId);
      // Found by a fixed case on one operation: another seed shows the cause too.
      if (!failure.seeded) delete entry.seeded;
    } else
      entries.set(key, {
        key,
        check: check!,
        operations: [failure.operationId],
        where: where!,
        reason: reason!,
        ...(failure.seeded ? { seeded: true as const } : {}),
      });
  }
  for (const entry of entries.values()) entry.operations!.sort((a, b) => a.localeCompare(b));
  return [...entries.values()];
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
  const baseline: BaselineFile = {
    description:
      "Known causes of failure of `contracts conform`: a failure whose cause is listed is reported as known and does not fail the run, on any operation. Rewrite with --update-baseline.",
    seed,
    failures: fileEntries(failures).sort((a, b) => a.key.localeCompare(b.key)),
  };
  writeFileSync(file, `${JSON.stringify(baseline, null, 2)}\n`);
  return baseline;
}

/**
 * Marks this run's known failures and finds the fixed ones. `ran(check, operationId)` says whether the run exercised
 * that check on that operation: an entry whose check ran on none of its operations is neither known nor fixed. An
 * entry found by random data is fixed only for a run of the baseline's seed, which sends the same data; otherwise it
 * is unseen.
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
    const matched = keysOf(failure).filter((key) => keys.has(key));
    for (const key of keysOf(failure)) seen.add(key);
    if (matched.length > 0) {
      failure.known = true;
      if (!known.includes(matched[0]!)) known.push(matched[0]!);
    }
  }
  const ranOn = (entry: BaselineEntry) =>
    (entry.operations ?? (entry.operationId ? [entry.operationId] : [])).some((op) => ran(entry.check, op));
  const notSeen = baseline.failures.filter((entry) => !seen.has(entry.key) && ranOn(entry));
  const sameCases = (entry: BaselineEntry) => !entry.seeded || baseline.seed === seed;
  return {
    file,
    known,
    fixed: notSeen.filter(sameCases),
    unseen: notSeen.filter((entry) => !sameCases(entry)),
    ...(baseline.seed !== undefined ? { seed: baseline.seed } : {}),
  };
}
