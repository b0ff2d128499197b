// The creation a sequence starts with: the creation's first example, marked as ours, with the values the Link Objects
// give it from the deployment, within --max-writes. When it cannot be made, the sequence's checks cannot run, and
// the reason says why.
import type { ResourceKind } from "../apis.js";
import { resourceId } from "../contract/links.js";
import { createdValuesEchoed } from "../judge/echoed.js";
import type { RequestCase } from "../model/cases.js";
import { markAsOurs, outcomeOf, succeeded } from "../send/resources.js";
import type { Exchange } from "../model/exchange.js";
import { cannotRun, firstExample, sendStep, type StepParts } from "./parts.js";

/** What the sequence created: the case sent, its exchange and the new resource's id. */
export interface Creation {
  create: RequestCase;
  created: Exchange;
  id: string | number;
}

/** The first example, marked as ours, with the values the links give it from the deployment (or why there are none). */
export async function creationCase(
  { context, send, judge, writes, linkValues }: Pick<StepParts, "context" | "send" | "judge" | "writes" | "linkValues">,
  kind: ResourceKind,
): Promise<RequestCase | string | undefined> {
  const base = firstExample(context, kind.create);
  if (!base) return undefined;
  if (!writes.sequenceMayCreate(kind))
    return `--max-writes ${writes.max} leaves no creation for this sequence (${kind.undeletable})`;
  const values = await linkValues.valuesFor(kind.create, send, judge);
  if (values.missing) return values.missing;
  return values.apply({ ...markAsOurs(base, context), origin: "example", label: `create a ${kind.name} (sequence)` });
}

/**
 * Sends the creation and judges what came back (created_values_echoed on the creation response); when no resource
 * with an id came of it, says why each of the sequence's `checks` cannot run.
 */
export async function createForSequence(
  step: StepParts,
  kind: ResourceKind,
  checks: string[],
): Promise<Creation | undefined> {
  const { context, ledger, tracker } = step;
  const create = await creationCase(step, kind);
  if (create === undefined) return undefined;
  context.options.onProgress?.({ type: "operation", operationId: kind.create, phase: `${kind.name} sequence` });
  const created = typeof create === "string" ? undefined : await sendStep(step, kind.create, create);
  const id = created && resourceId(created.response?.json, kind.id);
  if (typeof create === "string" || !created || !succeeded(context, created) || id === undefined) {
    const why = typeof create === "string" ? create : whyNotCreated(step, kind, created);
    for (const check of checks)
      cannotRun(ledger, check, `the ${kind.name} sequence could not create a ${kind.name} (${kind.create}: ${why})`);
    return undefined;
  }
  tracker.created(kind, id, kind.create);
  addCreatedValuesEchoed({ context, ledger }, kind, create, created);
  return { create, created, id };
}

/** created_values_echoed on the creation's own response: what was sent comes back. */
export function addCreatedValuesEchoed(
  { context, ledger }: Pick<StepParts, "context" | "ledger">,
  kind: ResourceKind,
  create: RequestCase,
  response: Exchange,
): void {
  const model = context.model(kind.create);
  const echoed = createdValuesEchoed(model, kind, create.body, response, `the ${kind.create} response`);
  if (echoed) ledger.add(echoed);
}

function whyNotCreated({ context }: Pick<StepParts, "context">, kind: ResourceKind, created?: Exchange): string {
  if (!created) return "not sent";
  return succeeded(context, created) ? `no id at ${kind.id} in the response` : outcomeOf(context, created);
}
