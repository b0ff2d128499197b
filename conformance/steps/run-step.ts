// The plan's steps across operations: each resource's stateful sequence, pay's nonce replay, the account's updates
// seen on read, catalog's narrower key, the methods a path does not document and the OpenID Connect checks. What
// the planner needs to know of each (plan/build.ts StepFacts), and running one.
import { CHECKS } from "../judge/checks.js";
import type { StepFacts } from "../plan/build.js";
import { PRIORITY, type PlanItem, type Writes } from "../plan/items.js";
import type { ResourceTracker } from "../send/resources.js";
import { scopeEnforcement } from "./scopes.js";
import type { Session } from "../send/session.js";
import { nonceReplay, nonceReplayRuns, runSequence, sequencedKinds } from "./stateful.js";
import { unsupportedMethods } from "./methods.js";
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
export function stepFacts(session: Session, operationIds: string[]): StepFacts[] {
  const steps: StepFacts[] = [];
  const writes = (undeletable: boolean): Writes => (undeletable ? "undeletable" : "deletable");
  const { api, allowWrites } = session.options;
  if (nonceReplayRuns(session))
    steps.push({
      step: { type: "step", step: "nonce replay" },
      operationId: "getBalance",
      checks: ["nonce_replay"],
      cost: 4,
      writes: "nothing",
      priority: PRIORITY.sequence,
    });
  for (const update of allowWrites ? (session.profile.singletonUpdates ?? []) : [])
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
  for (const kind of sequencedKinds(session))
    steps.push({
      step: { type: "step", step: "sequence", resource: kind.name },
      operationId: kind.create,
      checks: SEQUENCE_CHECKS,
      cost: api === "catalog" ? 4 : 12,
      writes: writes(Boolean(kind.undeletable)),
      priority: PRIORITY.sequence,
    });
  const probes = probedPaths(session, operationIds);
  if (probes > 0)
    steps.push({
      step: { type: "step", step: "unsupported methods" },
      operationId: operationIds[0]!,
      checks: ["unsupported_method"],
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
  if (api === "identity" && (session.options.shard?.index ?? 1) === 1)
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

/** The paths unsupported_method probes: those without GET, and with --allow-writes those without PATCH (methods.ts). */
function probedPaths(session: Session, operationIds: string[]): number {
  const methods = new Map<string, Set<string>>();
  for (const id of operationIds) {
    const { path, method } = session.model(id).op;
    methods.set(path, (methods.get(path) ?? new Set()).add(method.toUpperCase()));
  }
  return [...methods.values()].filter((m) => !m.has("GET") || (session.options.allowWrites && !m.has("PATCH"))).length;
}

/** Runs one step of the plan. */
export async function runStep(
  session: Session,
  tracker: ResourceTracker,
  item: PlanItem,
  operationIds: string[],
): Promise<void> {
  if (item.source.type !== "step") return;
  switch (item.source.step) {
    case "nonce replay":
      return nonceReplay(session);
    case "updates visible":
      return singletonUpdatesVisible(session, session.acceptedUpdates);
    case "sequence": {
      const kind = sequencedKinds(session).find((k) => k.name === (item.source as { resource?: string }).resource);
      return kind && runSequence(session, tracker, kind);
    }
    case "scopes":
      return scopeEnforcement(session, tracker, operationIds);
    case "unsupported methods":
      return unsupportedMethods(session, operationIds);
    case "identity":
      // Loaded only here: the flows, the sign-in drivers and jose are about a quarter of the start-up of a links,
      // catalog or pay run.
      return (await import("../identity/run.js")).runIdentityChecks(
        session.context,
        session.sender.forItem(item.id),
        session.judge,
        session.ledger,
      );
  }
}
