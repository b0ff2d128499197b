// The plan's steps across operations: each resource's stateful sequence, pay's nonce replay, the account's updates
// seen on read, catalog's narrower key, the methods a path does not document and the OpenID Connect checks. What
// the planner needs to know of each (plan/build.ts StepFacts), and running one: a step sends and returns what it did
// as scenarios (model/step-scenarios.ts), whose checks the judge runs.
import type { RunContext } from "../context.js";
import { checksOfStep } from "../model/check-registry.js";
import type { StepFacts } from "../plan/build.js";
import { PRIORITY, type PlanItem, type Writes } from "../model/plan.js";
import type { Scenario } from "../model/scenario.js";
import type { CaseSender } from "../send/sender.js";
import type { ItemParts } from "../item-parts.js";
import { listPages, listPagesCost, pagedLists } from "./list-pages.js";
import { probedPaths, unsupportedMethods } from "./methods.js";
import { nonceReplay, nonceReplayRuns } from "./nonce-replay.js";
import type { StepParts } from "./parts.js";
import { scopeEnforcement } from "./scopes.js";
import { runSequence, sequencedKinds } from "./sequences.js";
import { singletonUpdatesVisible } from "./update-visible.js";

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
      checks: checksOfStep("nonce replay"),
      cost: 4,
      writes: "nothing",
      priority: PRIORITY.sequence,
    });
  for (const update of allowWrites ? (context.profile.singletonUpdates ?? []) : [])
    if (operationIds.includes(update.update))
      steps.push({
        step: { type: "step", step: "updates visible" },
        operationId: update.update,
        checks: checksOfStep("updates visible"),
        cost: 2,
        writes: "nothing",
        // After the update's own items (round one's examples), whose accepted updates it reads back.
        priority: PRIORITY.random,
      });
  for (const kind of sequencedKinds(context))
    steps.push({
      step: { type: "step", step: "sequence", resource: kind.name },
      operationId: kind.create,
      checks: checksOfStep("sequence"),
      cost: api === "catalog" ? 4 : 12,
      writes: writes(Boolean(kind.undeletable)),
      priority: PRIORITY.sequence,
    });
  const lists = pagedLists(context, operationIds);
  if (lists.length > 0)
    steps.push({
      step: { type: "step", step: "list pages" },
      operationId: lists[0]!,
      checks: checksOfStep("list pages"),
      cost: listPagesCost(context, operationIds),
      writes: allowWrites ? "deletable" : "nothing",
      priority: PRIORITY.probe,
    });
  const probes = probedPaths(context, operationIds).size;
  if (probes > 0)
    steps.push({
      step: { type: "step", step: "unsupported methods" },
      operationId: operationIds[0]!,
      checks: checksOfStep("unsupported methods"),
      cost: probes,
      writes: "nothing",
      priority: PRIORITY.probe,
    });
  if (operationIds.length > 0)
    steps.push({
      step: { type: "step", step: "scopes" },
      operationId: operationIds[0]!,
      checks: checksOfStep("scopes"),
      cost: operationIds.length,
      writes: allowWrites ? "deletable" : "nothing",
      priority: PRIORITY.probe,
    });
  if (api === "identity" && (context.options.shard?.index ?? 1) === 1)
    steps.push({
      step: { type: "step", step: "identity" },
      operationId: "getOpenIdConfiguration",
      checks: checksOfStep("identity"),
      cost: 80,
      writes: "nothing",
      priority: PRIORITY.sequence,
    });
  return steps;
}

const present = (scenario: Scenario | undefined): Scenario[] => (scenario ? [scenario] : []);

/**
 * Runs one step of the plan with the run's parts and returns what it did, for the judge; `send` is the sender of the
 * step's plan item, so that every exchange the step makes carries its id. `operationIds`: the operations this run
 * selected.
 */
export async function runStep(
  parts: ItemParts,
  send: CaseSender,
  item: PlanItem,
  operationIds: string[],
): Promise<Scenario[]> {
  if (item.source.type !== "step") return [];
  const step: StepParts = { ...parts, send };
  switch (item.source.step) {
    case "nonce replay":
      return present(await nonceReplay(step));
    case "updates visible":
      return singletonUpdatesVisible(step);
    case "sequence": {
      const resource = item.source.resource;
      const kind = sequencedKinds(parts.context).find((k) => k.name === resource);
      return present(kind && (await runSequence(step, kind)));
    }
    case "scopes":
      return present(await scopeEnforcement(step, operationIds, item.checks));
    case "unsupported methods":
      return present(await unsupportedMethods(step, operationIds, item.checks));
    case "list pages":
      return listPages(step, operationIds);
    case "identity": {
      // Loaded only here: the flows, the sign-in drivers and jose are about a quarter of the start-up of a links,
      // catalog or pay run.
      const { runIdentityChecks } = await import("../identity/run.js");
      return runIdentityChecks(parts, send);
    }
  }
}
