// The conformance run: plans which operations run (read-only unless --allow-writes), sends each operation's cases
// in order (examples, boundary values, random valid data, invalid data, missing and wrong credentials) with
// fast-check driving generation and shrinking, runs the stateful sequences, then deletes what the run created,
// also after a failure or Ctrl-C.
import fc from "fast-check";
import { operationsOf } from "./lookup.js";
import { UsageError } from "../lib/cli.js";
import { appliesTo, CHECKS } from "./checks.js";
import { isSuccess } from "./contract-words.js";
import {
  applyMutation,
  boundaryCases,
  exampleCases,
  invalidCaseArbitrary,
  type OperationModel,
  type RequestCase,
  validateCase,
  validCaseArbitrary,
} from "./cases.js";
import { scopeEnforcement } from "./scopes.js";
import { unsupportedMethods } from "./methods.js";
import { operationMutations } from "./mutations.js";
import { buildReport, type RunReport } from "./report.js";
import { type RunOptions, Session } from "./session.js";
import { cleanUp, markAsOurs, ResourceTracker, runStatefulSequences, sequencedKinds } from "./stateful.js";
import { linkedValues } from "./link-values.js";
import { resourceId } from "./links.js";
import type { Exchange } from "./transport.js";

export type { RunOptions } from "./session.js";

/** Thrown when the target cannot be reached at all (exit code 2). */
export class UnreachableTarget extends UsageError {}

const READ_METHODS = new Set(["get", "head", "options"]);

interface PlannedOperation {
  model: OperationModel;
  /** The resource kind this operation creates, if any. */
  creates?: string;
  /** A creation the run cannot delete afterwards: its valid cases count against --max-writes and are not shrunk. */
  undeletable: boolean;
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

function plan(session: Session): PlannedOperation[] {
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
  const planned: PlannedOperation[] = [];
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
    if (statefulOnly.has(id)) continue; // exercised on the run's own resources by the stateful sequences (see sequencedKinds)
    // A write on one resource acts only on what a Link Object names (the run's own resources): a generated id could
    // be someone else's. Without a link it cannot run, and that is no pass.
    if (!readOnly && !linked.has(id) && !explicit && session.model(id).parameters.some((p) => p.in === "path")) {
      const reason = `${id} cannot run: no Link Object gives its path parameters a value from a resource the run created`;
      skip(reason);
      session.cannotRun("positive_data_acceptance", reason);
      continue;
    }
    const kind = session.resources.find((k) => k.create === id);
    planned.push({ model: session.model(id), creates: kind?.name, undeletable: Boolean(kind?.undeletable) });
  }
  return planned;
}

export async function runConformance(options: RunOptions): Promise<RunReport> {
  const startedAt = new Date();
  const session = new Session(options);
  await ensureReachable(session);
  const tracker = new ResourceTracker();
  for (const check of CHECKS) {
    if (!appliesTo(check, options.api)) session.skippedChecks.set(check.name, `does not apply to ${options.api}`);
    else if (check.recordedOnly)
      session.skippedChecks.set(check.name, "judges recorded traffic only (--har, --from-json)");
    else if (check.writes && !options.allowWrites) session.skippedChecks.set(check.name, "needs --allow-writes");
    else if (check.name === "max_response_time" && options.maxResponseTimeMs === undefined)
      session.skippedChecks.set(check.name, "needs --max-response-time <ms>");
  }
  let error: Error | undefined;
  try {
    const planned = plan(session);
    session.keepWritesForSequences(sequencedKinds(session));
    // Operations run in parallel only where the contract declares no rate limit (the budget would hold them back
    // anyway, and the X-RateLimit-* consistency check reads consecutive responses).
    const workers = session.rateLimited ? 1 : Math.max(1, options.concurrency ?? 1);
    const queue = [...planned];
    await Promise.all(
      Array.from({ length: Math.min(workers, queue.length) }, async () => {
        for (let item = queue.shift(); item && !session.aborted; item = queue.shift())
          await runOperation(session, tracker, item);
      }),
    );
    if (!session.aborted) await runStatefulSequences(session, tracker);
    if (!session.aborted)
      await scopeEnforcement(
        session,
        tracker,
        planned.map((p) => p.model.op.operationId),
      );
    if (!session.aborted)
      await unsupportedMethods(
        session,
        planned.map((p) => p.model.op.operationId),
      );
    // The OpenID Connect checks are one unit: the first shard runs them. Loaded only here, since their modules (the
    // flows, the sign-in drivers, jose) are about a quarter of the start-up of a links, catalog or pay run.
    if (!session.aborted && options.api === "identity" && (options.shard?.index ?? 1) === 1)
      await (await import("./identity-checks.js")).runIdentityChecks(session);
  } catch (caught) {
    error = caught instanceof Error ? caught : new Error(String(caught));
  } finally {
    // Cleanup runs whatever happened before: a failure, an exception or Ctrl-C.
    await cleanUp(session, tracker);
  }
  if (error) throw error;
  return buildReport(session, tracker, { startedAt, finishedAt: new Date(), interrupted: session.aborted });
}

/** What the phases of one operation share: its model, its first examples, and how its sends are counted. */
interface OperationRun {
  session: Session;
  item: PlannedOperation;
  examples: RequestCase[];
  progress: (phase: string) => void;
  /** Records a creation; for what cannot be deleted, also takes it from --max-writes. */
  afterSend: (exchange: Exchange) => void;
  /** Notes in the report that requests of a kind were not sent for lack of --max-writes. */
  notSent: (what: string) => void;
}

async function runOperation(session: Session, tracker: ResourceTracker, item: PlannedOperation): Promise<void> {
  const { model } = item;
  const operationId = model.op.operationId;
  const kind = item.creates ? session.resources.find((k) => k.name === item.creates) : undefined;
  const run: OperationRun = {
    session,
    item,
    examples: exampleCases(model, session.profile, session.options.credentials).map((c) =>
      item.creates ? markAsOurs(c, session) : c,
    ),
    progress: (phase) => session.options.onProgress?.({ type: "operation", operationId, phase }),
    afterSend: (exchange) => {
      // A 200 carrying the error envelope (links, pay) created nothing: no phantom "left behind" without an id.
      if (!kind || !isSuccess(model.op.api, exchange.response)) return;
      tracker.created(kind, resourceId(exchange.response?.json, kind.id), operationId);
      if (item.undeletable) session.writesLeft -= 1;
    },
    notSent: (what) => {
      const earlier = session.skippedOperations.get(operationId);
      const why = `the --max-writes ${session.maxWrites} creations the run cannot delete are made or kept for the stateful sequences`;
      session.skippedOperations.set(operationId, earlier ? `${earlier}; ${what} not sent` : `${what} not sent: ${why}`);
    },
  };
  // A lenient server may also create from invalid data: what it cannot delete goes first, while the budget has room
  // for it, and a correct server's refusals leave the budget to the valid data.
  const phases = item.undeletable
    ? [invalidData, validData, credentialProbes]
    : [validData, invalidData, credentialProbes];
  for (const phase of phases) if (!session.aborted) await phase(run);
}

/** Valid requests (examples, boundaries, then generated ones); what cannot be deleted at most --max-writes times. */
async function validData({ session, item, examples, progress, afterSend, notSent }: OperationRun): Promise<void> {
  const { model } = item;
  const operationId = model.op.operationId;
  const { credentials, maxExamples } = session.options;
  const budget = item.undeletable ? Math.min(maxExamples, session.writesLeft) : maxExamples;
  // Every valid creation gets identifying values of its own (a fresh domain, name, slug), so that no valid request
  // is refused because of a resource this run created before (two boundary cases adding the same domain: 409).
  const unique = (c: RequestCase): RequestCase => {
    if (!item.creates || c.origin === "invalid") return c;
    const tagged = markAsOurs(c, session);
    return validateCase(model, tagged).valid ? tagged : c;
  };
  // Values from the deployment (Link Objects). A write without them is not sent (its example's ids are made up); a
  // read falls back to generated values, which the contract allows to find nothing.
  const fromLinks = budget > 0 ? await linkedValues(session, operationId) : undefined;
  if (fromLinks?.missing && !session.isRead(operationId)) {
    session.skippedOperations.set(operationId, `valid data not sent: ${fromLinks.missing}`);
    session.cannotRun("positive_data_acceptance", fromLinks.missing);
  } else if (fromLinks) {
    progress("valid data");
    const boundaries = boundaryCases(model, session.profile, credentials, Math.max(1, Math.floor(budget / 2)));
    const fixed = [...examples, ...boundaries].slice(0, budget);
    const prepareValid = (c: RequestCase) => fromLinks.apply(unique(c));
    const count = (exchange: Exchange) => {
      afterSend(exchange);
      // A valid creation counts against --max-writes even when refused: the refusal may have come after it was stored.
      if (item.undeletable && !isSuccess(model.op.api, exchange.response)) session.writesLeft -= 1;
    };
    await propertyPhase(
      session,
      model,
      "valid",
      validCaseArbitrary(model, session.profile, credentials),
      fixed,
      count,
      prepareValid,
      { limit: budget, shrinks: item.undeletable ? 0 : undefined },
    );
  } else if (item.undeletable) notSent("valid data");
}

/** Invalid requests (every kind of mutation of the first example, then generated ones), which should be refused. */
async function invalidData({ session, item, examples, progress, afterSend, notSent }: OperationRun): Promise<void> {
  const { model } = item;
  const { credentials, maxExamples } = session.options;
  const invalid = invalidCaseArbitrary(model, session.profile, credentials);
  if (!invalid || !examples[0] || !session.options.checks.has("negative_data_rejection")) return;
  if (item.undeletable && session.writesLeft <= 0) return notSent("invalid data");
  progress("invalid data");
  // Every kind of mutation on the first example first, so that each kind is tried even with few examples.
  const base = examples[0];
  const systematic = operationMutations(model.op.api, model.op.pointer)
    .map((mutation) => applyMutation(base, mutation))
    .filter((c): c is RequestCase => c !== undefined && !validateCase(model, c).valid);
  const bounds = item.undeletable ? { shrinks: 0, stop: () => session.writesLeft <= 0 } : {};
  await propertyPhase(
    session,
    model,
    "invalid",
    invalid,
    spread(systematic, Math.ceil(maxExamples / 2)),
    afterSend,
    undefined,
    bounds,
  );
}

/** The first example without credentials and with wrong ones, which should be refused. */
async function credentialProbes({
  session,
  item,
  examples,
  progress,
  afterSend,
  notSent,
}: OperationRun): Promise<void> {
  if (!session.isSecured(item.model) || !examples[0] || !session.options.checks.has("ignored_auth")) return;
  progress("credentials");
  for (const [mode, label] of [
    ["none", "no credentials"],
    ["wrong", "wrong credentials"],
  ] as const) {
    if (session.aborted) return;
    if (item.undeletable && session.writesLeft <= 0) return notSent(`a request with ${label}`);
    const exchange = await session.send(item.model, examples[0], mode);
    afterSend(exchange);
    session.check(item.model, exchange, "unauthenticated", label);
  }
}

/** Up to `count` items spread over the whole list, so that every kind of mutation has a chance. */
function spread<T>(items: T[], count: number): T[] {
  if (items.length <= count) return items;
  return Array.from({ length: count }, (_, i) => items[Math.floor((i * items.length) / count)]!);
}

/**
 * Sends `fixed` cases and then random ones from `arbitrary` (up to --max-examples in all) through fast-check. On a
 * failure fast-check shrinks the case while the same check keeps failing; the run then goes on with the checks that
 * have not failed yet, so one failure does not hide the others.
 */
async function propertyPhase(
  session: Session,
  model: OperationModel,
  expectation: "valid" | "invalid",
  arbitrary: fc.Arbitrary<RequestCase | undefined>,
  fixed: RequestCase[],
  afterSend: (exchange: Exchange) => void,
  beforeSend: (requestCase: RequestCase) => RequestCase = (c) => c,
  bounds: { limit?: number; shrinks?: number; stop?: () => boolean } = {},
): Promise<number> {
  const { seed } = session.options;
  const maxExamples = bounds.limit ?? session.options.maxExamples;
  const maxShrinks = bounds.shrinks ?? session.options.maxShrinks;
  const operationId = model.op.operationId;
  const found = new Set<string>();
  const sent = new Set<RequestCase>();
  let consumed = 0;
  const stopped = () => session.aborted || (bounds.stop?.() ?? false);
  for (let round = 0; round < 8 && !stopped() && consumed < maxExamples; round++) {
    const examples = fixed.filter((c) => !sent.has(c));
    let target: string | undefined;
    let shrinkRequests = 0;
    let last: { exchange: Exchange; label: string; message: string; where?: string } | undefined;
    const result = await fc.check(
      fc.asyncProperty(arbitrary, async (requestCase) => {
        // No case to send (invalidCaseArbitrary): skipped; too many skips end the phase (fast-check's maxSkipsPerRun).
        fc.pre(requestCase !== undefined);
        if (stopped()) return true;
        if (target === undefined) {
          consumed += 1;
          sent.add(requestCase);
        } else if (shrinkRequests++ >= maxShrinks) return true;
        const exchange = await session.send(model, beforeSend(requestCase));
        afterSend(exchange);
        const seeded = !fixed.includes(requestCase);
        const failed = session.check(model, exchange, expectation, requestCase.label, {
          tally: target === undefined,
          violation: requestCase.violation,
          seeded,
        });
        if (target === undefined) {
          const fresh = [...failed.keys()].find((check) => !found.has(check));
          if (!fresh) return true;
          target = fresh;
          last = {
            exchange,
            label: requestCase.label,
            message: failed.get(fresh)!,
            where: requestCase.violation?.description.split(":")[0],
          };
          return false;
        }
        const message = failed.get(target);
        if (message === undefined) return true;
        last = { exchange, label: requestCase.label, message, where: requestCase.violation?.description.split(":")[0] };
        return false;
      }),
      {
        seed: seed + round,
        numRuns: Math.max(examples.length, maxExamples - consumed),
        examples: examples.map((c) => [c] as [RequestCase]),
      },
    );
    if (!result.failed || target === undefined || !last) break; // passed, or too many cases skipped
    if (shrinkRequests > 0)
      session.record(
        target,
        operationId,
        last.message,
        last.exchange,
        `${last.label} (shrunk in ${shrinkRequests} requests)`,
        { tally: false, shrunk: true, where: last.where },
      );
    found.add(target);
  }
  return consumed;
}
