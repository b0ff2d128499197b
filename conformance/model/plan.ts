// The plan's data: what one item of a conformance run sends, what it expects, which checks judge it, how much of the
// budget it costs and what it leaves behind. Built by plan/build.ts, ordered by plan/planner.ts, executed by
// conformance/execute.ts. Plain data, no behaviour.
import type { CheckName } from "./check-registry.js";

/** What kind of case an item is: a column of the coverage matrix, and part of the planner's key. */
export type PlanKind =
  | "example"
  | "boundary"
  | `mutation: ${string}`
  | "no credentials"
  | "wrong credentials"
  | "sequence"
  | "other method"
  | "random data"
  | "random invalid data";

/** What the item sends. Indexes point into the operation's examples, boundaries and systematic mutations. */
export type CaseSource =
  | { type: "example"; index: number }
  | { type: "boundary"; index: number }
  | { type: "mutation"; index: number }
  | { type: "credentials"; auth: "none" | "wrong" }
  | { type: "random"; expectation: "valid" | "invalid"; draw: number }
  /** A stateful sequence or a probe across operations (steps/sequences.ts, methods.ts, scopes.ts, identity/run.ts). */
  | { type: "step"; step: StepName; resource?: string };

export type StepName =
  "sequence" | "nonce replay" | "updates visible" | "scopes" | "unsupported methods" | "list pages" | "identity";

/** What a server that keeps the contract does with the item: accepts it, refuses it, or as the sequence says. */
export type PlanExpectation = "accept" | "refuse" | "refuse credentials" | "sequence";

/** What the item may leave on the server: nothing, something the run deletes, or something it cannot delete. */
export type Writes = "nothing" | "deletable" | "undeletable";

export interface PlanItem {
  /** Position in the built plan: stable, so that the same contract and options give the same plan. */
  id: number;
  operationId: string;
  kind: PlanKind;
  source: CaseSource;
  expect: PlanExpectation;
  /** The selected checks that judge this item's exchanges. */
  checks: CheckName[];
  /** Lower goes first among items reached as often (see PRIORITY). */
  priority: number;
  writes: Writes;
  /** The requests it sends, shrinking not counted (a sequence's are an estimate). */
  cost: number;
}

/**
 * Ties between items whose key has been reached as often: examples, boundaries, the systematic invalid data,
 * credentials, then random data. Sequences come right after the boundaries (they list what the examples and
 * boundaries created): they are the only items that reach their checks, and a first round cut by the budget must not
 * starve them.
 */
export const PRIORITY = {
  example: 0,
  boundary: 1,
  sequence: 2,
  mutation: 3,
  credentials: 4,
  probe: 5,
  random: 6,
} as const;

/** The key the planner counts: an operation, a kind of case, a check. */
export const coverageKey = (item: Pick<PlanItem, "operationId" | "kind">, check?: CheckName): string =>
  `${item.operationId}\u0000${item.kind}\u0000${check ?? ""}`;
