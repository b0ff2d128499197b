// The conformance run, one way through: select the operations (read-only unless --allow-writes), build the plan
// (plan/build.ts), let the planner order it coverage-first within the budget (plan/planner.ts), execute each item
// (execute.ts for one operation's case, steps.ts for sequences and probes), which sends and judges through the
// session, then delete what the run created, also after a failure or Ctrl-C, and build the report from what was
// recorded and what the plan did not reach.
import { operationsOf } from "./contract/lookup.js";
import { UsageError } from "../lib/cli.js";
import { appliesTo, CHECKS } from "./judge/checks.js";
import { RESPONSE_CHECK_NAMES } from "./judge/response-checks.js";
import { mutationKind } from "./report/coverage.js";
import { executeItem, type OperationCases, operationCases } from "./send/execute.js";
import { buildPlan, type OperationFacts } from "./plan/build.js";
import { budgetView, resolveBudget } from "./plan/budget.js";
import type { PlanItem } from "./plan/items.js";
import { Planner } from "./plan/planner.js";
import { buildReport, type RunReport } from "./report/report.js";
import { cleanUp, ResourceTracker } from "./send/resources.js";
import type { RunOptions } from "./context.js";
import { Session } from "./send/session.js";
import { sequencedKinds } from "./steps/sequences.js";
import type { StepParts } from "./steps/parts.js";
import { runStep, stepFacts } from "./steps/run-step.js";

export type { RunOptions } from "./context.js";

/** Thrown when the target cannot be reached at all (exit code 2). */
export class UnreachableTarget extends UsageError {}

/** The checks that judge every exchange the run sends (the session judges the last two while sending). */
const EVERY_EXCHANGE_CHECKS = [...RESPONSE_CHECK_NAMES, "rate_limit_headers_consistent", "max_response_time"];

const READ_METHODS = new Set(["get", "head", "options"]);

interface SelectedOperation {
  operationId: string;
  /** The resource kind this operation creates, if any. */
  creates?: string;
  /** A creation the run cannot delete afterwards: its valid cases count against --max-writes and are not shrunk. */
  undeletable: boolean;
  readOnly: boolean;
}

/** One request to the base address (counted against the rate limit like every other) before anything else. */
async function ensureReachable(session: Session): Promise<void> {
  const exchange = await session.transport.send({ method: "GET", url: session.options.baseUrl, headers: {} });
  if (exchange.error)
    throw new UnreachableTarget(
      `cannot reach ${session.secrets.redact(session.options.baseUrl)}: ${exchange.error}`,
      2,
    );
}

/** The operations this run sends cases to; the others are noted with the reason. */
function selectOperations(session: Session): SelectedOperation[] {
  const { api, operations: named, allowWrites } = session.options;
  const profile = session.profile;
  const all = operationsOf(api);
  for (const id of named)
    if (!all.some((op) => op.operationId === id))
      throw new UsageError(
        `${api} has no operation "${id}"; operations: ${all.map((op) => op.operationId).join(", ")}`,
      );
  const statefulOnly = new Set(
    session.resources.flatMap((kind) => [kind.update?.operationId, kind.delete?.operationId]).filter(Boolean),
  );
  const linked = new Set(
    session.links.filter((link) => link.parameters.some((p) => (p.in ?? "path") === "path")).map((link) => link.to),
  );
  const selected: SelectedOperation[] = [];
  for (const op of all) {
    const id = op.operationId;
    if (named.length > 0 && !named.includes(id)) continue;
    if (!session.ownsPath(op.path)) continue; // another shard's
    const skip = (reason: string) => session.skippedOperations.set(id, reason);
    // An operation named with --operation that the options keep from running is a mistake, not a pass.
    const notRun = (reason: string) => {
      if (named.includes(id)) throw new UsageError(`--operation ${id} cannot run: ${reason}`);
      skip(reason);
    };
    if (op.webhook) {
      notRun("a webhook is sent by the service to you, not called by the runner");
      continue;
    }
    const readOnly = READ_METHODS.has(op.method) || id in profile.readOnly;
    const explicit = profile.explicitOnly[id];
    if (explicit && !(named.includes(id) && allowWrites)) {
      notRun(`runs only when named with --operation and --allow-writes: ${explicit}`);
      continue;
    }
    if (!readOnly && !allowWrites) {
      notRun("it writes; run with --allow-writes to include it");
      continue;
    }
    // Exercised on the run's own resources by the stateful sequences (see sequencedKinds).
    if (statefulOnly.has(id)) continue;
    // A write on one resource acts only on what a Link Object names (the run's own resources): a generated id could
    // be someone else's. Without a link it cannot run, and that is no pass.
    if (!readOnly && !linked.has(id) && !explicit && session.model(id).parameters.some((p) => p.in === "path")) {
      const reason = `${id} cannot run: no Link Object gives its path parameters a value from a resource the run created`;
      skip(reason);
      session.ledger.decide({
        about: "check",
        name: "positive_data_acceptance",
        decision: "cannot run",
        reason: reason,
      });
      continue;
    }
    const kind = session.resources.find((k) => k.create === id);
    selected.push({ operationId: id, creates: kind?.name, undeletable: Boolean(kind?.undeletable), readOnly });
  }
  return selected;
}

/** Checks that do not run at all in this run, and why. */
function skipChecks(session: Session): void {
  const { api, allowWrites, maxResponseTimeMs } = session.options;
  for (const check of CHECKS) {
    if (!appliesTo(check, api)) session.skippedChecks.set(check.name, `does not apply to ${api}`);
    else if (check.recordedOnly)
      session.skippedChecks.set(check.name, "judges recorded traffic only (--har, --from-json)");
    else if (check.writes && !allowWrites) session.skippedChecks.set(check.name, "needs --allow-writes");
    else if (check.name === "max_response_time" && maxResponseTimeMs === undefined)
      session.skippedChecks.set(check.name, "needs --max-response-time <ms>");
  }
}

function factsOf(session: Session, operation: SelectedOperation, cases: OperationCases): OperationFacts {
  return {
    operationId: operation.operationId,
    examples: cases.examples.length,
    boundaries: cases.boundaries.length,
    mutations: cases.mutations.map((c) => mutationKind(c.violation?.description ?? c.label)),
    invalidData: cases.invalid !== undefined,
    secured: session.isSecured(cases.model),
    writes: operation.readOnly ? "nothing" : operation.undeletable ? "undeletable" : "deletable",
  };
}

/** The plan of this run: every selected operation's cases and the steps across them. */
function planRun(
  session: Session,
  selected: SelectedOperation[],
): { items: PlanItem[]; cases: Map<string, OperationCases> } {
  const cases = new Map(
    selected.map((op) => [op.operationId, operationCases(session, op.operationId, op.creates, op.undeletable)]),
  );
  const checks = new Set([...session.options.checks].filter((check) => !session.skippedChecks.has(check)));
  const items = buildPlan(
    selected.map((op) => factsOf(session, op, cases.get(op.operationId)!)),
    stepFacts(
      session.context,
      selected.map((op) => op.operationId),
    ),
    { maxExamples: session.options.maxExamples, checks, responseChecks: EVERY_EXCHANGE_CHECKS },
  );
  return { items, cases };
}

/** The run's parts a step uses (steps/parts.ts). */
const stepParts = (session: Session, tracker: ResourceTracker): Omit<StepParts, "send"> => ({
  context: session.context,
  judge: session.judge,
  ledger: session.ledger,
  writes: session.writes,
  tracker,
  linkValues: session.linkValues,
});

/**
 * Executes the planner's items while the budget lasts. Operation items go --concurrency at a time where the contract
 * declares no rate limit (the budget would hold them back anyway, and the X-RateLimit-* consistency check reads
 * consecutive responses); a step waits for them and runs alone, since it follows resources across operations.
 */
async function executePlan(
  session: Session,
  tracker: ResourceTracker,
  planner: Planner,
  cases: Map<string, OperationCases>,
): Promise<void> {
  const workers = session.rateLimited ? 1 : Math.max(1, session.options.concurrency ?? 1);
  const running = new Set<Promise<void>>();
  const operationIds = [...cases.keys()];
  for (let item = planner.next(); item && !session.aborted; item = planner.next()) {
    if (item.source.type === "step") {
      await Promise.all(running);
      await runStep(stepParts(session, tracker), session.sender.forItem(item.id), item, operationIds);
      continue;
    }
    const done: Promise<void> = executeItem(session, tracker, cases.get(item.operationId)!, item).finally(() =>
      running.delete(done),
    );
    running.add(done);
    if (running.size >= workers) await Promise.race(running);
  }
  await Promise.all(running);
}

export async function runConformance(options: RunOptions): Promise<RunReport> {
  const startedAt = new Date();
  const session = new Session(options);
  const budget = resolveBudget(options, session.declaredRateLimit);
  session.transport.capRequests(budget.maxRequests);
  await ensureReachable(session);
  const tracker = new ResourceTracker();
  skipChecks(session);
  let error: Error | undefined;
  let items: PlanItem[] = [];
  let planner: Planner | undefined;
  try {
    const selected = selectOperations(session);
    session.keepWritesForSequences(sequencedKinds(session.context));
    const plan = planRun(session, selected);
    items = plan.items;
    const rate = options.rateLimit ?? session.declaredRateLimit;
    planner = new Planner(
      items,
      budgetView(budget, {
        requestsSent: () => session.transport.requestCount,
        reserved: () => tracker.resources.filter((r) => r.state === "created" && tracker.kindOf(r).delete).length,
        msPerRequest: () =>
          rate
            ? (rate.windowSeconds * 1000) / rate.limit
            : (Date.now() - startedAt.getTime()) / Math.max(1, session.transport.requestCount),
        elapsedMs: () => Date.now() - startedAt.getTime(),
      }),
    );
    await executePlan(session, tracker, planner, plan.cases);
  } catch (caught) {
    error = caught instanceof Error ? caught : new Error(String(caught));
  } finally {
    // Cleanup runs whatever happened before: a failure, an exception or Ctrl-C.
    await cleanUp(session, tracker);
  }
  if (error) throw error;
  return buildReport(session, tracker, {
    startedAt,
    finishedAt: new Date(),
    interrupted: options.signal.aborted,
    plan: { budget, planned: items.length, notReached: planner?.notReached() ?? [] },
  });
}
