// The lifecycle of one resource, in order: create it, find it in its list, read it, update it (and see the update
// on the next read), delete it, then prove it is gone (no longer updatable, no longer listed). Pay also replays the
// creation with its used nonce (nonce-replay.ts). Each exchange is judged with the response checks; what the
// sequence saw across them goes to its checks in judge/sequence-checks.ts.
import type { ResourceKind } from "../apis.js";
import { createdIsListed, deletedDoesNotAnswer, deletedIsNotListed } from "../judge/sequence-checks.js";
import { createdValuesEchoed } from "../judge/echoed.js";
import { outcomeOf, succeeded } from "../send/resources.js";
import { type Creation, createForSequence } from "./creation.js";
import { findInList, type ListSearch } from "./list-search.js";
import { replayCreation } from "./nonce-replay.js";
import { cannotRun, sendStep, type StepParts, withId } from "./parts.js";
import { updateVisibleInList } from "./update-visible.js";

/** create → listed → read → update → delete → not listed and no longer updatable. */
export async function resourceLifecycle(step: StepParts, kind: ResourceKind): Promise<void> {
  const checks = [
    ...(kind.list ? ["ensure_resource_availability"] : []),
    ...(kind.delete ? ["use_after_free"] : []),
    "created_values_echoed",
  ];
  const made = await createForSequence(step, kind, checks);
  if (!made) return;
  if (step.context.options.api === "pay") await replayCreation(step, kind, made.created);
  const listed = kind.list ? await findTheNew(step, kind, made) : undefined;
  await readAndUpdate(step, kind, made.id, listed);
  if (kind.delete && !step.send.aborted && (await deleteTheNew(step, kind, made.id)))
    await afterDeletion(step, kind, made.id, listed);
}

/** ensure_resource_availability: the new resource is in its list, as it was created (created_values_echoed). */
async function findTheNew(step: StepParts, kind: ResourceKind, { create, created, id }: Creation): Promise<ListSearch> {
  const { context, ledger } = step;
  const listed = await findInList(step, kind, id);
  if (listed.outcome === "unknown") {
    cannotRun(
      ledger,
      "ensure_resource_availability",
      `the new ${kind.name} ${id} could not be looked for: ${listed.why}`,
    );
    return listed;
  }
  ledger.add(createdIsListed(kind, id, listed.outcome, listed.last ?? created));
  if (listed.outcome === "found" && listed.last) {
    const where = kind.list!.operationId;
    const echoed = createdValuesEchoed(context.model(kind.create), kind, create.body, listed.last, where, listed.item);
    if (echoed) ledger.add(echoed);
  }
  return listed;
}

/** Reads the new resource and updates it; an accepted update must show in the list (update-visible.ts). */
async function readAndUpdate(
  step: StepParts,
  kind: ResourceKind,
  id: string | number,
  listed: ListSearch | undefined,
): Promise<void> {
  for (const [action, target] of [
    ["read", kind.read],
    ["update", kind.update],
  ] as const) {
    const request = target && withId(step.context, target, id, `${action} the new ${kind.name} ${id} (sequence)`);
    if (!target || !request) continue;
    const exchange = await sendStep(step, target.operationId, request);
    if (action === "update") await updateVisibleInList(step, kind, id, { request, exchange }, listed);
  }
}

/** Deletes the new resource; says whether it was deleted (use_after_free cannot run otherwise). */
async function deleteTheNew(step: StepParts, kind: ResourceKind, id: string | number): Promise<boolean> {
  const { context, ledger, tracker } = step;
  const deletion = kind.delete!;
  const deleteCase = withId(context, deletion, id, `delete the new ${kind.name} ${id} (sequence)`);
  if (!deleteCase) return false;
  const deleted = await sendStep(step, deletion.operationId, deleteCase);
  if (!succeeded(context, deleted)) {
    const outcome = outcomeOf(context, deleted);
    cannotRun(
      ledger,
      "use_after_free",
      `the ${kind.name} ${id} could not be deleted (${deletion.operationId}: ${outcome})`,
    );
    return false;
  }
  const resource = tracker.resources.find((r) => r.kind === kind.name && r.id === id);
  if (resource) resource.state = "deleted";
  return true;
}

/** use_after_free: the deleted resource must neither answer an update (or a second delete) nor stay in the list. */
async function afterDeletion(
  step: StepParts,
  kind: ResourceKind,
  id: string | number,
  listed: ListSearch | undefined,
): Promise<void> {
  const { context, ledger } = step;
  const target = kind.update ?? kind.delete!;
  const label = kind.update ? `update the deleted ${kind.name} ${id}` : `delete the deleted ${kind.name} ${id} again`;
  const probe = withId(context, target, id, label);
  if (probe) {
    const after = await sendStep(step, target.operationId, probe, "any");
    ledger.add(deletedDoesNotAnswer(context.options.api, kind, id, target.operationId, after, label));
  }
  if (!kind.list) return;
  const listOperation = kind.list.operationId;
  if (listed?.outcome !== "found") {
    const why = `it was not found there before its deletion either`;
    cannotRun(
      ledger,
      "use_after_free",
      `the deleted ${kind.name} ${id} was not looked for in ${listOperation}: ${why}`,
    );
    return;
  }
  const { outcome, last, why } = await findInList(step, kind, id, listed.page);
  if (outcome === "unknown")
    cannotRun(ledger, "use_after_free", `the deleted ${kind.name} ${id} could not be looked for in its list: ${why}`);
  else ledger.add(deletedIsNotListed(kind, id, outcome, last));
}
