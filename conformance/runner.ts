// The conformance run, one way through: build the run's parts once (startRun), for identity read the discovery
// document for the endpoints every request goes to (identity/paths.ts), select the operations (read-only
// unless --allow-writes), build the plan (plan/build.ts), let the planner order it coverage-first within the budget
// (plan/planner.ts), execute each item with a sender of its own, so that every exchange carries the item's id
// (execute.ts for one operation's case, steps/run-step.ts for sequences and probes), then delete what the run
// created, also after a failure or Ctrl-C, and build the report from the ledger and what the plan did not reach.
import { operationsOf } from "./contract/lookup.js";
import { UsageError } from "../lib/cli.js";
import type { ResourceKind } from "./apis.js";
import { RunContext, type RunOptions } from "./context.js";
import type { ItemParts } from "./item-parts.js";
import { appliesTo, CHECK_LIST, type CheckName } from "./model/check-registry.js";
import { requestWord } from "./contract/words.js";
import { Judge } from "./judge/judge.js";
import { mutationKind } from "./plan/case-kinds.js";
import { Ledger } from "./report/ledger.js";
import type { Decision } from "./model/finding.js";
import { executeItem, type OperationCases, operationCases } from "./execute.js";
import { buildPlan, type OperationFacts } from "./plan/build.js";
import { budgetView, resolveBudget } from "./plan/budget.js";
import type { PlanItem } from "./model/plan.js";
import { Planner } from "./plan/planner.js";
import { WriteBudget } from "./plan/write-budget.js";
import { buildReport, type RunReport } from "./report/report.js";
import { cleanUp, ResourceTracker } from "./send/resources.js";
import { IssuedTokens } from "./identity/issued-tokens.js";
import { OpenedSessions } from "./identity/sessions.js";
import { Sender } from "./send/sender.js";
import { LinkValues } from "./send/link-values.js";
import { sequencedKinds } from "./steps/sequences.js";
import { runStep, stepFacts } from "./steps/run-step.js";

export type { RunOptions } from "./context.js";

/** Thrown when the target cannot be reached at all (exit code 2). */
export class UnreachableTarget extends UsageError {}

const READ_METHODS = new Set(["get", "head", "options"]);

/**
 * The parts of a run, each with one job: the context (options and contract facts, read-only), the sender, the judge
 * (each exchange the sender receives is handed to it), the ledger (every result) and --max-writes.
 */
export interface RunParts extends ItemParts {
  sender: Sender;
  /** Every result, as the judge recorded it: what the report is built from. */
  ledger: Ledger;
}

/** Builds the parts of a run once, wired together: the sender hands each arrival to the judge. */
export function startRun(options: RunOptions): RunParts {
  const context = new RunContext(options);
  const ledger = new Ledger(options, context.secrets);
  const judge = new Judge(context, ledger);
  const sessions = new OpenedSessions();
  const sender: Sender = new Sender(
    context,
    (arrival) => {
      sessions.noteArrival(arrival);
      judge.arrival(arrival);
    },
    (exchange) => {
      judge.exchanged(exchange);
      options.onProgress?.({ type: "request", count: sender.transport.requestCount });
    },
  );
  return {
    context,
    sender,
    judge,
    ledger,
    writes: new WriteBudget(options.maxWrites),
    tracker: new ResourceTracker(),
    tokens: new IssuedTokens(),
    sessions,
    linkValues: new LinkValues(context),
  };
}

interface SelectedOperation {
  operationId: string;
  /** The resource kind this operation creates, if any. */
  creates?: ResourceKind;
  /** A creation the run cannot delete afterwards: its valid cases count against --max-writes and are not shrunk. */
  undeletable: boolean;
  readOnly: boolean;
}

/** One request to the base address (counted against the rate limit like every other) before anything else. */
async function ensureReachable(context: RunContext, sender: Sender): Promise<void> {
  const baseUrl = context.options.baseUrl;
  const exchange = await sender.forItem(undefined).sendAsIs({ method: "GET", url: baseUrl, headers: {} });
  if (exchange.error)
    throw new UnreachableTarget(`cannot reach ${context.secrets.redact(baseUrl)}: ${exchange.error}`, 2);
}

/** Operations named with --operation must exist. */
function checkNamed(context: RunContext): void {
  const { api, operations: named } = context.options;
  const all = operationsOf(api);
  for (const id of named)
    if (!all.some((op) => op.operationId === id))
      throw new UsageError(
        `${api} has no operation "${id}"; operations: ${all.map((op) => op.operationId).join(", ")}`,
      );
}

/** Why the options keep an operation from being sent cases of its own, or undefined when they do not. */
function leftOut(
  context: RunContext,
  op: ReturnType<typeof operationsOf>[number],
  readOnly: boolean,
): string | undefined {
  const { operations: named, allowWrites } = context.options;
  const id = op.operationId;
  if (op.webhook) return "a webhook is sent by the service to you, not called by the runner";
  const explicit = context.profile.explicitOnly[id];
  if (explicit && !(named.includes(id) && allowWrites))
    return `runs only when named with --operation and --allow-writes: ${explicit}`;
  if (!readOnly && !allowWrites) return "it writes; run with --allow-writes to include it";
  return undefined;
}

/** The operations this run sends cases to, and the decisions on the others, with the reason. */
function selectOperations(context: RunContext): { selected: SelectedOperation[]; decisions: Decision[] } {
  const { api, operations: named } = context.options;
  checkNamed(context);
  const statefulOnly = new Set(
    context.resources.flatMap((kind) => [kind.update?.operationId, kind.delete?.operationId]).filter(Boolean),
  );
  const linked = new Set(
    context.links.filter((link) => link.parameters.some((p) => (p.in ?? "path") === "path")).map((link) => link.to),
  );
  const selected: SelectedOperation[] = [];
  const decisions: Decision[] = [];
  for (const op of operationsOf(api)) {
    const id = op.operationId;
    if (named.length > 0 && !named.includes(id)) continue;
    if (!context.ownsPath(op.path)) continue; // another shard's
    const skip = (reason: string) => decisions.push({ about: "operation", name: id, decision: "skipped", reason });
    const readOnly = READ_METHODS.has(op.method) || id in context.profile.readOnly;
    const left = leftOut(context, op, readOnly);
    // An operation named with --operation that the options keep from running is a mistake, not a pass.
    if (left && named.includes(id)) throw new UsageError(`--operation ${id} cannot run: ${left}`);
    if (left) {
      skip(left);
      continue;
    }
    // Exercised on the run's own resources by the stateful sequences (see sequencedKinds).
    if (statefulOnly.has(id)) continue;
    // A write on one resource acts only on what a Link Object names (the run's own resources): a generated id could
    // be someone else's. Without a link it cannot run, and that is no pass.
    const explicit = context.profile.explicitOnly[id];
    if (!readOnly && !linked.has(id) && !explicit && context.model(id).parameters.some((p) => p.in === "path")) {
      const reason = `${id} cannot run: no Link Object gives its path parameters a value from a resource the run created`;
      skip(reason);
      decisions.push({ about: "check", name: "positive_data_acceptance", decision: "cannot run", reason });
      continue;
    }
    const kind = context.resources.find((k) => k.create === id);
    selected.push({ operationId: id, creates: kind, undeletable: Boolean(kind?.undeletable), readOnly });
  }
  return { selected, decisions };
}

/** Checks that do not run at all in this run, and why. */
function skippedChecks(context: RunContext): Decision[] {
  const { api, allowWrites, maxResponseTimeMs } = context.options;
  const skipped: Decision[] = [];
  const skip = (name: CheckName, reason: string) => skipped.push({ about: "check", name, decision: "skipped", reason });
  for (const check of CHECK_LIST) {
    if (!appliesTo(check, api)) skip(check.name, `does not apply to ${api}`);
    else if (check.recordedOnly) skip(check.name, "judges recorded traffic only (--har, --from-json)");
    else if (check.writes && !allowWrites) skip(check.name, "needs --allow-writes");
    else if (check.name === "max_response_time" && maxResponseTimeMs === undefined)
      skip(check.name, "needs --max-response-time <ms>");
  }
  return skipped;
}

function factsOf(context: RunContext, operation: SelectedOperation, cases: OperationCases): OperationFacts {
  return {
    operationId: operation.operationId,
    examples: cases.examples.length,
    boundaries: cases.boundaries.length,
    mutations: cases.mutations.map((c) => mutationKind(c.violation?.description ?? c.label)),
    noWriteMutations: cases.mutations.flatMap((c, index) => (c.rawBody !== undefined ? [index] : [])),
    promisedMutations: cases.mutations.flatMap((c, index) => {
      const { violation } = c;
      if (!violation) return [];
      const { api, pointer } = cases.model.op;
      const word = requestWord(
        api,
        pointer,
        violation.location,
        cases.model.body?.pointer,
        "x-provider-refuses",
        violation.removed,
      );
      return word === undefined ? [] : [index];
    }),
    invalidData: cases.invalid !== undefined,
    secured: context.isSecured(cases.model),
    writes: operation.readOnly ? "nothing" : operation.undeletable ? "undeletable" : "deletable",
  };
}

/** The plan of this run: every selected operation's cases and the steps across them. */
function planRun(
  context: RunContext,
  selected: SelectedOperation[],
  skipped: readonly Decision[],
): { items: PlanItem[]; cases: Map<string, OperationCases> } {
  const cases = new Map(
    selected.map((op) => [op.operationId, operationCases(context, op.operationId, op.creates, op.undeletable)]),
  );
  const notRun = new Set(skipped.map((decision) => decision.name));
  const checks = new Set([...context.options.checks].filter((check) => !notRun.has(check)));
  const operations = selected.map((op) => factsOf(context, op, cases.get(op.operationId)!));
  const steps = stepFacts(
    context,
    selected.map((op) => op.operationId),
  );
  const items = buildPlan(operations, steps, { maxExamples: context.options.maxExamples, checks });
  return { items, cases };
}

/**
 * Executes the planner's items while the budget lasts, each with a sender of its own (its exchanges carry its id).
 * Operation items go --concurrency at a time where the contract declares no rate limit (the budget would hold them
 * back anyway, and the X-RateLimit-* consistency check reads consecutive responses); a step waits for them and runs
 * alone, since it follows resources across operations, and the judge runs the checks of what it did when it ends.
 */
async function executePlan(parts: RunParts, planner: Planner, cases: Map<string, OperationCases>): Promise<void> {
  const { context, sender } = parts;
  const workers = context.rateLimited ? 1 : Math.max(1, context.options.concurrency ?? 1);
  const running = new Set<Promise<void>>();
  const operationIds = [...cases.keys()];
  for (let item = planner.next(); item && !sender.aborted; item = planner.next()) {
    if (item.source.type === "step") {
      await Promise.all(running);
      const send = sender.forItem(item.id);
      for (const scenario of await runStep(parts, send, item, operationIds))
        parts.judge.scenario(scenario, send.cutByBudget);
      continue;
    }
    const send = sender.forItem(item.id);
    const operation = cases.get(item.operationId)!;
    const done: Promise<void> = executeItem(parts, send, operation, item).finally(() => running.delete(done));
    running.add(done);
    if (running.size >= workers) await Promise.race(running);
  }
  await Promise.all(running);
}

/** The planner of this run: the plan's items within the budget, at the pace of the rate limit. */
function plannerOf(
  parts: RunParts,
  items: PlanItem[],
  budget: ReturnType<typeof resolveBudget>,
  startedAt: Date,
): Planner {
  const { context, sender, tracker } = parts;
  const transport = sender.transport;
  const rate = context.options.rateLimit ?? context.declaredRateLimit;
  const elapsedMs = () => Date.now() - startedAt.getTime();
  return new Planner(
    items,
    budgetView(budget, {
      requestsSent: () => transport.requestCount,
      reserved: () => tracker.resources.filter((r) => r.state === "created" && tracker.kindOf(r).delete).length,
      msPerRequest: () =>
        rate ? (rate.windowSeconds * 1000) / rate.limit : elapsedMs() / Math.max(1, transport.requestCount),
      elapsedMs,
    }),
  );
}

export async function runConformance(options: RunOptions): Promise<RunReport> {
  const startedAt = new Date();
  const parts = startRun(options);
  const { context, sender, judge, ledger, writes } = parts;
  const budget = resolveBudget(options, context.declaredRateLimit);
  sender.transport.capRequests(budget.maxRequests);
  await ensureReachable(context, sender);
  if (options.api === "identity") {
    // Loaded only here, as the identity step is (steps/run-step.ts).
    const { followDiscovery } = await import("./identity/discovery.js");
    judge.scenario(await followDiscovery(context, sender));
  }
  const { tracker } = parts;
  const skipped = skippedChecks(context);
  judge.decided(skipped);
  let error: Error | undefined;
  let items: PlanItem[] = [];
  let planner: Planner | undefined;
  try {
    const { selected, decisions } = selectOperations(context);
    judge.decided(decisions);
    writes.keepForSequences(sequencedKinds(context), options.api === "pay" && options.checks.has("nonce_replay"));
    const plan = planRun(context, selected, skipped);
    items = plan.items;
    const rate = context.options.rateLimit ?? context.declaredRateLimit;
    options.onProgress?.({
      type: "plan",
      cases: items.length,
      requests: items.reduce((sum, item) => sum + item.cost, 0),
      maxRequests: budget.maxRequests,
      msPerRequest: rate ? (rate.windowSeconds * 1000) / rate.limit : undefined,
    });
    planner = plannerOf(parts, items, budget, startedAt);
    await executePlan(parts, planner, plan.cases);
  } catch (caught) {
    error = caught instanceof Error ? caught : new Error(String(caught));
  } finally {
    // Cleanup runs whatever happened before: a failure, an exception or Ctrl-C (a second one is the CLI's).
    sender.transport.ignoreInterrupts();
    await cleanUp(context, sender.forItem(undefined), tracker);
    if (options.api === "identity") {
      // Loaded only here, as the identity step is: openid-client sends the revocations.
      const { endOpenedSessions, revokeIssuedTokens } = await import("./identity/cleanup.js");
      tracker.endedElsewhere(await revokeIssuedTokens(context, sender.forItem(undefined), parts.tokens));
      tracker.endedElsewhere(await endOpenedSessions(context, sender.forItem(undefined), parts.sessions));
    }
  }
  if (error) throw error;
  return buildReport(context, ledger, {
    startedAt,
    finishedAt: new Date(),
    interrupted: options.signal.aborted,
    resources: tracker.resources,
    plan: { budget, planned: items.length, notReached: planner?.notReached() ?? [] },
  });
}
