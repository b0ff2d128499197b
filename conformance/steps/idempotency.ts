// idempotency (catalog): the same creation sent twice with one Idempotency-Key must return the same product and
// create only one. The repeat is the same case sent again with the same key; judge/sequence-checks.ts compares its
// answer with the first.
import type { ResourceKind } from "../apis.js";
import { resourceId } from "../contract/links.js";
import { repeatIsIdempotent } from "../judge/sequence-checks.js";
import { outcomeOf, succeeded } from "../send/resources.js";
import { addCreatedValuesEchoed, creationCase } from "./creation.js";
import { cannotRun, sendStep, type StepParts } from "./parts.js";

export async function idempotentCreation(step: StepParts, kind: ResourceKind): Promise<void> {
  const { context, ledger, tracker } = step;
  const create = await creationCase(step, kind);
  if (create === undefined) return;
  if (typeof create === "string") {
    for (const check of ["idempotency", "created_values_echoed"])
      cannotRun(ledger, check, `the ${kind.name} could not be created: ${create}`);
    return;
  }
  context.options.onProgress?.({ type: "operation", operationId: kind.create, phase: "idempotency" });
  const key = globalThis.crypto.randomUUID();
  create.headers["Idempotency-Key"] = key;
  const first = await sendStep(step, kind.create, { ...create, label: `create with Idempotency-Key ${key}` });
  if (!succeeded(context, first)) {
    const why = `the first creation with an Idempotency-Key was not accepted (${outcomeOf(context, first)})`;
    cannotRun(ledger, "idempotency", `${why}, so a repeat proves nothing`);
    cannotRun(ledger, "created_values_echoed", `${why}, so nothing came back to compare`);
    return;
  }
  tracker.created(kind, resourceId(first.response?.json, kind.id) ?? `Idempotency-Key ${key}`, kind.create);
  addCreatedValuesEchoed(step, kind, create, first);
  const second = await sendStep(step, kind.create, { ...create, label: `repeat with the same Idempotency-Key ${key}` });
  const secondId = resourceId(second.response?.json, kind.id);
  if (succeeded(context, second) && secondId !== undefined) tracker.created(kind, secondId, kind.create);
  ledger.add(repeatIsIdempotent(context.options.api, kind.create, first, second));
}
