// The plan's steps across operations: each resource's stateful sequence, pay's nonce replay, the account's updates
// seen on read, catalog's narrower key, the methods a path does not document and the OpenID Connect checks. What
// the planner needs to know of each (plan/build.ts StepFacts), and running one.
import type { RunContext } from "../context.js";
import { CHECKS } from "../judge/checks.js";
import type { StepFacts } from "../plan/build.js";
import { PRIORITY, type PlanItem, type Writes } from "../plan/items.js";
import type { CaseSender } from "../send/sender.js";
import { listPages, listPagesCost, pagedLists } from "./list-pages.js";
import { probedPaths, unsupportedMethods } from "./methods.js";
import { nonceReplay, nonceReplayRuns } from "./nonce-replay.js";
import type { StepParts } from "./parts.js";
import { scopeEnforcement } from "./scopes.js";
import { runSequence, sequencedKinds } from "./sequences.js";
import { singletonUpdatesVisible } from "./update-visible.js";

const SEQUENCE_CHECKS = [
  "use_after_free",
  "ensure_resource_availability",
  "created_values_echoed",
  "update_visible_on_read",
  "idempotency",
];

/**
 * The steps of this run, with what each costs: a lifecycle creates, finds in the list (a few pages), updates, finds
 * again, deletes and reads; the estimates are high so that a step the budget lets start also ends within it.
 */
export function stepFacts(context: RunContext, operationIds: string[]): StepFacts[] {
  const steps: StepFacts[] = [];
  const writes = (undeletable: boolean): Writes => (undeletable ? "undeletable" : "deletable");
  const { api, allowWrites } = context.options;
  if (nonceReplayRuns(context))
    steps.push({
      step: { type: "step", step: "nonce replay" },
      operationId: "getBalance",
      checks: ["nonce_replay"],
      cost: 4,
      writes: "nothing",
      priority: PRIORITY.sequence,
    });
  for (const update of allowWrites ? (context.profile.singletonUpdates ?? []) : [])
    if (operationIds.includes(update.update))
      steps.push({
        step: { type: "step", step: "updates visible" },
        operationId: update.update,
        checks: ["update_visible_on_read"],
        cost: 2,
        writes: "nothing",
        // After the update's own items (round one's examples), whose accepted updates it reads back.
        priority: PRIORITY.random,
      });
  for (const kind of sequencedKinds(context))
    steps.push({
      step: { type: "step", step: "sequence", resource: kind.name },
      operationId: kind.create,
      checks: SEQUENCE_CHECKS,
      cost: api === "catalog" ? 4 : 12,
      writes: writes(Boolean(kind.undeletable)),
      priority: PRIORITY.sequence,
    });
  const lists = pagedLists(context, operationIds);
  if (lists.length > 0)
    steps.push({
      step: { type: "step", step: "list pages" },
      operationId: lists[0]!,
      checks: ["list_parameters_honoured"],
      cost: listPagesCost(context, operationIds),
      writes: allowWrites ? "deletable" : "nothing",
      priority: PRIORITY.probe,
    });
  const probes = probedPaths(context, operationIds).size;
  if (probes > 0)
    steps.push({
      step: { type: "step", step: "unsupported methods" },
      operationId: operationIds[0]!,
      checks: ["unsupported_method", "allow_header"],
      cost: probes,
      writes: "nothing",
      priority: PRIORITY.probe,
    });
  if (operationIds.length > 0)
    steps.push({
      step: { type: "step", step: "scopes" },
      operationId: operationIds[0]!,
      checks: ["scope_enforcement"],
      cost: operationIds.length,
      writes: allowWrites ? "deletable" : "nothing",
      priority: PRIORITY.probe,
    });
  if (api === "identity" && (context.options.shard?.index ?? 1) === 1)
    steps.push({
      step: { type: "step", step: "identity" },
      operationId: "getOpenIdConfiguration",
      checks: CHECKS.filter((c) => c.apis?.length === 1 && c.apis[0] === "identity").map((c) => c.name),
      cost: 80,
      writes: "nothing",
      priority: PRIORITY.sequence,
    });
  return steps;
}

/**
 * Runs one step of the plan with the run's parts; `send` is the sender of the step's plan item, so that every
 * exchange the step makes carries its id. `operationIds`: the operations this run selected.
 */
export async function runStep(
  parts: Omit<StepParts, "send">,
  send: CaseSender,
  item: PlanItem,
  operationIds: string[],
): Promise<void> {
  if (item.source.type !== "step") return;
  const step = { ...parts, send };
  switch (item.source.step) {
    case "nonce replay":
      return nonceReplay(step);
    case "updates visible":
      return singletonUpdatesVisible(step);
    case "sequence": {
      const resource = item.source.resource;
      const kind = sequencedKinds(parts.context).find((k) => k.name === resource);
      return kind && runSequence(step, kind);
    }
    case "scopes":
      return scopeEnforcement(step, operationIds);
    case "unsupported methods":
      return unsupportedMethods(step, operationIds);
    case "list pages":
      return listPages(step, operationIds);
    case "identity": {
      // Loaded only here: the flows, the sign-in drivers and jose are about a quarter of the start-up of a links,
      // catalog or pay run.
      const { runIdentityChecks } = await import("../identity/run.js");
      for (const scenario of await runIdentityChecks(parts.context, send, parts.judge)) parts.judge.scenario(scenario);
      return;
    }
  }
}
