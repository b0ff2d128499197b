// The token endpoint's checks: token_errors, client_authentication_required, pkce_enforcement, code_reuse (and
// code_reuse_revokes_tokens), the id_token's claims and at_hash, refresh_token_offline_access and
// refresh_token_client_bound. Pure: what was sent and what came back in, the problem ("" when there is none), a Verdict
// or a Decision out.
import { createHash } from "node:crypto";
import type { JWTPayload } from "jose";
import { describeErrors, loadContract } from "../../lib/contract/index.js";
import type { Exchange } from "../model/exchange.js";
import { type AssumptionJudge, assumptionBroken } from "./assumptions.js";
import { responseErrorWord } from "../contract/words.js";
import { describe, describeAuthorization, type IdentityResult, refused, refusedWith, shown } from "./identity-words.js";
import { jsonObject } from "../identity/json.js";
import type { TokenResponse } from "../model/identity-facts.js";
import { cannotRunOf, verdictOf } from "./verdict.js";
import type { TokenErrorCase, RefreshRun } from "../model/identity-facts.js";

/** The token requests token_errors sends, and the refusal each must get (RFC 6749 §5.2). */
export const TOKEN_ERRORS: Record<TokenErrorCase, { accepted: (e: Exchange) => boolean; expected: string }> = {
  "an unknown code": {
    accepted: (e: Exchange) => refusedWith(e, "invalid_grant"),
    expected: "400 invalid_grant (RFC 6749 §5.2)",
  },
  "a wrong client_secret": {
    accepted: (e: Exchange) => refusedWith(e, "invalid_client"),
    expected: "400 or 401 invalid_client (RFC 6749 §5.2)",
  },
  "an unsupported grant_type": {
    accepted: (e: Exchange) => refusedWith(e, "unsupported_grant_type") || refusedWith(e, "unauthorized_client"),
    expected: "400 unsupported_grant_type (RFC 6749 §5.2)",
  },
};

/** token_errors on one request: refused with the right error code. */
export function tokenError(what: TokenErrorCase, exchange: Exchange): string {
  const { accepted, expected } = TOKEN_ERRORS[what];
  return accepted(exchange) ? "" : `${what} got ${describe(exchange)}, expected ${expected}`;
}

/** client_authentication_required: a code with its verifier and no client_secret is refused. */
export const codeExchangedWithoutSecret = (exchange: Exchange) =>
  refused(exchange)
    ? ""
    : `a confidential client's code was exchanged with its code_verifier and no client_secret (${describe(exchange)}; RFC 6749 §3.2.1, §4.1.3: the client must authenticate, PKCE does not replace it)`;

/** id_token_signature_and_claims, before verifying: the token response for scope openid has an id_token. */
export const noIdToken = "the token response for scope openid carries no id_token (OpenID Connect Core §3.1.3.3)";
/** id_token_signature_and_claims fails so when the JWKS to verify with cannot be read. */
export const jwksUnreadable =
  "the JWKS could not be read to verify the id_token (OpenID Connect Core §3.1.3.7, RFC 7517 §5)";
/** id_token_signature_and_claims: the id_token does not verify (signature, iss, aud, exp). */
export const idTokenUnverified = (error: Error) =>
  `the id_token does not verify: ${error.message} (OpenID Connect Core §3.1.3.7)`;

const ID_TOKEN_CLAIMS = "/components/schemas/IdTokenClaims";

/**
 * id_token_signature_and_claims on a verified id_token: the nonce sent, iat, exp, the contract's claim schema. A
 * schema error where the contract marks the constraint `x-assumption` (the e-mail format, say) breaks only that
 * assumption: a warning through `assumptions`, a failure under --strict.
 */
export function idTokenClaims(payload: JWTPayload, nonce: string | undefined, assumptions: AssumptionJudge): string {
  const problems: string[] = [];
  if (payload.nonce !== nonce)
    problems.push(`nonce is ${shown(payload.nonce)}, not the one sent (OpenID Connect Core §2, §3.1.3.7)`);
  if (typeof payload.iat !== "number" || payload.iat > Date.now() / 1000 + 60)
    problems.push("iat is missing or in the future (OpenID Connect Core §2)");
  if (typeof payload.exp !== "number") problems.push("exp is missing (OpenID Connect Core §2)");
  const { errors } = loadContract("identity").validate(ID_TOKEN_CLAIMS, payload);
  const judged = errors.map((error) => ({
    error,
    assumption: responseErrorWord("identity", ID_TOKEN_CLAIMS, error, "x-assumption"),
  }));
  const hard = judged.filter((j) => j.assumption === undefined).map((j) => j.error);
  const assumed = judged.filter((j) => j.assumption !== undefined);
  const doesNotMatch = (shown: typeof errors) =>
    `the claims do not match IdTokenClaims: ${describeErrors(shown)} (the seed's claim table)`;
  if (hard.length) problems.push(doesNotMatch(hard));
  if (assumed.length) {
    const reasons = [...new Set(assumed.map((a) => a.assumption))].join(" ");
    const broken = assumptionBroken(assumptions, doesNotMatch(assumed.map((a) => a.error)), reasons);
    if (broken) problems.push(broken);
  }
  return problems.join("; ");
}

/**
 * id_token_at_hash (OpenID Connect Core §3.1.3.6): the left half of the hash of the access token, for RS256 SHA-256;
 * absent is allowed in the code flow. Undefined without an id_token.
 */
export function atHash(tokens: TokenResponse, claims: JWTPayload | undefined, exchange: Exchange) {
  if (!claims) return undefined;
  const check = "id_token_at_hash";
  if (claims.at_hash === undefined)
    return verdictOf(check, "exchangeToken", "", exchange, "the id_token's at_hash (absent, which code flow allows)");
  const digest = createHash("sha256").update(tokens.access_token).digest();
  const expected = digest.subarray(0, digest.length / 2).toString("base64url");
  const problem =
    claims.at_hash === expected
      ? ""
      : `at_hash is ${shown(claims.at_hash)}, the access token's is ${expected} (OpenID Connect Core §3.1.3.6)`;
  return verdictOf(check, "exchangeToken", problem, exchange, "the id_token's at_hash");
}

/** token_expires_in: the token response of a code says how long its access token lives. */
export const expiresInMissing = (tokens: TokenResponse) =>
  tokens.expires_in === undefined ? "the token response carries no expires_in (RFC 6749 §5.1: RECOMMENDED)" : "";

/** Why a token response without expires_in warns: the member is recommended, not required. */
export const EXPIRES_IN_IS_RECOMMENDED =
  "RFC 6749 §5.1 makes expires_in RECOMMENDED, not REQUIRED (the OpenID Foundation's oidcc-server warns when it is missing).";

/** code_reuse: a code exchanged a second time is refused. */
export const codeReplayAccepted = (again: Exchange) =>
  refused(again) ? "" : `the code was accepted a second time (${describe(again)}; RFC 6749 §4.1.2, §10.5)`;

/** Why keeping the tokens of a replayed code warns: the standard recommends revoking them, it does not require it. */
export const REVOKE_IS_A_SHOULD =
  "RFC 6749 §4.1.2 says the provider SHOULD (not MUST) revoke the tokens issued for a code that is used twice.";

/** code_reuse_revokes_tokens: the first code's access token no longer reads userinfo after the replay. */
export const tokensKeptAfterReplay = (after: Exchange) =>
  after.response?.status === 200
    ? "the access token issued for the code still reads userinfo after the code was replayed"
    : "";

/**
 * code_reuse_30_seconds on the replay of a code 30 seconds after its first exchange: denied (RFC 6749 §4.1.2, a
 * MUST), and with 400 invalid_grant, which `notInvalidGrant` says it was not (a warning: no MUST stands behind it).
 */
export function codeReplayedLater(again: Exchange, afterMs: number): { problem: string; notInvalidGrant: string } {
  const after = `${Math.round(afterMs / 1000)} seconds after its first exchange`;
  if (!refused(again))
    return {
      problem: `the code was accepted again ${after} (${describe(again)}; RFC 6749 §4.1.2: a code used more than once MUST be denied)`,
      notInvalidGrant: "",
    };
  const invalidGrant = again.response?.status === 400 && refusedWith(again, "invalid_grant");
  return {
    problem: "",
    notInvalidGrant: invalidGrant
      ? ""
      : `the code replayed ${after} got ${describe(again)}, not 400 invalid_grant (RFC 6749 §5.2)`,
  };
}

/** Why a replayed code refused otherwise than with 400 invalid_grant warns: the MUST is to deny it, not how. */
export const REPLAY_REFUSAL_IS_NOT_A_MUST =
  "RFC 6749 §4.1.2 says a code used more than once MUST be denied; §5.2 describes the refusal of a used grant as 400 with invalid_grant, but no MUST fixes its status or error code (the OpenID Foundation's oidcc-codereuse-30seconds fails it).";

/** pkce_enforcement on one exchange of a S256 code without its verifier (`what` says how). */
export const pkceCodeExchanged = (what: string, exchange: Exchange) =>
  refused(exchange)
    ? ""
    : `a code issued for a S256 challenge was exchanged ${what} (${describe(exchange)}; RFC 7636 §4.6)`;

/** Whether a token response grants offline_access: its scope says so, or it has none (RFC 6749 §5.1: as requested). */
const grantsOfflineAccess = (tokens: TokenResponse) =>
  typeof tokens.scope !== "string" || tokens.scope.split(" ").includes("offline_access");

/**
 * refresh_token_offline_access: offline_access asked for gets a code, a refresh token when granted (skipped when it
 * is not, as oidcc-refresh-token does), a refresh grant, and an access token that reads userinfo.
 */
export function refreshTokenOfflineAccess(run: RefreshRun): IdentityResult {
  const check = "refresh_token_offline_access";
  const verdict = (problem: string, exchange: Exchange, label: string) =>
    verdictOf(check, "exchangeToken", problem, exchange, label);
  const { attempt, exchanged, refreshed, read } = run;
  if (attempt.kind !== "code" || !exchanged)
    return verdict(
      `an authorization request with offline_access and prompt=consent got ${describeAuthorization(attempt)} (OpenID Connect Core §11: the provider may ignore offline_access, not refuse the request)`,
      attempt.exchange,
      "authorize with offline_access",
    );
  const { tokens, exchange } = exchanged;
  const label = "exchange a code with offline_access";
  if (!tokens)
    return verdict(
      `the code of a request with offline_access was refused: ${describe(exchange)} (RFC 6749 §4.1.3)`,
      exchange,
      label,
    );
  if (typeof tokens.refresh_token !== "string" && !grantsOfflineAccess(tokens))
    return {
      about: "check",
      name: check,
      decision: "skipped",
      reason: `offline_access was not granted (the token response's scope is "${shown(tokens.scope)}", OpenID Connect Core §11 allows that), so no refresh token was issued to test, as oidcc-refresh-token skips`,
    };
  if (typeof tokens.refresh_token !== "string" || !refreshed)
    return verdict(
      "offline_access was granted but no refresh token was issued (the seed: a refresh_token is included when offline_access was granted)",
      exchange,
      label,
    );
  if (
    refreshed.response?.status !== 200 ||
    typeof jsonObject(refreshed.response?.json)?.access_token !== "string" ||
    !read
  )
    return verdict(`the refresh grant was refused: ${describe(refreshed)} (RFC 6749 §6)`, refreshed, "refresh grant");
  return verdict(
    read.response?.status === 200
      ? ""
      : `the access token of the refresh grant does not read userinfo (status ${read.response?.status ?? read.error}; RFC 6749 §6, OpenID Connect Core §5.3)`,
    read,
    "userinfo with a refreshed access token",
  );
}

/** What refresh_token_client_bound needs and the run was not given. */
export const SECOND_CLIENT_NEEDED =
  "needs a second client registered with the provider: --second-client-id and --second-client-secret (IDENTITY_SECOND_CLIENT_ID, IDENTITY_SECOND_CLIENT_SECRET)";

/**
 * refresh_token_client_bound: the client's refresh token presented by the second client is refused (any 4xx without
 * a token). A refusal with invalid_client refused the second client itself, so it says nothing of the binding: could
 * not run, never passed.
 */
export function refreshTokenClientBound(run: RefreshRun, secondClient: boolean): IdentityResult {
  const check = "refresh_token_client_bound";
  const skipped = (reason: string): IdentityResult => ({ about: "check", name: check, decision: "skipped", reason });
  if (!secondClient) return skipped(SECOND_CLIENT_NEEDED);
  if (typeof run.exchanged?.tokens?.refresh_token !== "string")
    return skipped(
      "no refresh token was issued to present as the second client (refresh_token_offline_access says why)",
    );
  const other = run.byOtherClient;
  if (!other) return cannotRunOf(check, "the second client's request was not sent");
  if (refusedWith(other, "invalid_client"))
    return cannotRunOf(
      check,
      `the provider refused the second client's own credentials (${describe(other)}): that says nothing of the refresh token's binding; are --second-client-id and --second-client-secret a registered client's?`,
    );
  const problem = refused(other)
    ? ""
    : `a refresh token issued to the client was accepted from the second client (${describe(other)}; RFC 6749 §6, §10.4: the authorization server MUST verify the binding between the refresh token and the client)`;
  return verdictOf(check, "exchangeToken", problem, other, "refresh grant by the second client");
}
