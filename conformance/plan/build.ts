// Builds the plan from facts about the operations: per operation its examples, boundary values, each systematic
// mutation, the credential probes and random data at today's depth (--max-examples), and the sequences and probes
// across operations. Pure: the facts are read from the contract by the runner (conformance/runner.ts).
import { type CheckName, checksJudging } from "../model/check-registry.js";
import {
  PRIORITY,
  type CaseSource,
  type PlanExpectation,
  type PlanItem,
  type PlanKind,
  type Writes,
} from "../model/plan.js";

/** What the planner needs to know about one operation the run may send to. */
export interface OperationFacts {
  operationId: string;
  examples: number;
  boundaries: number;
  /** The kind of each systematic mutation of the first example (`mutation: wrong type`), in order. */
  mutations: string[];
  /** Indexes of the mutations that cannot create anything (a body that is not JSON), whatever the server. */
  noWriteMutations?: number[];
  /** Indexes of the mutations the contract says the provider refuses (x-provider-refuses): the only ones that fail. */
  promisedMutations?: number[];
  /** Random invalid data can be generated (the operation has something to break). */
  invalidData: boolean;
  secured: boolean;
  writes: Writes;
}

/** A sequence or probe that spans operations: which operation it is counted on, its checks and cost. */
export interface StepFacts {
  step: Extract<CaseSource, { type: "step" }>;
  operationId: string;
  checks: CheckName[];
  cost: number;
  writes: Writes;
  /** Probes go with the first round's credentials; sequences right after the examples. */
  priority: number;
}

export interface PlanSettings {
  /** --max-examples: valid cases (examples, boundaries, random) and invalid cases per operation, each. */
  maxExamples: number;
  /** The selected checks that apply to the API. */
  checks: ReadonlySet<CheckName>;
}

/** The selected checks that judge an item of one operation with this expectation, as the registry says. */
function judges(expect: PlanExpectation, settings: PlanSettings): CheckName[] {
  return checksJudging(expect).filter((check) => settings.checks.has(check));
}

/** Up to `count` indexes spread over `length`, so that every kind of mutation has a chance. */
export function spread(length: number, count: number): number[] {
  if (length <= count) return Array.from({ length }, (_, i) => i);
  return Array.from({ length: count }, (_, i) => Math.floor((i * length) / count));
}

function operationItems(facts: OperationFacts, settings: PlanSettings): Array<Omit<PlanItem, "id">> {
  const { maxExamples } = settings;
  const items: Array<Omit<PlanItem, "id">> = [];
  const add = (kind: PlanKind, source: CaseSource, expect: PlanExpectation, priority: number, writes = facts.writes) =>
    items.push({
      operationId: facts.operationId,
      kind,
      source,
      expect,
      checks: judges(expect, settings),
      priority,
      // A request refused by a correct server writes nothing; a lenient one may still create.
      writes,
      cost: 1,
    });
  // Valid data: the examples, up to half the rest boundary values, then random data, --max-examples in all.
  const examples = Math.min(facts.examples, maxExamples);
  const boundaries = Math.min(facts.boundaries, Math.max(1, Math.floor(maxExamples / 2)), maxExamples - examples);
  for (let i = 0; i < examples; i++) add("example", { type: "example", index: i }, "accept", PRIORITY.example);
  for (let i = 0; i < boundaries; i++) add("boundary", { type: "boundary", index: i }, "accept", PRIORITY.boundary);
  for (let i = 0; i < maxExamples - examples - boundaries; i++)
    add("random data", { type: "random", expectation: "valid", draw: i }, "accept", PRIORITY.random);
  // Invalid data: every kind of mutation of the first example (spread over half the cases), then random mutations.
  if (facts.examples > 0 && settings.checks.has("negative_data_rejection") && facts.invalidData) {
    const noWrite = new Set(facts.noWriteMutations ?? []);
    // The kinds of invalid data the provider promised to refuse come first in what the spread picks from: an accepted
    // one fails, every other is an observation.
    const promised = facts.promisedMutations ?? [];
    const candidates = [
      ...promised,
      ...facts.mutations.map((_, index) => index).filter((index) => !promised.includes(index)),
    ];
    const spreadOver = spread(candidates.length, Math.ceil(maxExamples / 2)).map((position) => candidates[position]!);
    // Where creations cannot be deleted, --max-writes holds the other invalid data back: the mutations that cannot
    // create anything are always sent, whatever the spread picked, and never wait for the write budget.
    const systematic = facts.writes === "undeletable" ? [...new Set([...spreadOver, ...noWrite])] : spreadOver;
    // What cannot be deleted goes invalid first: a correct server's refusals leave --max-writes to the valid data.
    const priority = facts.writes === "undeletable" ? PRIORITY.example - 0.5 : PRIORITY.mutation;
    for (const index of systematic) {
      const kind = `mutation: ${facts.mutations[index]}` as PlanKind;
      add(kind, { type: "mutation", index }, "refuse", priority, noWrite.has(index) ? "nothing" : facts.writes);
    }
    for (let i = 0; i < maxExamples - systematic.length; i++)
      add("random invalid data", { type: "random", expectation: "invalid", draw: i }, "refuse", PRIORITY.random);
  }
  // Without the run's credentials nothing is created for the account (a server that creates anyway fails ignored_auth).
  if (facts.examples > 0 && facts.secured && settings.checks.has("ignored_auth")) {
    const credentials = PRIORITY.credentials;
    add("no credentials", { type: "credentials", auth: "none" }, "refuse credentials", credentials, "nothing");
    add("wrong credentials", { type: "credentials", auth: "wrong" }, "refuse credentials", credentials, "nothing");
  }
  return items;
}

/** The whole plan, before ordering: each operation's items, then the sequences and probes. */
export function buildPlan(operations: OperationFacts[], steps: StepFacts[], settings: PlanSettings): PlanItem[] {
  const items: Array<Omit<PlanItem, "id">> = operations.flatMap((facts) => operationItems(facts, settings));
  for (const step of steps) {
    const checks = step.checks.filter((check) => settings.checks.has(check));
    if (checks.length > 0)
      items.push({
        operationId: step.operationId,
        kind: step.step.step === "unsupported methods" ? "other method" : "sequence",
        source: step.step,
        expect: "sequence",
        checks,
        priority: step.priority,
        writes: step.writes,
        cost: step.cost,
      });
  }
  return items.map((item, id) => ({ ...item, id }));
}
