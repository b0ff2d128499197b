// The creation a sequence starts with: the creation's first example, marked as ours, with the values the Link Objects
// give it from the deployment, within --max-writes. When it cannot be made, the attempt says why (a case that could
// not be built, or the answer), and the judge says why the sequence's checks cannot run.
import type { ResourceKind } from "../apis.js";
import { resourceId } from "../contract/links.js";
import type { CreationAttempt } from "../model/step-scenarios.js";
import type { RequestCase } from "../model/cases.js";
import { markAsOurs, succeeded } from "../send/resources.js";
import type { Exchange } from "../model/exchange.js";
import { firstExample, sendStep, type StepParts } from "./parts.js";

/** What the sequence created: the creation's exchange and the new resource's id. */
export interface Creation {
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
 * Sends the creation (judged with the response checks): the attempt, for the scenario, and the new resource when one
 * with an id came of it. Undefined when the creation has no example to send.
 */
export async function createForSequence(
  step: StepParts,
  kind: ResourceKind,
): Promise<{ attempt: CreationAttempt; made?: Creation } | undefined> {
  const { context, tracker } = step;
  const create = await creationCase(step, kind);
  if (create === undefined) return undefined;
  context.options.onProgress?.({ type: "operation", operationId: kind.create, phase: `${kind.name} sequence` });
  if (typeof create === "string") return { attempt: { sent: false, why: create } };
  const created = await sendStep(step, kind.create, create);
  const id = resourceId(created.response?.json, kind.id);
  const attempt: CreationAttempt = {
    sent: true,
    create: { role: "create", operationId: kind.create, label: create.label, exchange: created },
    body: create.body,
    id,
  };
  if (!succeeded(context, created) || id === undefined) return { attempt };
  tracker.created(kind, id, kind.create);
  return { attempt, made: { created, id } };
}
