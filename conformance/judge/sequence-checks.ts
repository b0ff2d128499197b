// The checks of the stateful sequences (conformance/steps/): each takes what a step sent and what came back and
// returns the Verdict. The steps send and return what they did as scenarios; judge/sequence-scenarios.ts and
// resend-scenarios.ts call these on them, and the judge adds the verdicts to the ledger. A check that needs an earlier
// exchange (the first use of a nonce, the first of two creations with one Idempotency-Key) is given it.
import type { ResourceKind } from "../apis.js";
import { canonicalJson } from "../../lib/canonical-json.js";
import type { ApiName } from "../../lib/contract/index.js";
import type { OperationModel } from "../model/cases.js";
import type { Exchange } from "../model/exchange.js";
import { isSuccess } from "../contract/words.js";
import { compareWithSent } from "./echoed.js";
import type { Verdict } from "../model/finding.js";
import { verdictOf } from "./verdict.js";

/** Where a resource was looked for in its list: found, or seen to the end without it. */
export type ListOutcome = "found" | "absent";

/** ensure_resource_availability: a resource the provider said it created shows in its list. */
export function createdIsListed(
  kind: ResourceKind,
  id: string | number,
  outcome: ListOutcome,
  exchange: Exchange | undefined,
): Verdict {
  const listOperation = kind.list!.operationId;
  const message =
    outcome === "found" ? "" : `the ${kind.name} ${id} created by ${kind.create} is not in ${listOperation}`;
  return verdictOf("ensure_resource_availability", listOperation, message, exchange, `find the new ${kind.name} ${id}`);
}

/** use_after_free: a deleted resource neither answers an update (or a second delete) with success. */
export function deletedDoesNotAnswer(
  api: ApiName,
  kind: ResourceKind,
  id: string | number,
  operationId: string,
  after: Exchange,
  caseLabel: string,
): Verdict {
  const message = isSuccess(api, after.response)
    ? `the ${kind.name} ${id} was deleted but ${operationId} still answered ${after.response!.status}`
    : "";
  return verdictOf("use_after_free", operationId, message, after, caseLabel);
}

/** use_after_free: a deleted resource is no longer in its list. */
export function deletedIsNotListed(
  kind: ResourceKind,
  id: string | number,
  outcome: ListOutcome,
  exchange: Exchange | undefined,
): Verdict {
  const listOperation = kind.list!.operationId;
  const message = outcome === "found" ? `the ${kind.name} ${id} was deleted but is still in ${listOperation}` : "";
  return verdictOf("use_after_free", listOperation, message, exchange, `look for the deleted ${kind.name} ${id}`);
}

/** What a read after an update shows of the resource, and where. */
export interface ShownOnRead {
  /** The resource as the read shows it. */
  resource: unknown;
  /** The resource as shown before the update, when known: only fields the update changed are evidence. */
  before?: unknown;
  /** Where it was read, for the message: `listDomains after updateDomain`. */
  where: string;
}

/**
 * update_visible_on_read: what an accepted update sent shows on the read after it. Undefined when the read shows no
 * field the update changed (nothing to compare). `update` is the update's model.
 */
export function updateIsVisible(
  update: OperationModel,
  sent: unknown,
  shown: ShownOnRead,
  read: Exchange | undefined,
  caseLabel: string,
): Verdict | undefined {
  const operationId = update.op.operationId;
  const { compared, differences } = compareWithSent(update, sent, shown.resource, shown.where, shown.before);
  if (compared === 0) return undefined;
  const message = differences.length > 0 ? `${operationId} succeeded but ${differences.join("; ")}` : "";
  return verdictOf("update_visible_on_read", operationId, message, read, caseLabel);
}

/** How long a body may be quoted in a message. */
const QUOTED = 200;

/**
 * idempotency: the same creation sent again with the same Idempotency-Key is answered with success and the same
 * resource as the first.
 */
export function repeatIsIdempotent(api: ApiName, operationId: string, first: Exchange, second: Exchange): Verdict {
  let message = "";
  if (!isSuccess(api, second.response))
    message = `the repeat with the same Idempotency-Key was answered ${second.response?.status ?? second.error}`;
  else if (canonicalJson(first.response?.json) !== canonicalJson(second.response?.json)) {
    const before = JSON.stringify(first.response?.json).slice(0, QUOTED);
    const after = JSON.stringify(second.response?.json).slice(0, QUOTED);
    message = `the repeat with the same Idempotency-Key returned another product: ${before} then ${after}`;
  }
  return verdictOf("idempotency", operationId, message, second, "repeat with the same Idempotency-Key");
}

/** nonce_replay: a signed request sent again as it was (same nonce, same signature) is refused. */
export function replayIsRefused(api: ApiName, operationId: string, replay: Exchange, caseLabel: string): Verdict {
  const message = isSuccess(api, replay.response) ? "a request whose nonce was already used was accepted" : "";
  return verdictOf("nonce_replay", operationId, message, replay, caseLabel);
}

/** nonce_replay on a creation (pay's createOrder): a replayed creation is refused, or it made a second resource. */
export function replayedCreationIsRefused(
  api: ApiName,
  kind: ResourceKind,
  replay: Exchange,
  caseLabel: string,
): Verdict {
  const message = isSuccess(api, replay.response)
    ? `a ${kind.create} whose nonce was already used was accepted (a second ${kind.name})`
    : "";
  return verdictOf("nonce_replay", kind.create, message, replay, caseLabel);
}

/**
 * nonce_replay across operations: a nonce is unique for each request, not for each operation, so another operation
 * signed with a nonce already used is refused. The first use is reproduced before it.
 */
export function nonceUsedElsewhereIsRefused(
  api: ApiName,
  firstUse: { operationId: string; exchange: Exchange },
  operationId: string,
  reuse: Exchange,
  caseLabel: string,
): Verdict {
  const message = isSuccess(api, reuse.response)
    ? `a nonce already used on ${firstUse.operationId} was accepted on ${operationId}`
    : "";
  return verdictOf("nonce_replay", operationId, message, reuse, caseLabel, { sentBefore: firstUse.exchange });
}
