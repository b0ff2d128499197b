// idempotency (catalog): the same creation sent twice with one Idempotency-Key must return the same product and
// create only one. The repeat is the same case sent again with the same key; the step returns both, and
// judge/sequence-scenarios.ts compares the repeat's answer with the first.
import type { ResourceKind } from "../apis.js";
import { resourceId } from "../contract/links.js";
import type { IdempotencyScenario } from "../model/step-scenarios.js";
import { succeeded } from "../send/resources.js";
import { creationCase } from "./creation.js";
import { sendStep, type StepParts } from "./parts.js";

export async function idempotentCreation(
  step: StepParts,
  kind: ResourceKind,
): Promise<IdempotencyScenario | undefined> {
  const { context, tracker } = step;
  const create = await creationCase(step, kind);
  if (create === undefined) return undefined;
  if (typeof create === "string")
    return { family: "step", name: "idempotency", kind, creation: { sent: false, why: create } };
  context.options.onProgress?.({ type: "operation", operationId: kind.create, phase: "idempotency" });
  const key = globalThis.crypto.randomUUID();
  create.headers["Idempotency-Key"] = key;
  const label = `create with Idempotency-Key ${key}`;
  const first = await sendStep(step, kind.create, { ...create, label });
  const id = resourceId(first.response?.json, kind.id);
  const scenario: IdempotencyScenario = {
    family: "step",
    name: "idempotency",
    kind,
    creation: {
      sent: true,
      create: { role: "create", operationId: kind.create, label, exchange: first },
      body: create.body,
      id,
    },
  };
  if (!succeeded(context, first)) return scenario;
  tracker.created(kind, id ?? `Idempotency-Key ${key}`, kind.create);
  const again = `repeat with the same Idempotency-Key ${key}`;
  const second = await sendStep(step, kind.create, { ...create, label: again });
  const secondId = resourceId(second.response?.json, kind.id);
  if (succeeded(context, second) && secondId !== undefined) tracker.created(kind, secondId, kind.create);
  scenario.repeat = { role: "repeat", operationId: kind.create, label: again, exchange: second };
  return scenario;
}
