// Failures grouped by cause: a cause is a behaviour. A deployment whose code drifted from its docs fails one way on
// many operations (an integer `error` on every list, a renamed key); the report shows that as one block, not one per
// operation. The cause key is the check, where in the request the case breaks the contract, and what the response
// does: for a failure the judge located (a schema location, conformance/judge/response-conformance.ts), that place and
// its keywords (`/error type+const`), so the same field broken the same way is one cause wherever it appears, whatever
// else the body breaks beside it; otherwise the reason with what differs between operations and runs left out: ids,
// numbers, quoted values, URLs, requests, the name of each operation's response schema and its documented statuses.
// Causes are numbered once, new ones first (groupCauses): every report and the progress line use that numbering.
// The baseline (baseline.ts) keeps its entries by this key; an overlay's deviations (conformance/overlay) are grouped
// by it too.
import { type ApiName, canonicalContract } from "../../lib/contract/index.js";
import { escapeRegExp } from "../../lib/regexp.js";
import { readSeedSentenceTable, type SeedName, type SeedSentence } from "../seed-sentences.js";
import type { FailureRecord } from "./ledger.js";

/**
 * What makes a cause: of a failure (or of a verdict, which has the same fields), its check, where and reason; of a
 * deviation an overlay records (conformance/overlay/deviations.ts), its check and the schema location it breaks; of
 * an undocumented answer it records (conformance/overlay/responses.ts), its check, status and media type.
 */
export type CauseInput =
  | Pick<FailureRecord, "check" | "message" | "where" | "place">
  | { check: string; location: string }
  | { check: string; status: number; mediaType: string };

/**
 * The reason with run-specific values replaced by placeholders (ids, numbers, quoted values, URLs, positions).
 * A request (`DELETE <url>`, `GET /api/domains`) names where a behaviour showed, not the behaviour: one 405 page on
 * every path is one cause.
 */
export function normalizeReason(message: string): string {
  return message
    .replace(/https?:\/\/[^\s"',)]+/g, "<url>")
    .replace(/\b(?:GET|HEAD|POST|PUT|PATCH|DELETE|OPTIONS|TRACE|CONNECT) (?:<url>|\/[^\s"',)]*)/g, "<request>")
    .replace(/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, "<uuid>")
    .replace(/"(?:[^"\\]|\\.)*"/g, "<value>")
    .replace(/\/\d+(?=\/|\b)/g, "/*")
    .replace(/-?\d+(\.\d+)?/g, "<n>")
    .replace(/\s+/g, " ")
    .trim();
}

/** The reason without what names the operation rather than the fault: its schema's name, its documented statuses. */
export function causeReason(message: string): string {
  return normalizeReason(
    message.replace(/\bdoes not match [\w.-]+:/g, "does not match <schema>:").replace(/ \(documented: [^)]*\)/g, ""),
  );
}

/**
 * The cause of a failure, `check | where | place` (located) or `check | where | reason`, of a deviation,
 * `check | schema location`, or of an undocumented answer, `check | status 500 text/html`: the same for the same
 * fault on any operation, in any run. A schema location is the same in every run as it is, and is kept whole: two
 * branches of a union (`anyOf/0`, `anyOf/1`) are two places an overlay changes, two causes.
 */
export function causeOf(input: CauseInput): string {
  if ("status" in input)
    return [input.check, `status ${input.status} ${input.mediaType || "without a body"}`].join(" | ");
  if ("location" in input) return [input.check, input.location].join(" | ");
  if (input.place) return [input.check, normalizeReason(input.where ?? ""), placeText(input.place)].join(" | ");
  return reasonKey(input);
}

/** `/error type`: a located failure's place in its cause key. */
const placeText = (place: NonNullable<FailureRecord["place"]>) => `${place.location} ${place.keyword}`;

/**
 * The key of a failure from its reason alone, `check | where | reason`: the cause of one the judge did not locate,
 * and what baselines written before located causes keep for one it did (baseline.ts still matches them).
 */
export function reasonKey(input: Pick<FailureRecord, "check" | "message" | "where">): string {
  return [input.check, normalizeReason(input.where ?? ""), causeReason(input.message)].join(" | ");
}

export interface Cause {
  key: string;
  check: string;
  /** The failures' message when they all say the same, else the normalized reason they share. */
  message: string;
  /** The operations it fails, sorted. */
  operations: string[];
  /** Failing results of all its operations. */
  results: number;
  /** The seed sentences and standard sections it breaks, quoted. */
  breaks: string[];
  /** Every failure of every operation is in the baseline. */
  known: boolean;
  /** The failure whose request reproduces it (the first one recorded). */
  reproduction: FailureRecord;
  failures: FailureRecord[];
}

/**
 * The run's failures by cause, numbered as every report numbers them: the new causes, then the known ones (in the
 * baseline), each in the order its first failure was recorded, which is the order the progress line found them in.
 */
export function groupCauses(api: ApiName, failures: readonly FailureRecord[]): Cause[] {
  const byKey = new Map<string, FailureRecord[]>();
  for (const failure of failures) {
    // The ledger's key: fixed when the failure was first recorded, so a shrunk reproduction keeps its cause.
    const key = failure.key ?? causeOf(failure);
    byKey.set(key, [...(byKey.get(key) ?? []), failure]);
  }
  const causes = [...byKey.entries()].map(([key, group]): Cause => {
    const first = group[0]!;
    const same = group.every((f) => f.message === first.message);
    return {
      key,
      check: first.check,
      message: same ? first.message : causeReason(first.message),
      operations: [...new Set(group.map((f) => f.operationId))].sort((a, b) => a.localeCompare(b)),
      results: group.reduce((n, f) => n + f.occurrences, 0),
      breaks: whatItBreaks(api, first),
      known: group.every((f) => f.known),
      reproduction: first,
      failures: group,
    };
  });
  return [...causes.filter((c) => !c.known), ...causes.filter((c) => c.known)];
}

/** Where known failures are listed: `baseline`, `overlay` (its x-known-behaviours) or `baseline and overlay`. */
export function knownWhere(failures: readonly FailureRecord[]): string {
  const overlay = failures.some((f) => f.known && f.knownFrom === "overlay");
  const baseline = failures.some((f) => f.known && f.knownFrom !== "overlay");
  return overlay && baseline ? "baseline and overlay" : overlay ? "overlay" : "baseline";
}

/**
 * What the console's heading, the HTML report and the run's last line say of its causes:
 * `2 causes of failure across 9 operations (27 failing results); 22 known causes (in the baseline)`, or
 * `no new causes of failure; 22 known causes (in the baseline)`.
 */
export function causesHeadline(causes: readonly Cause[]): string {
  const fresh = causes.filter((c) => !c.known);
  const known = causes.filter((c) => c.known);
  const news = fresh.length > 0 ? causesSummary(fresh) : "no new causes of failure";
  return known.length > 0
    ? `${news}; ${knownCauses(known.length, knownWhere(known.flatMap((c) => c.failures)))}`
    : news;
}

/** `22 known causes (in the baseline)`, or in the overlay (its x-known-behaviours). */
export const knownCauses = (count: number, where = "baseline") =>
  `${count} known cause${count === 1 ? "" : "s"} (in the ${where})`;

/** `3 causes of failure across 9 operations (27 failing results)`. */
export function causesSummary(causes: readonly Cause[]): string {
  const operations = new Set(causes.flatMap((c) => c.operations)).size;
  const results = causes.reduce((n, c) => n + c.results, 0);
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
  return `${plural(causes.length, "cause")} of failure across ${plural(operations, "operation")} (${plural(results, "failing result")})`;
}

/** The standard sections a check's message cites: `RFC 6749 §5.2`, `OpenID Connect Core §3.1.2.1`. */
function citations(message: string): string[] {
  const parts = [...message.matchAll(/\(([^()]*)\)/g)].flatMap((m) => m[1]!.split(/;\s*/));
  return [...new Set(parts.map((p) => p.trim()).filter((p) => /§|^RFC \d+/.test(p)))];
}

const SEED_OF: Record<ApiName, SeedName> = {
  identity: "identity",
  links: "links",
  catalog: "commerce",
  pay: "commerce",
};
let seedTable: SeedSentence[] | undefined;

/**
 * The seed-sentence table, which the code ships with (a clone and the published tools alike). Without it a report
 * would lose its `breaks:` lines and look complete, so a missing table fails the run instead.
 */
function sentences(): SeedSentence[] {
  seedTable ??= readSeedSentenceTable().sentences;
  return seedTable;
}

/** The fields a schema failure names (`/data/items/0/id must be integer` names `id`). */
function fieldsNamed(message: string): Set<string> {
  const paths = [...message.matchAll(/(?:^|[:;] )(\/[^\s;]+)/g)].map((m) => m[1]!);
  return new Set(
    paths.map((path) =>
      path
        .split("/")
        .filter((part) => part !== "" && !/^\d+$/.test(part))
        .pop()!,
    ),
  );
}

/**
 * The seed sentences a failure breaks: of the sentences its check tests, the table rows that name a field it names
 * (`| error | integer 0 or 1 ... |`); for a failure that names no field, the sentences of a check that tests one or
 * two (more would be a guess: the report points to the table); valid data refused, the operation's endpoint row; then
 * the standard sections it cites.
 */
function whatItBreaks(api: ApiName, failure: FailureRecord): string[] {
  const tested = sentences().filter((s) => s.seed === SEED_OF[api] && s.check === failure.check);
  const fields = fieldsNamed(failure.message);
  const firstCell = (s: SeedSentence) => /^\|\s*([^|]+?)\s*\|/.exec(s.text)?.[1];
  const naming = tested.filter((s) => fields.has(firstCell(s) ?? ""));
  // A schema failure on a field no sentence of its check names breaks the contract's shape, not one of them.
  const chosen = naming.length > 0 || fields.size > 0 || tested.length > 2 ? naming : tested;
  const quoted = chosen.map((s) => `${s.seed} seed: ${s.text}`);
  const many =
    chosen.length === 0 && fields.size === 0 && tested.length > 2
      ? [
          `${SEED_OF[api]} seed: one of the ${tested.length} sentences ${failure.check} tests (docs/guide/seed-sentences.md)`,
        ]
      : [];
  return [...quoted, ...many, ...endpointRow(api, failure), ...citations(failure.message)];
}

/**
 * Valid data refused breaks what the seed's endpoint table says the operation's request may carry: the row of its
 * method and path (`| POST | /api/campaign/add | body: name (string, optional), ... |`), the sentence of another check
 * in the table, which names one check per sentence.
 */
function endpointRow(api: ApiName, failure: FailureRecord): string[] {
  const operation =
    failure.check === "positive_data_acceptance"
      ? canonicalContract(api).findOperation(failure.operationId)
      : undefined;
  if (!operation) return [];
  const path = operation.path
    .split(/\{[^}]+\}/)
    .map(escapeRegExp)
    .join(":\\w+");
  const row = new RegExp(`^\\| ${operation.method.toUpperCase()} \\| ${path}(\\?[^|]*)? \\|`);
  return sentences()
    .filter((s) => s.seed === SEED_OF[api] && row.test(s.text))
    .map((s) => `${s.seed} seed: ${s.text}`);
}
