// The lifecycle of one resource, in order: create it, find it in its list, read it, update it (and look for the
// update in the list), delete it, then try to use it after its deletion (update it, look for it in the list). Pay also
// replays the creation with its used nonce (nonce-replay.ts). Each exchange is judged with the response checks; the
// step returns what it sent and found as a scenario, which judge/sequence-scenarios.ts judges.
import type { ResourceKind } from "../apis.js";
import type { LifecycleScenario } from "../model/step-scenarios.js";
import { succeeded } from "../send/resources.js";
import { createForSequence } from "./creation.js";
import { findInList } from "./list-search.js";
import { replayCreation } from "./nonce-replay.js";
import { sendStep, type StepParts, withId } from "./parts.js";
import { findUpdated } from "./update-visible.js";

/** create → listed → read → update → delete → not listed and no longer updatable. */
export async function resourceLifecycle(step: StepParts, kind: ResourceKind): Promise<LifecycleScenario | undefined> {
  const creation = await createForSequence(step, kind);
  if (!creation) return undefined;
  const scenario: LifecycleScenario = { family: "step", name: "lifecycle", kind, creation: creation.attempt };
  const { made } = creation;
  if (!made) return scenario;
  if (step.context.options.api === "pay") scenario.replay = await replayCreation(step, kind, made.created);
  if (kind.list) scenario.listed = await findInList(step, kind, made.id);
  await readAndUpdate(step, scenario, made.id);
  if (kind.delete && !step.send.aborted) await deleteTheNew(step, scenario, made.id);
  return scenario;
}

/** Reads the new resource and updates it; an accepted update is looked for in the list (update-visible.ts). */
async function readAndUpdate(step: StepParts, scenario: LifecycleScenario, id: string | number): Promise<void> {
  const { kind } = scenario;
  for (const [action, target] of [
    ["read", kind.read],
    ["update", kind.update],
  ] as const) {
    const request = target && withId(step.context, target, id, `${action} the new ${kind.name} ${id} (sequence)`);
    if (!target || !request) continue;
    const exchange = await sendStep(step, target.operationId, request);
    const sent = { role: action, operationId: target.operationId, label: request.label, exchange };
    if (action === "read") scenario.read = sent;
    else
      scenario.update = {
        update: sent,
        body: request.body,
        search: await findUpdated(step, kind, id, exchange, scenario.listed),
      };
  }
}

/** Deletes the new resource; once it is deleted, uses it again (use_after_free). */
async function deleteTheNew(step: StepParts, scenario: LifecycleScenario, id: string | number): Promise<void> {
  const { context, tracker } = step;
  const { kind } = scenario;
  const deletion = kind.delete!;
  const deleteCase = withId(context, deletion, id, `delete the new ${kind.name} ${id} (sequence)`);
  if (!deleteCase) return;
  const deleted = await sendStep(step, deletion.operationId, deleteCase);
  scenario.deletion = { role: "delete", operationId: deletion.operationId, label: deleteCase.label, exchange: deleted };
  if (!succeeded(context, deleted)) return;
  const resource = tracker.resources.find((r) => r.kind === kind.name && r.id === id);
  if (resource) resource.state = "deleted";
  await afterDeletion(step, scenario, id);
}

/** The deleted resource is updated (or deleted again), and looked for where the list showed it. */
async function afterDeletion(step: StepParts, scenario: LifecycleScenario, id: string | number): Promise<void> {
  const { kind, listed } = scenario;
  const target = kind.update ?? kind.delete!;
  const label = kind.update ? `update the deleted ${kind.name} ${id}` : `delete the deleted ${kind.name} ${id} again`;
  const probe = withId(step.context, target, id, label);
  if (probe) {
    const exchange = await sendStep(step, target.operationId, probe, "any");
    scenario.usedAfterDeletion = { role: "use after deletion", operationId: target.operationId, label, exchange };
  }
  if (kind.list && listed?.outcome === "found")
    scenario.searchedAfterDeletion = await findInList(step, kind, id, listed.page);
}
