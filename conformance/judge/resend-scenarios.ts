// The checks of the steps that send a request again as it was (steps/nonce-replay.ts, update-visible.ts): a replayed
// nonce must be refused; an update sent again must show on the read after it.
import type { RunContext } from "../context.js";
import type { Finding } from "../model/finding.js";
import type { NonceReplayScenario } from "../model/step-scenarios.js";
import { outcomeOf } from "../send/resources.js";
import { isSuccess } from "./contract-words.js";
import { nonceUsedElsewhereIsRefused, replayIsRefused } from "./sequence-checks.js";
import { cannotRunOf } from "./verdict.js";

/** nonce_replay: the replay and the nonce used on another operation are refused (a refused first proves nothing). */
export function judgeNonceReplay({ first, replay, reuse }: NonceReplayScenario, context: RunContext): Finding[] {
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
