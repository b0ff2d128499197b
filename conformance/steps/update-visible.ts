// update_visible_on_read: a write answered with success shows on the next read. The links seed states updates
// ("PUT /api/domain/:id/update ... redirectroot, redirect404", "PUT /api/campaign/:id/update", "PUT
// /api/account/update ... email"); a provider that answers them with success and keeps the old values keeps its
// envelope but not its word. The reads are ones the run needs anyway or one more: the page of the list that showed
// the resource before its update (links allows 30 requests a minute), and for the account one GET after its updates.
// The step returns what it sent and found; judge/sequence-scenarios.ts and resend-scenarios.ts compare.
import type { ResourceKind } from "../apis.js";
import type { RequestCase } from "../model/cases.js";
import { isSuccess } from "../contract/words.js";
import type { ListSearch, UpdatesVisibleScenario } from "../model/step-scenarios.js";
import { findInList } from "./list-search.js";
import type { Exchange } from "../model/exchange.js";
import { firstExample, sendAgain, sendStep, type StepParts } from "./parts.js";

const CHECK = "update_visible_on_read";

/**
 * After an update of the sequence's resource, when it was accepted and the list showed the resource before: looks for
 * it where the list showed it (then both ends and the pages beside it, then the whole list within the search's
 * budget). The judge compares the row with the update's body (judge/sequence-scenarios.ts).
 */
export async function findUpdated(
  step: Pick<StepParts, "context" | "send" | "judge">,
  kind: ResourceKind,
  id: string | number,
  update: Exchange,
  listed: ListSearch | undefined,
): Promise<ListSearch | undefined> {
  const { context } = step;
  if (!context.options.checks.has(CHECK) || !kind.list || !isSuccess(context.options.api, update.response))
    return undefined;
  if (listed?.outcome !== "found") return undefined;
  const after = await findInList(step, kind, id, listed.page);
  return after.outcome === "found" ? after : findInList(step, kind, id);
}

/**
 * After the run's updates of a resource without an id (links' account): the valid update the provider accepted that
 * sent the most fields (the last of those) is sent once more, since invalid data a lenient provider accepted after it
 * may have changed the resource in ways the seed does not describe, and the read that follows must show what it sent.
 * The judge keeps the accepted updates and names that one (Judge.acceptedUpdate). Sent only when the run's own
 * updates were accepted (the update is named with --operation and cannot be undone anyway).
 */
export async function singletonUpdatesVisible(
  step: Pick<StepParts, "context" | "send" | "judge">,
): Promise<UpdatesVisibleScenario[]> {
  const { context, send, judge } = step;
  if (!context.options.checks.has(CHECK) || !context.options.allowWrites) return [];
  const scenarios: UpdatesVisibleScenario[] = [];
  for (const { update, read, at } of context.profile.singletonUpdates ?? []) {
    const last = judge.acceptedUpdate(update);
    const readCase = firstExample(context, read);
    if (!last || !readCase || send.aborted) continue;
    scenarios.push(await readAfterUpdate(step, { update, read, at }, last, readCase));
  }
  return scenarios;
}

/** Sends the accepted update `last` again as it was, then (when it is accepted again) reads the resource. */
async function readAfterUpdate(
  step: Pick<StepParts, "context" | "send" | "judge">,
  { update, read, at }: { update: string; read: string; at: string },
  last: Exchange,
  readCase: RequestCase,
): Promise<UpdatesVisibleScenario> {
  const { context } = step;
  const again = `the last accepted ${update} again`;
  const resent = await sendAgain(step, context.model(update), last, again, "valid");
  const scenario: UpdatesVisibleScenario = {
    family: "step",
    name: "updates visible",
    at,
    sentAgain: { role: "update sent again", operationId: update, label: again, exchange: resent },
  };
  if (!isSuccess(context.options.api, resent.response)) return scenario;
  const label = `read after ${update}`;
  const exchange = await sendStep(step, read, { ...readCase, label });
  scenario.readBack = { role: "read", operationId: read, label, exchange };
  return scenario;
}
