// What the run reached and what it did not: per operation, the kinds of case sent (examples, boundaries, random
// data, each kind of mutation, credential probes, sequence steps), the statuses answered against the statuses the
// contract documents, and per kind the checks that judged it. Recorded as the judge sees each arrival and each
// verdict; summarized into the report's `coverage` section. An operation nothing was sent to is "not reached",
// whatever the reason.
import type { ApiName } from "../../lib/contract/index.js";
import type { CaseKind } from "../model/cases.js";
import { operationsOf } from "../contract/lookup.js";
import type { Tally } from "./ledger.js";
import type { Exchange } from "../model/exchange.js";
import { mergeNotReached, type NotReachedCases } from "./budget-report.js";

export interface KindCoverage {
  requests: number;
  /** The statuses answered to cases of this kind. */
  statuses: number[];
  /** check → its results on cases of this kind. */
  checks: Record<string, Tally>;
}

export interface OperationCoverage {
  operationId: string;
  method: string;
  path: string;
  reached: boolean;
  /** Why nothing was sent to it (not selected, another shard, a skipped operation, an interrupted run). */
  notReached?: string;
  /** The response codes the contract documents (`default` left out), and those of them some answer matched. */
  documentedStatuses: string[];
  documentedSeen: string[];
  /** Statuses answered that the contract does not document. */
  undocumentedSeen: number[];
  kinds: Partial<Record<CaseKind, KindCoverage>>;
  /** Planned cases the budget did not reach, by kind: not passed (budget-report.ts). */
  notReachedCases?: NotReachedCases[];
}

export interface CoverageReport {
  operations: { reached: number; total: number };
  statuses: { seen: number; documented: number };
  /** Every kind of case some operation was sent, in a stable order: the matrix's columns. */
  kinds: CaseKind[];
  byOperation: OperationCoverage[];
}

const KIND_ORDER = ["example", "boundary", "random data", "mutation", "no credentials", "wrong credentials"];

function kindRank(kind: string): number {
  const index = KIND_ORDER.findIndex((k) => kind === k || kind.startsWith(`${k}: `));
  return index === -1 ? KIND_ORDER.length : index;
}

function statusMatches(documented: string, status: number): boolean {
  const code = String(status);
  return /^\dXX$/i.test(documented) ? documented[0] === code[0] : documented === code;
}

/** Collects, as the run goes, what was sent to each operation and what judged it. */
export class CoverageLog {
  private readonly sentKinds = new WeakMap<Exchange, CaseKind>();
  /** operationId → kind → coverage */
  private readonly byOperation = new Map<string, Map<CaseKind, KindCoverage>>();

  private entry(operationId: string, kind: CaseKind): KindCoverage {
    const kinds = this.byOperation.get(operationId) ?? new Map<CaseKind, KindCoverage>();
    this.byOperation.set(operationId, kinds);
    const entry = kinds.get(kind) ?? { requests: 0, statuses: [], checks: {} };
    kinds.set(kind, entry);
    return entry;
  }

  /** A request was sent and answered (or not). Interrupted exchanges reached nothing. */
  sent(operationId: string, kind: CaseKind, exchange: Exchange): void {
    if (exchange.interrupted) return;
    this.sentKinds.set(exchange, kind);
    const entry = this.entry(operationId, kind);
    entry.requests += 1;
    const status = exchange.response?.status;
    if (status !== undefined && !entry.statuses.includes(status)) entry.statuses.push(status);
  }

  /**
   * A check judged an exchange. One the judge did not see arrive (identity's sign-in flows, a replay) is a sequence
   * step, counted as sent here; a result without an exchange is counted too, so an operation with results is reached.
   */
  judged(operationId: string, check: string, exchange: Exchange | undefined, passed: boolean): void {
    if (exchange && !this.sentKinds.has(exchange)) this.sent(operationId, "sequence step", exchange);
    const kind = (exchange && this.sentKinds.get(exchange)) ?? "sequence step";
    addTally(this.entry(operationId, kind).checks, check, passed ? { passed: 1, failed: 0 } : { passed: 0, failed: 1 });
  }

  /**
   * The coverage section. `notRun` says why an operation was left out (skipped operations); the rest of the
   * operations nothing was sent to are "not reached" with a generic reason, never passed.
   */
  report(
    api: ApiName,
    notRun: ReadonlyMap<string, string>,
    why = "no request of this run was sent to it",
    budgetLeftOut: ReadonlyMap<string, NotReachedCases[]> = new Map(),
  ): CoverageReport {
    const byOperation = operationsOf(api)
      .filter((op) => !op.webhook)
      .map((op): OperationCoverage => {
        const kinds = this.byOperation.get(op.operationId) ?? new Map<CaseKind, KindCoverage>();
        const reached = [...kinds.values()].some((k) => k.requests > 0 || Object.keys(k.checks).length > 0);
        const seen = [...kinds.values()].flatMap((k) => k.statuses);
        const documented = Object.keys(op.operation.responses ?? {}).filter((code) => code !== "default");
        const sorted = [...kinds.entries()].sort(([a], [b]) => byRank(a, b));
        return {
          operationId: op.operationId,
          method: op.method.toUpperCase(),
          path: op.path,
          reached,
          ...(reached ? {} : { notReached: notRun.get(op.operationId) ?? why }),
          documentedStatuses: documented,
          documentedSeen: documented.filter((code) => seen.some((status) => statusMatches(code, status))),
          undocumentedSeen: [...new Set(seen)]
            .filter((status) => !documented.some((code) => statusMatches(code, status)))
            .sort(),
          kinds: Object.fromEntries(
            sorted.map(([kind, entry]) => [kind, { ...entry, statuses: entry.statuses.sort() }]),
          ),
          ...(budgetLeftOut.has(op.operationId) ? { notReachedCases: budgetLeftOut.get(op.operationId) } : {}),
        };
      });
    return coverageOf(
      byOperation,
      byOperation.flatMap((op) => Object.keys(op.kinds) as CaseKind[]),
    );
  }
}

/** Kinds of case in the report's order: examples first, sequence steps last, alphabetical within a rank. */
const byRank = (a: CaseKind, b: CaseKind) => kindRank(a) - kindRank(b) || a.localeCompare(b);

/** The coverage section from its operations: how many were reached, the documented statuses seen, every kind. */
function coverageOf(byOperation: OperationCoverage[], kinds: CaseKind[]): CoverageReport {
  return {
    operations: { reached: byOperation.filter((op) => op.reached).length, total: byOperation.length },
    statuses: {
      seen: byOperation.reduce((n, op) => n + op.documentedSeen.length, 0),
      documented: byOperation.reduce((n, op) => n + op.documentedStatuses.length, 0),
    },
    kinds: [...new Set(kinds)].sort(byRank),
    byOperation,
  };
}

/** The console's few lines: operations and documented statuses reached, and what was not, shortened. */
export function coverageLines(coverage: CoverageReport, shown = 8): string[] {
  const missed = coverage.byOperation.filter((op) => !op.reached);
  const lines = [
    `Coverage: operations reached ${coverage.operations.reached}/${coverage.operations.total}, ` +
      `documented statuses seen ${coverage.statuses.seen}/${coverage.statuses.documented}, ` +
      `${coverage.kinds.length} kinds of case`,
  ];
  if (missed.length > 0) {
    const names = missed.slice(0, shown).map((op) => op.operationId);
    const more = missed.length > shown ? `, and ${missed.length - shown} more (see the JSON or HTML report)` : "";
    lines.push(`  not reached: ${names.join(", ")}${more}`);
  }
  return lines;
}

function mergeKind(into: KindCoverage, from: KindCoverage): void {
  into.requests += from.requests;
  for (const status of from.statuses) if (!into.statuses.includes(status)) into.statuses.push(status);
  into.statuses.sort();
  for (const [check, tally] of Object.entries(from.checks)) addTally(into.checks, check, tally);
}

/** Adds a tally to a check's in a kind's checks. */
function addTally(checks: KindCoverage["checks"], check: string, tally: Tally): void {
  const sum = (checks[check] ??= { passed: 0, failed: 0 });
  sum.passed += tally.passed;
  sum.failed += tally.failed;
}

/**
 * The coverage of the shards of one run as one (contracts conform merge): an operation any shard reached is reached.
 */
export function mergeCoverage(parts: CoverageReport[]): CoverageReport | undefined {
  const [first] = parts;
  if (!first) return undefined;
  const byOperation = first.byOperation.map((op): OperationCoverage => {
    const same = parts.map((part) => part.byOperation.find((o) => o.operationId === op.operationId) ?? op);
    const kinds: Partial<Record<CaseKind, KindCoverage>> = {};
    for (const part of same)
      for (const [kind, entry] of Object.entries(part.kinds) as Array<[CaseKind, KindCoverage]>)
        mergeKind((kinds[kind] ??= { requests: 0, statuses: [], checks: {} }), entry);
    const reached = same.some((o) => o.reached);
    const seen = new Set(same.flatMap((o) => o.documentedSeen));
    const { notReached, notReachedCases: _ignored, ...rest } = op;
    const leftOut = mergeNotReached(same.map((o) => o.notReachedCases));
    return {
      ...rest,
      ...(leftOut ? { notReachedCases: leftOut } : {}),
      reached,
      ...(reached
        ? {}
        : { notReached: same.find((o) => o.notReached && !o.notReached.includes("shard"))?.notReached ?? notReached }),
      documentedSeen: op.documentedStatuses.filter((code) => seen.has(code)),
      undocumentedSeen: [...new Set(same.flatMap((o) => o.undocumentedSeen))].sort(),
      kinds,
    };
  });
  return coverageOf(
    byOperation,
    parts.flatMap((part) => part.kinds),
  );
}
