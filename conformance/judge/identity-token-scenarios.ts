// The checks of the token endpoint's scenarios (token_errors, client_authentication_required, pkce_enforcement,
// id_token_signature_and_claims, id_token_by_scope, id_token_at_hash, code_reuse, code_reuse_revokes_tokens,
// refresh_token_offline_access, refresh_token_client_bound): each reads what its flow saw and returns the findings of
// the rules in identity-tokens.ts.
import type { JudgeContext } from "../context.js";
import type { Finding, Verdict } from "../model/finding.js";
import type {
  AtHashScenario,
  ClientAuthenticationScenario,
  CodeReuseLaterScenario,
  CodeReuseScenario,
  IdTokenScenario,
  PkceEnforcementScenario,
  RefreshScenario,
  TokenErrorsScenario,
  WrongClientSecretScenario,
} from "../model/identity-scenarios.js";
import type { Exchange } from "../model/exchange.js";
import {
  atHash,
  codeExchangedWithoutSecret,
  codeReplayedLater,
  codeReplayAccepted,
  idTokenClaims,
  idTokenUnverified,
  jwksUnreadable,
  noIdToken,
  pkceCodeExchanged,
  refreshTokenClientBound,
  refreshTokenOfflineAccess,
  REPLAY_REFUSAL_IS_NOT_A_MUST,
  REVOKE_IS_A_SHOULD,
  tokenError,
  tokensKeptAfterReplay,
} from "./identity-tokens.js";
import { type TokenErrorCase } from "../model/identity-facts.js";
import {
  assumedProblem,
  assumedVerdicts,
  describe,
  describeAuthorization,
  notedAssumptions,
  refused,
} from "./identity-words.js";
import { cannotRunOf, verdictOf } from "./verdict.js";
import { offlineAccessAdvertised } from "./identity-advertised.js";
import { grantedScope, idTokenBeyondScope } from "./identity-claims.js";
import { idTokenPayload } from "../identity/secret-claims.js";
import type { TokenResponse } from "../model/identity-facts.js";

/** token_errors on requests that must each be refused with its error code; the verdict shows the last failing one. */
function tokenErrors(requests: Array<{ what: TokenErrorCase; exchange: Exchange }>): Verdict {
  const problems: string[] = [];
  let last: Exchange | undefined;
  for (const { what, exchange } of requests) {
    const problem = tokenError(what, exchange);
    if (problem) {
      problems.push(problem);
      last = exchange;
    } else last ??= exchange;
  }
  return verdictOf("token_errors", "exchangeToken", problems.join("; "), last, "token requests that must fail");
}

export function judgeTokenErrors({ requests }: TokenErrorsScenario): Finding[] {
  return [tokenErrors(requests)];
}

export function judgeWrongClientSecret({ grant, exchange }: WrongClientSecretScenario): Finding[] {
  const what = "a wrong client_secret";
  if (grant.kind !== "code" || !exchange)
    return [cannotRunOf("token_errors", `could not get a code for ${what}: ${describeAuthorization(grant)}`)];
  return [tokenErrors([{ what, exchange }])];
}

export function judgeClientAuthentication({ grant, exchange }: ClientAuthenticationScenario): Finding[] {
  const check = "client_authentication_required";
  if (grant.kind !== "code" || !exchange)
    return [cannotRunOf(check, `could not get a code: ${describeAuthorization(grant)}`)];
  const label = "exchange a code with its code_verifier and no client_secret";
  return [verdictOf(check, "exchangeToken", codeExchangedWithoutSecret(exchange), exchange, label)];
}

/** Every exchange refused; without a code for each, the check could not run. */
export function judgePkceEnforcement({ attempts }: PkceEnforcementScenario): Finding[] {
  const problems: string[] = [];
  let last: Exchange | undefined;
  for (const { what, grant, exchange } of attempts) {
    if (grant.kind !== "code" || !exchange)
      return [cannotRunOf("pkce_enforcement", `could not get a code again: ${describeAuthorization(grant)}`)];
    last = exchange;
    const problem = pkceCodeExchanged(what, exchange);
    if (problem) problems.push(problem);
  }
  return [
    verdictOf("pkce_enforcement", "exchangeToken", problems.join("; "), last, "PKCE code exchanges that must fail"),
  ];
}

export function judgeIdToken(scenario: IdTokenScenario, context: JudgeContext): Finding[] {
  const { exchange, tokens, nonce, verified, unverified } = scenario;
  const check = "id_token_signature_and_claims";
  const caseLabel = "the id_token of a fresh code";
  const verdict = (problem: string) => verdictOf(check, "exchangeToken", problem, exchange, caseLabel);
  const byScope = idTokenByScope(exchange, tokens, scenario.requested, caseLabel);
  if (typeof tokens.id_token !== "string") return [verdict(noIdToken), byScope];
  if (verified) {
    const noted = notedAssumptions(context.options.strict, check, "exchangeToken", caseLabel);
    const problem = idTokenClaims(verified, nonce, noted.judge);
    return [...noted.warnings, verdict(problem), byScope];
  }
  // Neither verified nor refused by the verification: there was no JWKS to verify with.
  return [verdict(unverified ? idTokenUnverified(unverified) : jwksUnreadable), byScope];
}

/**
 * id_token_by_scope on the id_token of one token response, by the scope it granted: read without verifying, as what
 * it carries is disclosed whoever signed it (the signature is id_token_signature_and_claims'). Fail closed: without
 * an id_token to read the check could not run.
 */
export function idTokenByScope(exchange: Exchange, tokens: TokenResponse, requested: string, caseLabel: string) {
  const check = "id_token_by_scope";
  const payload = idTokenPayload(tokens.id_token);
  if (!payload)
    return cannotRunOf(
      check,
      `${caseLabel}: the token response carries no id_token that decodes as a JWT (RFC 7519 §7.2)`,
    );
  const granted = grantedScope(tokens, requested);
  return verdictOf(
    check,
    "exchangeToken",
    idTokenBeyondScope(payload, granted),
    exchange,
    `${caseLabel}, ${granted.described}`,
  );
}

export function judgeAtHash({ tokens, claims, exchange }: AtHashScenario): Finding[] {
  const verdict = atHash(tokens, claims, exchange);
  return verdict ? [verdict] : [];
}

/** code_reuse, then code_reuse_revokes_tokens once the replay was refused. */
export function judgeCodeReuse({ again, revocationAsked, after }: CodeReuseScenario, context: JudgeContext): Finding[] {
  const replay = verdictOf(
    "code_reuse",
    "exchangeToken",
    codeReplayAccepted(again),
    again,
    "exchange the same code again",
  );
  const check = "code_reuse_revokes_tokens";
  if (!revocationAsked) return [replay];
  // Revoking the tokens is what a provider does once it detects the replay; accepting the replay is code_reuse's.
  if (!refused(again)) {
    const reason = "the replayed code was accepted, see code_reuse";
    return [replay, { about: "check", name: check, decision: "skipped", reason }];
  }
  if (!after) return [replay];
  // RFC 6749 §4.1.2 says SHOULD: a provider that keeps the tokens is allowed, so this is a warning, not a failure
  // (a failure under --strict), as the OpenID Foundation's code-reuse module reports it.
  const caseLabel = "userinfo with the first code's token after the replay";
  const found = { check, operationId: "getUserInfo", caseLabel, problem: tokensKeptAfterReplay(after) } as const;
  return [replay, ...assumedVerdicts(context.options.strict, { ...found, assumption: REVOKE_IS_A_SHOULD }, after)];
}

/** code_reuse_30_seconds; fail closed: without a code exchanged once, there was nothing to replay. */
export function judgeCodeReuseLater(scenario: CodeReuseLaterScenario, context: JudgeContext): Finding[] {
  const { grant, first, again, afterMs } = scenario;
  const check = "code_reuse_30_seconds";
  if (grant.kind !== "code") return [cannotRunOf(check, `could not get a code: ${describeAuthorization(grant)}`)];
  if (first && !first.tokens)
    return [cannotRunOf(check, `the code's first exchange was refused: ${describe(first.exchange)}`)];
  if (!again || afterMs === undefined) return [cannotRunOf(check, "the run ended before the replay was sent")];
  const caseLabel = "exchange the same code again 30 seconds later";
  const { problem, notInvalidGrant } = codeReplayedLater(again, afterMs);
  const { message, warnings } = assumedProblem(context.options.strict, {
    check,
    operationId: "exchangeToken",
    caseLabel,
    problem: notInvalidGrant,
    assumption: REPLAY_REFUSAL_IS_NOT_A_MUST,
  });
  return [...warnings, verdictOf(check, "exchangeToken", problem || message, again, caseLabel)];
}

export function judgeRefresh({ run, scopesSupported, secondClient }: RefreshScenario): Finding[] {
  const result = refreshTokenOfflineAccess(run);
  const skipped = "about" in result && result.decision === "skipped";
  const advertised = skipped ? offlineAccessAdvertised(scopesSupported, run.exchanged?.tokens?.scope) : [];
  return [result, ...advertised, refreshTokenClientBound(run, secondClient)];
}
