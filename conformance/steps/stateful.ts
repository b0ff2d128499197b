// Stateful sequences that follow the resources (create, find in the list, update, delete, then prove it is gone),
// catalog's Idempotency-Key replay and pay's nonce replay. Each is one step of the plan (plan/items.ts); the resources
// they create are tracked and deleted by resources.ts.
import { canonicalJson } from "../../lib/canonical-json.js";
import type { ResourceKind } from "../apis.js";
import { exampleCases, type OperationModel, type RequestCase } from "../plan/cases.js";
import { type Session } from "../send/session.js";
import { markAsOurs, outcomeOf, type ResourceTracker, succeeded } from "../send/resources.js";
import type { Exchange } from "../send/transport.js";
import { echoed } from "../judge/echoed.js";
import { linkedValues } from "../send/link-values.js";
import { resourceId } from "../contract/links.js";
import { findInList, type ListSearch } from "./list-search.js";
import { updateVisibleInList } from "./update-visible.js";
import { verdictOf } from "../judge/verdict.js";

/** The sequence of one resource kind: catalog's Idempotency-Key replay, or the lifecycle. */
export async function runSequence(session: Session, tracker: ResourceTracker, kind: ResourceKind): Promise<void> {
  if (session.options.api === "catalog") await idempotentCreation(session, tracker, kind);
  else await resourceLifecycle(session, tracker, kind);
}

/** Whether pay's nonce replay runs: the check is selected and the run owns the signed read it replays. */
export const nonceReplayRuns = (session: Session): boolean =>
  session.options.api === "pay" && session.options.checks.has("nonce_replay") && selected(session, "getBalance");

/** Named with --operation (every operation is, when none is named). */
const named = (session: Session, operationId: string | undefined) => {
  const { operations } = session.options;
  return operationId !== undefined && (operations.length === 0 || operations.includes(operationId));
};

const selected = (session: Session, operationId: string) => named(session, operationId) && session.owns(operationId);

/**
 * The resource kinds whose sequence this run follows: with --allow-writes, each whose creation, update or delete it
 * selected (a named update or delete acts on a resource of the run's own, so it brings the whole sequence), in the
 * shard that owns the creation.
 */
export function sequencedKinds(session: Session): ResourceKind[] {
  const steps = (kind: ResourceKind) => [kind.create, kind.update?.operationId, kind.delete?.operationId];
  return session.options.allowWrites
    ? session.resources.filter((kind) => session.owns(kind.create) && steps(kind).some((id) => named(session, id)))
    : [];
}

/** The first example, marked as ours, with the values the links give it from the deployment (or why there are none). */
async function creationCase(session: Session, kind: ResourceKind): Promise<RequestCase | string | undefined> {
  const base = exampleCases(session.model(kind.create), session.profile, session.options.credentials)[0];
  if (!base) return undefined;
  if (!session.sequenceMayCreate(kind))
    return `--max-writes ${session.maxWrites} leaves no creation for this sequence (${kind.undeletable})`;
  const values = await linkedValues(session.context, session.caseSender, session.judge, kind.create);
  if (values.missing) return values.missing;
  return values.apply({ ...markAsOurs(base, session), origin: "example", label: `create a ${kind.name} (sequence)` });
}

const sendToList = (session: Session) => (operationId: string, requestCase: RequestCase) =>
  sendStep(session, operationId, requestCase);

async function sendStep(
  session: Session,
  operationId: string,
  requestCase: RequestCase,
  expectation: "valid" | "any" = "valid",
): Promise<Exchange> {
  const model = session.model(operationId);
  const exchange = await session.send(model, { ...requestCase, origin: "sequence" });
  session.judge.exchange(model, exchange, expectation, requestCase.label);
  return exchange;
}

function withId(
  session: Session,
  operationId: string,
  parameter: string,
  id: string | number,
  label: string,
): RequestCase | undefined {
  const base = exampleCases(session.model(operationId), session.profile, session.options.credentials)[0];
  // An update sends its identifying values marked as ours, like a creation: the example's may be taken (a rotator
  // slug).
  return base && markAsOurs({ ...structuredClone(base), path: { ...base.path, [parameter]: id }, label }, session);
}

/**
 * Sends the first example of a creation with the links' values; says why the sequence's checks cannot run otherwise.
 */
async function createForSequence(
  session: Session,
  tracker: ResourceTracker,
  kind: ResourceKind,
  checks: string[],
): Promise<{ create: RequestCase; created: Exchange; id: string | number } | undefined> {
  const create = await creationCase(session, kind);
  if (create === undefined) return undefined;
  session.options.onProgress?.({ type: "operation", operationId: kind.create, phase: `${kind.name} sequence` });
  const created = typeof create === "string" ? undefined : await sendStep(session, kind.create, create);
  const id = created && resourceId(created.response?.json, kind.id);
  if (typeof create === "string" || !created || !succeeded(session, created) || id === undefined) {
    const why =
      typeof create === "string"
        ? create
        : !created
          ? "not sent"
          : succeeded(session, created)
            ? `no id at ${kind.id} in the response`
            : outcomeOf(session, created);
    for (const check of checks)
      session.ledger.decide({
        about: "check",
        name: check,
        decision: "cannot run",
        reason: `the ${kind.name} sequence could not create a ${kind.name} (${kind.create}: ${why})`,
      });
    return undefined;
  }
  tracker.created(kind, id, kind.create);
  echoed(session, kind, create.body, created, `the ${kind.create} response`);
  return { create, created, id };
}

/** create → listed → read → update → delete → not listed and no longer updatable. */
async function resourceLifecycle(session: Session, tracker: ResourceTracker, kind: ResourceKind): Promise<void> {
  const checks = [
    ...(kind.list ? ["ensure_resource_availability"] : []),
    ...(kind.delete ? ["use_after_free"] : []),
    "created_values_echoed",
  ];
  const made = await createForSequence(session, tracker, kind, checks);
  if (!made) return;
  const { create, created, id } = made;
  if (session.options.api === "pay") await replayCreation(session, tracker, kind, created);
  let listed: ListSearch | undefined;
  if (kind.list) {
    listed = await findInList(session, kind, id, sendToList(session));
    if (listed.outcome === "unknown")
      session.ledger.decide({
        about: "check",
        name: "ensure_resource_availability",
        decision: "cannot run",
        reason: `the new ${kind.name} ${id} could not be looked for: ${listed.why}`,
      });
    else
      session.ledger.add(
        verdictOf(
          "ensure_resource_availability",
          kind.list.operationId,
          listed.outcome === "found"
            ? ""
            : `the ${kind.name} ${id} created by ${kind.create} is not in ${kind.list.operationId}`,
          listed.last ?? created,
          `find the new ${kind.name} ${id}`,
        ),
      );
    if (listed.outcome === "found" && listed.last)
      echoed(session, kind, create.body, listed.last, kind.list.operationId, listed.item);
  }
  for (const step of [kind.read, kind.update]) {
    const request =
      step &&
      withId(
        session,
        step.operationId,
        step.pathParameter,
        id,
        `${step === kind.read ? "read" : "update"} the new ${kind.name} ${id} (sequence)`,
      );
    if (!step || !request) continue;
    const exchange = await sendStep(session, step.operationId, request);
    if (step === kind.update)
      await updateVisibleInList(session, kind, id, { request, exchange }, listed, sendToList(session));
  }
  if (!kind.delete || session.aborted) return;
  const deleteCase = withId(
    session,
    kind.delete.operationId,
    kind.delete.pathParameter,
    id,
    `delete the new ${kind.name} ${id} (sequence)`,
  );
  if (!deleteCase) return;
  const deleted = await sendStep(session, kind.delete.operationId, deleteCase);
  if (!succeeded(session, deleted)) {
    session.ledger.decide({
      about: "check",
      name: "use_after_free",
      decision: "cannot run",
      reason: `the ${kind.name} ${id} could not be deleted (${kind.delete.operationId}: ${outcomeOf(session, deleted)})`,
    });
    return;
  }
  const resource = tracker.resources.find((r) => r.kind === kind.name && r.id === id);
  if (resource) resource.state = "deleted";
  await afterDeletion(session, kind, id, listed);
}

/**
 * nonce_replay on the creation itself (pay's createOrder): the sequence's accepted request sent again unchanged must
 * be refused. A gateway that accepts it makes a second order, so the replay goes only with a write kept for it.
 */
async function replayCreation(
  session: Session,
  tracker: ResourceTracker,
  kind: ResourceKind,
  created: Exchange,
): Promise<void> {
  if (!session.options.checks.has("nonce_replay") || !session.creationMayBeReplayed(kind) || session.aborted) return;
  const model = session.model(kind.create);
  const label = `the same ${kind.create} again (same nonce and signature)`;
  const replay = await sendAgain(session, model, created, label);
  const accepted = succeeded(session, replay);
  if (accepted) tracker.created(kind, resourceId(replay.response?.json, kind.id), kind.create);
  session.ledger.add(
    verdictOf(
      "nonce_replay",
      kind.create,
      accepted ? `a ${kind.create} whose nonce was already used was accepted (a second ${kind.name})` : "",
      replay,
      label,
    ),
  );
}

/** use_after_free: the deleted resource must neither answer an update (or a second delete) nor stay in the list. */
async function afterDeletion(
  session: Session,
  kind: ResourceKind,
  id: string | number,
  listed: ListSearch | undefined,
): Promise<void> {
  const step = kind.update ?? kind.delete!;
  const probe = withId(
    session,
    step.operationId,
    step.pathParameter,
    id,
    kind.update ? `update the deleted ${kind.name} ${id}` : `delete the deleted ${kind.name} ${id} again`,
  );
  if (probe) {
    const after = await sendStep(session, step.operationId, probe, "any");
    session.ledger.add(
      verdictOf(
        "use_after_free",
        step.operationId,
        succeeded(session, after)
          ? `the ${kind.name} ${id} was deleted but ${step.operationId} still answered ${after.response!.status}`
          : "",
        after,
        probe.label,
      ),
    );
  }
  if (!kind.list) return;
  if (listed?.outcome !== "found") {
    session.ledger.decide({
      about: "check",
      name: "use_after_free",
      decision: "cannot run",
      reason: `the deleted ${kind.name} ${id} was not looked for in ${kind.list.operationId}: it was not found there before its deletion either`,
    });
    return;
  }
  const { outcome, last, why } = await findInList(session, kind, id, sendToList(session), listed.page);
  if (outcome === "unknown")
    session.ledger.decide({
      about: "check",
      name: "use_after_free",
      decision: "cannot run",
      reason: `the deleted ${kind.name} ${id} could not be looked for in its list: ${why}`,
    });
  else
    session.ledger.add(
      verdictOf(
        "use_after_free",
        kind.list.operationId,
        outcome === "found" ? `the ${kind.name} ${id} was deleted but is still in ${kind.list.operationId}` : "",
        last,
        `look for the deleted ${kind.name} ${id}`,
      ),
    );
}

/** The same creation twice with one Idempotency-Key must return the same product and create only one. */
async function idempotentCreation(session: Session, tracker: ResourceTracker, kind: ResourceKind): Promise<void> {
  const create = await creationCase(session, kind);
  if (create === undefined) return;
  if (typeof create === "string") {
    for (const check of ["idempotency", "created_values_echoed"])
      session.ledger.decide({
        about: "check",
        name: check,
        decision: "cannot run",
        reason: `the ${kind.name} could not be created: ${create}`,
      });
    return;
  }
  session.options.onProgress?.({ type: "operation", operationId: kind.create, phase: "idempotency" });
  const key = globalThis.crypto.randomUUID();
  create.headers["Idempotency-Key"] = key;
  const first = await sendStep(session, kind.create, { ...create, label: `create with Idempotency-Key ${key}` });
  if (!succeeded(session, first)) {
    const why = `the first creation with an Idempotency-Key was not accepted (${outcomeOf(session, first)})`;
    session.ledger.decide({
      about: "check",
      name: "idempotency",
      decision: "cannot run",
      reason: `${why}, so a repeat proves nothing`,
    });
    session.ledger.decide({
      about: "check",
      name: "created_values_echoed",
      decision: "cannot run",
      reason: `${why}, so nothing came back to compare`,
    });
    return;
  }
  tracker.created(kind, resourceId(first.response?.json, kind.id) ?? `Idempotency-Key ${key}`, kind.create);
  echoed(session, kind, create.body, first, `the ${kind.create} response`);
  const second = await sendStep(session, kind.create, {
    ...create,
    label: `repeat with the same Idempotency-Key ${key}`,
  });
  const secondId = resourceId(second.response?.json, kind.id);
  if (succeeded(session, second) && secondId !== undefined) tracker.created(kind, secondId, kind.create);
  const same =
    succeeded(session, second) && canonicalJson(first.response?.json) === canonicalJson(second.response?.json);
  const message = !succeeded(session, second)
    ? `the repeat with the same Idempotency-Key was answered ${second.response?.status ?? second.error}`
    : same
      ? ""
      : `the repeat with the same Idempotency-Key returned another product: ${JSON.stringify(first.response?.json).slice(0, 200)} then ${JSON.stringify(second.response?.json).slice(0, 200)}`;
  session.ledger.add(verdictOf("idempotency", kind.create, message, second, `repeat with the same Idempotency-Key`));
}

/** Sends a request again byte for byte (same nonce, same signature), and checks the answer like any other. */
async function sendAgain(session: Session, model: OperationModel, sent: Exchange, label: string): Promise<Exchange> {
  const replay = await session.transport.send({ ...sent.request, headers: { ...sent.request.headers } });
  session.observations.observe(model, replay);
  session.judge.exchange(model, replay, "any", label);
  return replay;
}

/** A signed read sent twice with the same bytes (same nonce, same signature): the second must be refused. */
export async function nonceReplay(session: Session): Promise<void> {
  const model = session.model("getBalance");
  const base = exampleCases(model, session.profile, session.options.credentials)[0];
  if (!base) return;
  session.options.onProgress?.({ type: "operation", operationId: "getBalance", phase: "nonce replay" });
  const first = await session.send(model, { ...base, origin: "sequence", label: "signed read" });
  session.judge.exchange(model, first, "valid", "signed read (nonce replay)");
  const accepted = (exchange: Exchange) => succeeded(session, exchange);
  if (!accepted(first)) {
    session.ledger.decide({
      about: "check",
      name: "nonce_replay",
      decision: "cannot run",
      reason: `the first signed request was not accepted (${outcomeOf(session, first)}), so a replay proves nothing`,
    });
    return;
  }
  const again = "the same request again (same nonce and signature)";
  const replay = await sendAgain(session, model, first, again);
  session.ledger.add(
    verdictOf(
      "nonce_replay",
      "getBalance",
      accepted(replay) ? "a request whose nonce was already used was accepted" : "",
      replay,
      again,
    ),
  );

  // A nonce is unique for each request, not for each operation: another operation, correctly signed, with that nonce.
  const used = (JSON.parse(first.request.body ?? "{}") as { nonce?: unknown }).nonce;
  const other = session.model("listShops");
  const otherBase = exampleCases(other, session.profile, session.options.credentials)[0];
  if (typeof used !== "number" || !otherBase || !otherBase.body || typeof otherBase.body !== "object") return;
  const label = `listShops signed with the nonce ${used} that getBalance used`;
  const elsewhere = await session.send(other, {
    ...otherBase,
    body: { ...(otherBase.body as Record<string, unknown>), nonce: used },
    origin: "sequence",
    label,
  });
  session.judge.exchange(other, elsewhere, "any", label);
  session.ledger.add(
    verdictOf(
      "nonce_replay",
      "listShops",
      accepted(elsewhere) ? `a nonce already used on getBalance was accepted on listShops` : "",
      elsewhere,
      label,
      { sentBefore: first },
    ),
  );
}
