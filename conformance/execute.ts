// Executes one item of the plan on one operation: builds its case (an example, a boundary value, a mutation, a
// credential probe, a random draw), sends it with the item's own sender (so every exchange carries the item's id) and
// judges it with the response checks. A random draw that fails a check not seen failing on its operation yet is shrunk
// by fast-check; the shrinking requests come out of the same budget (the transport's cap) and --max-shrinks.
import fc from "fast-check";
import type { AuthMode, ResourceKind } from "./apis.js";
import type { RunContext } from "./context.js";
import { isSuccess } from "./contract/words.js";
import type { Judge, JudgeOptions, ShrunkCase } from "./judge/judge.js";
import {
  applyMutation,
  boundaryCases,
  exampleCases,
  invalidCaseArbitrary,
  validateCase,
  validCaseArbitrary,
} from "./plan/cases.js";
import { type OperationModel, type RequestCase } from "./model/cases.js";
import type { LinkedValues } from "./send/link-values.js";
import type { ItemParts } from "./item-parts.js";
import { resourceId } from "./contract/links.js";
import { operationMutations } from "./plan/mutations.js";
import type { PlanItem } from "./model/plan.js";
import type { CheckName } from "./model/check-registry.js";
import type { WriteBudget } from "./plan/write-budget.js";
import { markAsOurs, type ResourceTracker } from "./send/resources.js";
import type { CaseSender } from "./send/sender.js";
import type { Exchange } from "./model/exchange.js";

/** What the items of one operation share: its model and fixed cases, built once, and the checks already shrunk. */
export interface OperationCases {
  model: OperationModel;
  /** The resource kind the operation creates, if any. */
  creates?: ResourceKind;
  undeletable: boolean;
  examples: RequestCase[];
  boundaries: RequestCase[];
  mutations: RequestCase[];
  valid: fc.Arbitrary<RequestCase>;
  invalid?: fc.Arbitrary<RequestCase | undefined>;
  /** `expectation check` → shrunk already: one failure is shrunk once. */
  shrunk: Set<string>;
  fromLinks?: Promise<LinkedValues>;
}

/** The fixed cases of an operation, in the order the plan's indexes point into. */
export function operationCases(
  context: RunContext,
  operationId: string,
  creates: ResourceKind | undefined,
  undeletable: boolean,
): OperationCases {
  const model = context.model(operationId);
  const { profile, options } = context;
  const { credentials, maxExamples } = options;
  const examples = exampleCases(model, profile, credentials).map((c) => (creates ? markAsOurs(c, context) : c));
  const base = examples[0];
  const mutations = base
    ? operationMutations(model.op.api, model.op.pointer)
        .map((mutation) => applyMutation(base, mutation))
        .filter((c): c is RequestCase => c !== undefined && !validateCase(model, c).valid)
    : [];
  return {
    model,
    creates,
    undeletable,
    examples,
    boundaries: boundaryCases(model, profile, credentials, Math.max(1, Math.floor(maxExamples / 2))),
    mutations,
    valid: validCaseArbitrary(model, profile, credentials),
    invalid: invalidCaseArbitrary(model, profile, credentials),
    shrunk: new Set(),
  };
}

/** Notes in the report that requests of a kind were not sent for lack of --max-writes. */
function notSent(judge: Judge, writes: WriteBudget, operationId: string, what: string): void {
  const reason = `the --max-writes ${writes.max} creations the run cannot delete are made or kept for the stateful sequences`;
  judge.decided([{ about: "operation", name: operationId, decision: "not sent", cases: what, reason }]);
}

/**
 * Books what a send created: the tracker records a creation; what cannot be deleted takes one from --max-writes, also
 * when a valid creation was refused (the refusal may have come after it was stored).
 */
function book(
  writes: WriteBudget,
  tracker: ResourceTracker,
  cases: OperationCases,
  expectation: "valid" | "invalid" | "unauthenticated",
  exchange: Exchange,
): void {
  const kind = cases.creates;
  // A 200 carrying the error envelope (links, pay) created nothing: no phantom "left behind" without an id.
  const created = isSuccess(cases.model.op.api, exchange.response);
  if (kind && created) tracker.created(kind, resourceId(exchange.response?.json, kind.id), cases.model.op.operationId);
  if (cases.undeletable && (created ? kind !== undefined : expectation === "valid")) writes.left -= 1;
}

/** Values from the deployment (Link Objects) for valid data, asked for once per operation. */
async function valuesFromLinks(
  { context, judge, linkValues }: ItemParts,
  send: CaseSender,
  cases: OperationCases,
): Promise<LinkedValues | undefined> {
  const operationId = cases.model.op.operationId;
  cases.fromLinks ??= linkValues.valuesFor(operationId, send, judge);
  const values = await cases.fromLinks;
  if (!values.missing || context.isRead(operationId)) return values;
  // A write without them is not sent (its example's ids are made up); a read falls back to generated values.
  judge.decided(
    [
      { about: "operation", name: operationId, decision: "not sent", cases: "valid data", reason: values.missing },
      { about: "check", name: "positive_data_acceptance", decision: "cannot run", reason: values.missing },
    ],
    send.cutByBudget,
  );
  return undefined;
}

/** One case of the item's operation sent, booked and judged: what its failed checks said, with the exchange. */
type Trial = (
  requestCase: RequestCase,
  expectation: "valid" | "invalid" | "unauthenticated",
  options?: JudgeOptions & { auth?: AuthMode; label?: string },
) => Promise<{ exchange: Exchange; failed: Map<CheckName, string> }>;

/** The one way a case of an item goes: sent with the item's sender, its creation booked, judged by its checks. */
function trialOf(
  parts: Pick<ItemParts, "judge" | "writes" | "tracker">,
  send: CaseSender,
  cases: OperationCases,
  item: PlanItem,
) {
  const { judge, writes, tracker } = parts;
  const trial: Trial = async (requestCase, expectation, { auth, label, ...options } = {}) => {
    const exchange = await send.send(cases.model, requestCase, auth ? { auth } : {});
    book(writes, tracker, cases, expectation, exchange);
    const checks = item.checks;
    const failed = judge.exchange(cases.model, exchange, expectation, label ?? requestCase.label, {
      ...options,
      checks,
    });
    return { exchange, failed };
  };
  return trial;
}

/** Runs one operation item of the plan, sending with the item's own sender. */
export async function executeItem(
  parts: ItemParts,
  send: CaseSender,
  cases: OperationCases,
  item: PlanItem,
): Promise<void> {
  const { context, judge, writes } = parts;
  const operationId = cases.model.op.operationId;
  const source = item.source;
  // Only what may create waits for --max-writes (not a malformed body, nor a request without the run's credentials).
  if (item.writes === "undeletable" && writes.left <= 0) {
    const what = item.expect === "accept" ? "valid data" : item.expect === "refuse" ? "invalid data" : item.kind;
    return notSent(judge, writes, operationId, what);
  }
  context.options.onProgress?.({ type: "operation", operationId, phase: item.kind, itemId: item.id });
  const trial = trialOf(parts, send, cases, item);
  const fixed = async (requestCase: RequestCase | undefined, expectation: "valid" | "invalid", prepare = same) => {
    if (!requestCase) return;
    await trial(prepare(requestCase), expectation, { violation: requestCase.violation, label: requestCase.label });
  };
  if (source.type === "credentials") {
    const label = source.auth === "none" ? "no credentials" : "wrong credentials";
    await trial(cases.examples[0]!, "unauthenticated", { auth: source.auth, label });
    return;
  }
  if (source.type === "mutation") return fixed(cases.mutations[source.index], "invalid");
  if (source.type === "step") return;
  const draw = async (expectation: "valid" | "invalid", prepare: (c: RequestCase) => RequestCase) => {
    const { seed, maxShrinks } = context.options;
    const limits = { seed: seed + (source.type === "random" ? source.draw : 0), maxShrinks, writes };
    const shrunk = await randomDraw(trial, send, cases, limits, expectation, prepare);
    if (shrunk) judge.shrunk(shrunk);
  };
  if (source.type === "random" && source.expectation === "invalid") return cases.invalid && draw("invalid", same);
  const values = await valuesFromLinks(parts, send, cases);
  if (!values) return;
  const prepareValid = (c: RequestCase) => values.apply(unique(context, cases, c));
  if (source.type === "example") return fixed(cases.examples[source.index], "valid", prepareValid);
  if (source.type === "boundary") return fixed(cases.boundaries[source.index], "valid", prepareValid);
  return draw("valid", prepareValid);
}

const same = (c: RequestCase) => c;

/**
 * Every valid creation gets identifying values of its own (a fresh domain, name, slug), so that no valid request is
 * refused because of a resource this run created before (two boundary cases adding the same domain: 409).
 */
function unique(context: RunContext, cases: OperationCases, c: RequestCase): RequestCase {
  if (!cases.creates || c.origin === "invalid") return c;
  const tagged = markAsOurs(c, context);
  return validateCase(cases.model, tagged).valid ? tagged : c;
}

/**
 * One random draw, through fast-check with a seed of its own. On a failure of a check not yet shrunk on this
 * operation, fast-check shrinks the case while the same check keeps failing, within --max-shrinks requests (none for
 * what cannot be deleted). Returns the smallest failing case, the judge's reproduction, when it shrank.
 */
async function randomDraw(
  trial: Trial,
  send: CaseSender,
  cases: OperationCases,
  limits: { seed: number; maxShrinks: number; writes: WriteBudget },
  expectation: "valid" | "invalid",
  prepareCase: (c: RequestCase) => RequestCase,
): Promise<ShrunkCase | undefined> {
  const arbitrary = expectation === "valid" ? cases.valid : cases.invalid!;
  const maxShrinks = cases.undeletable ? 0 : limits.maxShrinks;
  let target: CheckName | undefined;
  let shrinkRequests = 0;
  let last: { exchange: Exchange; label: string; message: string; where?: string } | undefined;
  const stopped = () => send.aborted || (cases.undeletable && limits.writes.left <= 0);
  await fc.check(
    fc.asyncProperty(arbitrary, async (requestCase) => {
      // No case to send (invalidCaseArbitrary): skipped; fast-check draws another.
      fc.pre(requestCase !== undefined);
      if (stopped()) return true;
      if (target !== undefined && shrinkRequests++ >= maxShrinks) return true;
      const { exchange, failed } = await trial(prepareCase(requestCase), expectation, {
        tally: target === undefined,
        violation: requestCase.violation,
        seeded: true,
        label: requestCase.label,
      });
      const where = requestCase.violation?.description.split(":")[0];
      target ??= [...failed.keys()].find((check) => !cases.shrunk.has(`${expectation} ${check}`));
      const message = target === undefined ? undefined : failed.get(target);
      if (message === undefined) return true;
      last = { exchange, label: requestCase.label, message, where };
      return false;
    }),
    { seed: limits.seed, numRuns: 1 },
  );
  if (target === undefined || !last) return undefined;
  cases.shrunk.add(`${expectation} ${target}`);
  if (shrinkRequests === 0) return undefined;
  const label = `${last.label} (shrunk in ${shrinkRequests} requests)`;
  return { check: target, operationId: cases.model.op.operationId, ...last, label };
}
