// The checks of the steps that send a request again as it was (steps/nonce-replay.ts, update-visible.ts): a replayed
// nonce must be refused; an update sent again must show on the read after it.
import type { JudgeContext } from "../context.js";
import type { Finding } from "../model/finding.js";
import type { NonceReplayScenario, UpdatesVisibleScenario } from "../model/step-scenarios.js";
import { pointerValue } from "../contract/links.js";
import { isSuccess } from "../contract/words.js";
import { nonceUsedElsewhereIsRefused, replayIsRefused, updateIsVisible } from "./sequence-checks.js";
import { cannotRunOf, outcomeOf } from "./verdict.js";

/** nonce_replay: the replay and the nonce used on another operation are refused (a refused first proves nothing). */
export function judgeNonceReplay({ first, replay, reuse }: NonceReplayScenario, context: JudgeContext): Finding[] {
  const { api } = context.options;
  if (!isSuccess(api, first.exchange.response)) {
    const outcome = outcomeOf(context, first.exchange);
    return [
      cannotRunOf("nonce_replay", `the first signed request was not accepted (${outcome}), so a replay proves nothing`),
    ];
  }
  const findings: Finding[] = [];
  if (replay) findings.push(replayIsRefused(api, first.operationId, replay.exchange, replay.label));
  if (reuse) findings.push(nonceUsedElsewhereIsRefused(api, first, reuse.operationId, reuse.exchange, reuse.label));
  return findings;
}

/** update_visible_on_read: the read after the update sent again shows what it sent. */
export function judgeUpdatesVisible({ at, sentAgain, readBack }: UpdatesVisibleScenario, context: JudgeContext) {
  const check = "update_visible_on_read";
  const { api } = context.options;
  const update = sentAgain.operationId;
  if (!isSuccess(api, sentAgain.exchange.response))
    return [cannotRunOf(check, `${update} sent again was not accepted, so the read after it proves nothing`)];
  if (!readBack) return [];
  const { operationId: read, exchange, label } = readBack;
  if (!isSuccess(api, exchange.response))
    return [cannotRunOf(check, `${read} after ${update} was not answered with a success`)];
  const shown = { resource: pointerValue(exchange.response?.json, at, false), where: `${read} after ${update}` };
  const sent = JSON.parse(sentAgain.exchange.request.body ?? "null") as unknown;
  const verdict = updateIsVisible(context.model(update), sent, shown, exchange, label);
  return verdict ? [verdict] : [];
}
