// The stateful sequences: which resource kinds this run follows, and the sequence of each. Catalog repeats a creation
// with one Idempotency-Key (idempotency.ts); the other APIs follow the lifecycle of a resource (lifecycle.ts). Both
// start with the same creation (creation.ts); the resources they create are tracked and deleted at the end of the run
// (send/resources.ts).
import type { ResourceKind } from "../apis.js";
import type { RunContext } from "../context.js";
import type { IdempotencyScenario, LifecycleScenario } from "../model/step-scenarios.js";
import { idempotentCreation } from "./idempotency.js";
import { resourceLifecycle } from "./lifecycle.js";
import { named, type StepParts } from "./parts.js";

/**
 * The resource kinds whose sequence this run follows: with --allow-writes, each whose creation, update or delete it
 * selected (a named update or delete acts on a resource of the run's own, so it brings the whole sequence), in the
 * shard that owns the creation.
 */
export function sequencedKinds(context: RunContext): ResourceKind[] {
  if (!context.options.allowWrites) return [];
  const steps = (kind: ResourceKind) => [kind.create, kind.update?.operationId, kind.delete?.operationId];
  return context.resources.filter((kind) => context.owns(kind.create) && steps(kind).some((id) => named(context, id)));
}

/** The sequence of one resource kind: catalog's Idempotency-Key replay, or the lifecycle. */
export async function runSequence(
  step: StepParts,
  kind: ResourceKind,
): Promise<IdempotencyScenario | LifecycleScenario | undefined> {
  return step.context.options.api === "catalog" ? idempotentCreation(step, kind) : resourceLifecycle(step, kind);
}
