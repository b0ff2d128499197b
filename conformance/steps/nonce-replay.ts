// nonce_replay (pay): a signed request carries a nonce that may be used once. The step sends a signed read, sends the
// same bytes again through its sender (sendAsIs: same nonce, same signature), then another operation signed with the
// nonce the read used; the lifecycle replays the order it created the same way. The step returns what it sent;
// judge/resend-scenarios.ts judges it with the checks of judge/sequence-checks.ts.
import type { ResourceKind } from "../apis.js";
import type { RunContext } from "../context.js";
import { resourceId } from "../contract/links.js";
import type { RoleExchange } from "../model/scenario.js";
import type { NonceReplayScenario } from "../model/step-scenarios.js";
import { succeeded } from "../send/resources.js";
import type { Exchange } from "../model/exchange.js";
import { firstExample, selected, sendAgain, type StepParts } from "./parts.js";

const CHECK = "nonce_replay";
const SIGNED_READ = "getBalance";
const OTHER_OPERATION = "listShops";

/** Whether pay's nonce replay runs: the check is selected and the run owns the signed read it replays. */
export const nonceReplayRuns = (context: RunContext): boolean =>
  context.options.api === "pay" && context.options.checks.has(CHECK) && selected(context, SIGNED_READ);

/** A signed read sent twice with the same bytes (same nonce, same signature): the second must be refused. */
export async function nonceReplay(
  step: Pick<StepParts, "context" | "send" | "judge">,
): Promise<NonceReplayScenario | undefined> {
  const { context, send, judge } = step;
  const model = context.model(SIGNED_READ);
  const base = firstExample(context, SIGNED_READ);
  if (!base) return undefined;
  context.options.onProgress?.({ type: "operation", operationId: SIGNED_READ, phase: "nonce replay" });
  const first = await send.send(model, { ...base, origin: "sequence", label: "signed read" });
  const firstLabel = "signed read (nonce replay)";
  judge.exchange(model, first, "valid", firstLabel);
  const scenario: NonceReplayScenario = {
    family: "step",
    name: "nonce replay",
    first: { role: "signed read", operationId: SIGNED_READ, label: firstLabel, exchange: first },
  };
  if (!succeeded(context, first)) return scenario;
  const again = "the same request again (same nonce and signature)";
  const replay = await sendAgain(step, model, first, again);
  scenario.replay = { role: "replay", operationId: SIGNED_READ, label: again, exchange: replay };
  scenario.reuse = await nonceElsewhere(step, first);
  return scenario;
}

/** A nonce is unique for each request, not for each operation: another operation, correctly signed, with that nonce. */
async function nonceElsewhere(
  { context, send, judge }: Pick<StepParts, "context" | "send" | "judge">,
  first: Exchange,
): Promise<RoleExchange | undefined> {
  const used = (JSON.parse(first.request.body ?? "{}") as { nonce?: unknown }).nonce;
  const other = context.model(OTHER_OPERATION);
  const otherBase = firstExample(context, OTHER_OPERATION);
  if (typeof used !== "number" || !otherBase || !otherBase.body || typeof otherBase.body !== "object") return undefined;
  const label = `${OTHER_OPERATION} signed with the nonce ${used} that ${SIGNED_READ} used`;
  const body = { ...(otherBase.body as Record<string, unknown>), nonce: used };
  const reuse = await send.send(other, { ...otherBase, body, origin: "sequence", label });
  judge.exchange(other, reuse, "any", label);
  return { role: "nonce used again", operationId: OTHER_OPERATION, label, exchange: reuse };
}

/**
 * nonce_replay on the creation itself (pay's createOrder): the sequence's accepted request sent again unchanged must
 * be refused. A gateway that accepts it makes a second order, so the replay goes only with a write kept for it.
 */
export async function replayCreation(
  step: StepParts,
  kind: ResourceKind,
  created: Exchange,
): Promise<RoleExchange | undefined> {
  const { context, send, tracker, writes } = step;
  if (!context.options.checks.has(CHECK) || !writes.creationMayBeReplayed(kind) || send.aborted) return undefined;
  const label = `the same ${kind.create} again (same nonce and signature)`;
  const replay = await sendAgain(step, context.model(kind.create), created, label);
  if (succeeded(context, replay)) tracker.created(kind, resourceId(replay.response?.json, kind.id), kind.create);
  return { role: "replay", operationId: kind.create, label, exchange: replay };
}
