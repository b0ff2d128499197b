// update_visible_on_read: a write answered with success shows on the next read. The links seed states updates
// ("PUT /api/domain/:id/update ... redirectroot, redirect404", "PUT /api/campaign/:id/update", "PUT
// /api/account/update ... email"); a provider that answers them with success and keeps the old values keeps its
// envelope but not its word. The reads are ones the run needs anyway or one more: the page of the list that showed
// the resource before its update (links allows 30 requests a minute), and for the account one GET after its updates.
import type { ResourceKind } from "../apis.js";
import { exampleCases, type RequestCase } from "../plan/cases.js";
import { isSuccess } from "../judge/contract-words.js";
import { compareWithSent } from "../judge/echoed.js";
import { pointerValue } from "../contract/links.js";
import { findInList, type ListSearch } from "./list-search.js";
import type { Session } from "../send/session.js";
import type { Exchange } from "../send/transport.js";
import { verdictOf } from "../judge/verdict.js";

const CHECK = "update_visible_on_read";

type Send = (operationId: string, requestCase: RequestCase) => Promise<Exchange>;

/**
 * After a successful update of the sequence's resource: looks for it where the list showed it before (then both ends
 * and the pages beside it, then the whole list within the search's budget) and compares the row with the update's
 * body. Only fields whose value the update changed are evidence; none changed, nothing is recorded.
 */
export async function updateVisibleInList(
  session: Session,
  kind: ResourceKind,
  id: string | number,
  update: { request: RequestCase; exchange: Exchange },
  listed: ListSearch | undefined,
  send: Send,
): Promise<void> {
  const operationId = kind.update!.operationId;
  if (!session.options.checks.has(CHECK) || !kind.list || !isSuccess(session.options.api, update.exchange.response))
    return;
  if (listed?.outcome !== "found") {
    session.ledger.decide({
      about: "check",
      name: CHECK,
      decision: "cannot run",
      reason: `the ${kind.name} ${id} was not found in ${kind.list.operationId} before its update`,
    });
    return;
  }
  let after = await findInList(session, kind, id, send, listed.page);
  if (after.outcome !== "found") after = await findInList(session, kind, id, send);
  if (after.outcome !== "found" || !after.last) {
    session.ledger.decide({
      about: "check",
      name: CHECK,
      decision: "cannot run",
      reason: `the updated ${kind.name} ${id} could not be found in ${kind.list.operationId}${after.why ? `: ${after.why}` : ""}`,
    });
    return;
  }
  const where = `${kind.list.operationId} after ${operationId}`;
  const { compared, differences } = compareWithSent(
    session,
    operationId,
    update.request.body,
    after.item,
    where,
    listed.item,
  );
  if (compared > 0)
    session.ledger.add(
      verdictOf(
        CHECK,
        operationId,
        differences.length > 0 ? `${operationId} succeeded but ${differences.join("; ")}` : "",
        after.last,
        `read the ${kind.name} ${id} after its update`,
      ),
    );
}

/**
 * After the run's updates of a resource without an id (links' account): the valid update the provider accepted that
 * sent the most fields (the last of those) is sent once more, since invalid data a lenient provider accepted after it
 * may have changed the resource in ways the seed does not describe, and the read that follows must show what it sent.
 * Sent only when the run's own updates were accepted (the update is named with --operation and cannot be undone
 * anyway).
 */
export async function singletonUpdatesVisible(
  session: Session,
  accepted: ReadonlyMap<string, ReadonlyArray<{ exchange: Exchange; valid: boolean }>>,
): Promise<void> {
  if (!session.options.checks.has(CHECK) || !session.options.allowWrites) return;
  for (const { update, read, at } of session.profile.singletonUpdates ?? []) {
    const last = fullest((accepted.get(update) ?? []).filter((a) => a.valid).map((a) => a.exchange));
    const readCase = exampleCases(session.model(read), session.profile, session.options.credentials)[0];
    if (!last || !readCase || session.aborted) continue;
    const again = `the last accepted ${update} again`;
    const resent = await session.transport.send({ ...last.request, headers: { ...last.request.headers } });
    session.observations.observe(session.model(update), resent);
    session.judge.exchange(session.model(update), resent, "valid", again);
    if (!isSuccess(session.options.api, resent.response)) {
      session.ledger.decide({
        about: "check",
        name: CHECK,
        decision: "cannot run",
        reason: `${update} sent again was not accepted, so the read after it proves nothing`,
      });
      continue;
    }
    const label = `read after ${update}`;
    const exchange = await session.send(session.model(read), { ...readCase, origin: "sequence", label });
    session.judge.exchange(session.model(read), exchange, "valid", label);
    if (!isSuccess(session.options.api, exchange.response)) {
      session.ledger.decide({
        about: "check",
        name: CHECK,
        decision: "cannot run",
        reason: `${read} after ${update} was not answered with a success`,
      });
      continue;
    }
    const shown = pointerValue(exchange.response?.json, at, false);
    const sent = JSON.parse(last.request.body ?? "null") as unknown;
    const { compared, differences } = compareWithSent(session, update, sent, shown, `${read} after ${update}`);
    if (compared > 0)
      session.ledger.add(
        verdictOf(
          CHECK,
          update,
          differences.length > 0 ? `${update} succeeded but ${differences.join("; ")}` : "",
          exchange,
          label,
        ),
      );
  }
}

const fieldCount = (exchange: Exchange): number => {
  try {
    const body = JSON.parse(exchange.request.body ?? "null") as unknown;
    return body !== null && typeof body === "object" ? Object.keys(body).length : 0;
  } catch {
    return 0;
  }
};

/** The exchange whose request body has the most fields; the last of them on a tie. */
function fullest(exchanges: Exchange[]): Exchange | undefined {
  return exchanges.reduce<Exchange | undefined>(
    (best, exchange) => (!best || fieldCount(exchange) >= fieldCount(best) ? exchange : best),
    undefined,
  );
}
