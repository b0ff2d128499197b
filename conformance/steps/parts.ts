// What a step of the plan works with, and the ways it sends. A step gets the run's parts (built once by the runner)
// and the sender of its own plan item, so that every exchange it makes carries the item's id; each step function
// takes only the parts it uses (a Pick of StepParts). A step sends, has the judge run the response checks on each
// exchange for what it expected, and returns what it saw as a scenario (model/step-scenarios.ts): the judge runs the
// step's own checks on it (judge/step-scenarios.ts). A step neither adds to the ledger nor reads it.
import type { RunContext } from "../context.js";
import type { ItemParts } from "../item-parts.js";
import { exampleCases } from "../plan/cases.js";
import type { Expectation, OperationModel, RequestCase } from "../model/cases.js";
import type { ScenarioJudge } from "../model/scenario.js";
import { markAsOurs } from "../send/resources.js";
import type { CaseSender } from "../send/sender.js";
import type { Exchange } from "../model/exchange.js";

/**
 * What a step works with: the run's parts (created once per run by the runner), a judge it can only ask the response
 * checks of, and `send`, the sender of the step's plan item.
 */
export interface StepParts extends Omit<ItemParts, "judge"> {
  /** Every exchange the step sends carries its plan item's id. */
  send: CaseSender;
  judge: ScenarioJudge;
}

/** Named with --operation (every operation is, when none is named). */
export function named(context: RunContext, operationId: string | undefined): boolean {
  const { operations } = context.options;
  return operationId !== undefined && (operations.length === 0 || operations.includes(operationId));
}

/** Named with --operation and owned by this run's shard. */
export const selected = (context: RunContext, operationId: string): boolean =>
  named(context, operationId) && context.owns(operationId);

/** The operation's first example, if it has one. */
export const firstExample = (context: RunContext, operationId: string): RequestCase | undefined =>
  exampleCases(context.model(operationId), context.profile, context.options.credentials)[0];

/** Sends one request of a sequence and judges it with the response checks. */
export async function sendStep(
  { context, send, judge }: Pick<StepParts, "context" | "send" | "judge">,
  operationId: string,
  requestCase: RequestCase,
  expectation: Expectation = "valid",
): Promise<Exchange> {
  const model = context.model(operationId);
  const exchange = await send.send(model, { ...requestCase, origin: "sequence" });
  judge.exchange(model, exchange, expectation, requestCase.label);
  return exchange;
}

/**
 * Sends a request again byte for byte (same nonce, same signature) through the step's sender; the judge gets it on
 * arrival like any other, and runs the response checks for what the step expected.
 */
export async function sendAgain(
  { send, judge }: Pick<StepParts, "send" | "judge">,
  model: OperationModel,
  sent: Exchange,
  label: string,
  expectation: Expectation = "any",
): Promise<Exchange> {
  const again = await send.sendAsIs({ ...sent.request, headers: { ...sent.request.headers } }, { model, label });
  judge.exchange(model, again, expectation, label);
  return again;
}

/**
 * The operation's first example on the resource `id` (its path parameter), labelled. Its identifying values are
 * marked as ours, like a creation's: the example's may be taken (a rotator slug).
 */
export function withId(
  context: RunContext,
  step: { operationId: string; pathParameter: string },
  id: string | number,
  label: string,
): RequestCase | undefined {
  const base = firstExample(context, step.operationId);
  if (!base) return undefined;
  return markAsOurs({ ...structuredClone(base), path: { ...base.path, [step.pathParameter]: id }, label }, context);
}
