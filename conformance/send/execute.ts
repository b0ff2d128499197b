// Executes one item of the plan on one operation: builds its case (an example, a boundary value, a mutation, a
// credential probe, a random draw), sends it through the session and judges it with the response checks. A random
// draw that fails a check not seen failing on its operation yet is shrunk by fast-check; the shrinking requests come
// out of the same budget (the transport's cap) and --max-shrinks.
import fc from "fast-check";
import { isSuccess } from "../judge/contract-words.js";
import {
  applyMutation,
  boundaryCases,
  exampleCases,
  invalidCaseArbitrary,
  type OperationModel,
  type RequestCase,
  validateCase,
  validCaseArbitrary,
} from "../plan/cases.js";
import type { LinkedValues } from "./link-values.js";
import { resourceId } from "../contract/links.js";
import { operationMutations } from "../plan/mutations.js";
import type { PlanItem } from "../plan/items.js";
import type { Session } from "./session.js";
import { markAsOurs, type ResourceTracker } from "./resources.js";
import type { Exchange } from "./transport.js";
import { verdictOf } from "../judge/verdict.js";

/** What the items of one operation share: its model and fixed cases, built once, and the checks already shrunk. */
export interface OperationCases {
  model: OperationModel;
  /** The resource kind the operation creates, if any. */
  creates?: string;
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
  session: Session,
  operationId: string,
  creates: string | undefined,
  undeletable: boolean,
): OperationCases {
  const model = session.model(operationId);
  const { credentials, maxExamples } = session.options;
  const examples = exampleCases(model, session.profile, credentials).map((c) => (creates ? markAsOurs(c, session) : c));
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
    boundaries: boundaryCases(model, session.profile, credentials, Math.max(1, Math.floor(maxExamples / 2))),
    mutations,
    valid: validCaseArbitrary(model, session.profile, credentials),
    invalid: invalidCaseArbitrary(model, session.profile, credentials),
    shrunk: new Set(),
  };
}

/** Notes in the report that requests of a kind were not sent for lack of --max-writes. */
function notSent(session: Session, operationId: string, what: string): void {
  const earlier = session.skippedOperations.get(operationId);
  if (earlier?.split("; ").some((part) => part.startsWith(`${what} not sent`))) return;
  const why = `the --max-writes ${session.maxWrites} creations the run cannot delete are made or kept for the stateful sequences`;
  session.skippedOperations.set(operationId, earlier ? `${earlier}; ${what} not sent` : `${what} not sent: ${why}`);
}

/** Records a creation; for what cannot be deleted, also takes it from --max-writes. */
function afterSend(session: Session, tracker: ResourceTracker, cases: OperationCases, exchange: Exchange): void {
  const kind = cases.creates ? session.resources.find((k) => k.name === cases.creates) : undefined;
  // A 200 carrying the error envelope (links, pay) created nothing: no phantom "left behind" without an id.
  if (!kind || !isSuccess(cases.model.op.api, exchange.response)) return;
  tracker.created(kind, resourceId(exchange.response?.json, kind.id), cases.model.op.operationId);
  if (cases.undeletable) session.writesLeft -= 1;
}

/** Values from the deployment (Link Objects) for valid data, asked for once per operation. */
async function valuesFromLinks(session: Session, cases: OperationCases): Promise<LinkedValues | undefined> {
  cases.fromLinks ??= session.linkValues.valuesFor(
    cases.model.op.operationId,
    session.sender.forItem(undefined),
    session.judge,
  );
  const values = await cases.fromLinks;
  if (!values.missing || session.isRead(cases.model.op.operationId)) return values;
  // A write without them is not sent (its example's ids are made up); a read falls back to generated values.
  session.skippedOperations.set(cases.model.op.operationId, `valid data not sent: ${values.missing}`);
  session.ledger.decide({
    about: "check",
    name: "positive_data_acceptance",
    decision: "cannot run",
    reason: values.missing,
  });
  return undefined;
}

/** Runs one operation item of the plan. */
export async function executeItem(
  session: Session,
  tracker: ResourceTracker,
  cases: OperationCases,
  item: PlanItem,
): Promise<void> {
  const operationId = cases.model.op.operationId;
  const source = item.source;
  if (cases.undeletable && session.writesLeft <= 0) {
    const what = item.expect === "accept" ? "valid data" : item.expect === "refuse" ? "invalid data" : item.kind;
    return notSent(session, operationId, what);
  }
  session.options.onProgress?.({ type: "operation", operationId, phase: item.kind });
  if (source.type === "credentials") {
    const label = source.auth === "none" ? "no credentials" : "wrong credentials";
    const exchange = await session.send(cases.model, cases.examples[0]!, source.auth);
    afterSend(session, tracker, cases, exchange);
    session.judge.exchange(cases.model, exchange, "unauthenticated", label);
    return;
  }
  if (source.type === "mutation") return sendFixed(session, tracker, cases, cases.mutations[source.index], "invalid");
  if (source.type === "step") return;
  const values =
    source.type === "random" && source.expectation === "invalid" ? undefined : await valuesFromLinks(session, cases);
  if (!values && !(source.type === "random" && source.expectation === "invalid")) return;
  const prepareValid = (c: RequestCase) => values!.apply(unique(session, cases, c));
  if (source.type === "example")
    return sendFixed(session, tracker, cases, cases.examples[source.index], "valid", prepareValid);
  if (source.type === "boundary")
    return sendFixed(session, tracker, cases, cases.boundaries[source.index], "valid", prepareValid);
  if (source.expectation === "valid") return randomDraw(session, tracker, cases, item, "valid", prepareValid);
  if (cases.invalid) return randomDraw(session, tracker, cases, item, "invalid", (c) => c);
}

/**
 * Every valid creation gets identifying values of its own (a fresh domain, name, slug), so that no valid request is
 * refused because of a resource this run created before (two boundary cases adding the same domain: 409).
 */
function unique(session: Session, cases: OperationCases, c: RequestCase): RequestCase {
  if (!cases.creates || c.origin === "invalid") return c;
  const tagged = markAsOurs(c, session);
  return validateCase(cases.model, tagged).valid ? tagged : c;
}

/** A valid creation counts against --max-writes even when refused: the refusal may have come after it was stored. */
function countRefusedCreation(session: Session, cases: OperationCases, expectation: string, exchange: Exchange): void {
  if (cases.undeletable && expectation === "valid" && !isSuccess(cases.model.op.api, exchange.response))
    session.writesLeft -= 1;
}

async function sendFixed(
  session: Session,
  tracker: ResourceTracker,
  cases: OperationCases,
  requestCase: RequestCase | undefined,
  expectation: "valid" | "invalid",
  prepareCase: (c: RequestCase) => RequestCase = (c) => c,
): Promise<void> {
  if (!requestCase) return;
  const exchange = await session.send(cases.model, prepareCase(requestCase));
  afterSend(session, tracker, cases, exchange);
  countRefusedCreation(session, cases, expectation, exchange);
  session.judge.exchange(cases.model, exchange, expectation, requestCase.label, { violation: requestCase.violation });
}

/**
 * One random draw, through fast-check with a seed of its own. On a failure of a check not yet shrunk on this
 * operation, fast-check shrinks the case while the same check keeps failing, within --max-shrinks requests (none for
 * what cannot be deleted), and the smallest failing case is recorded as the reproduction.
 */
async function randomDraw(
  session: Session,
  tracker: ResourceTracker,
  cases: OperationCases,
  item: PlanItem,
  expectation: "valid" | "invalid",
  prepareCase: (c: RequestCase) => RequestCase,
): Promise<void> {
  const { model } = cases;
  const arbitrary = expectation === "valid" ? cases.valid : cases.invalid!;
  const maxShrinks = cases.undeletable ? 0 : session.options.maxShrinks;
  let target: string | undefined;
  let shrinkRequests = 0;
  let last: { exchange: Exchange; label: string; message: string; where?: string } | undefined;
  const stopped = () => session.aborted || (cases.undeletable && session.writesLeft <= 0);
  const draw = item.source.type === "random" ? item.source.draw : 0;
  await fc.check(
    fc.asyncProperty(arbitrary, async (requestCase) => {
      // No case to send (invalidCaseArbitrary): skipped; fast-check draws another.
      fc.pre(requestCase !== undefined);
      if (stopped()) return true;
      if (target !== undefined && shrinkRequests++ >= maxShrinks) return true;
      const exchange = await session.send(model, prepareCase(requestCase));
      afterSend(session, tracker, cases, exchange);
      countRefusedCreation(session, cases, expectation, exchange);
      const failed = session.judge.exchange(model, exchange, expectation, requestCase.label, {
        tally: target === undefined,
        violation: requestCase.violation,
        seeded: true,
      });
      const where = requestCase.violation?.description.split(":")[0];
      if (target === undefined) {
        const fresh = [...failed.keys()].find((check) => !cases.shrunk.has(`${expectation} ${check}`));
        if (!fresh) return true;
        target = fresh;
        last = { exchange, label: requestCase.label, message: failed.get(fresh)!, where };
        return false;
      }
      const message = failed.get(target);
      if (message === undefined) return true;
      last = { exchange, label: requestCase.label, message, where };
      return false;
    }),
    { seed: session.options.seed + draw, numRuns: 1 },
  );
  if (target === undefined || !last) return;
  cases.shrunk.add(`${expectation} ${target}`);
  if (shrinkRequests > 0)
    session.ledger.add(
      verdictOf(
        target,
        model.op.operationId,
        last.message,
        last.exchange,
        `${last.label} (shrunk in ${shrinkRequests} requests)`,
        { tally: false, shrunk: true, where: last.where },
      ),
    );
}
