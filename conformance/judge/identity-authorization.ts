// The authorization endpoint's checks: what an authorization request must come back with to the redirect_uri (the
// state, a code or the right error) for sign_in, state_echoed, pkce_s256_only, redirect_uri_mismatch,
// redirect_uri_exact_match, nonce_optional, unknown_parameters_ignored, the requests that must succeed (by POST too:
// authorization_by_post), response_type_missing, prompt_none, prompt_login and max_age. Pure:
// what was sent and what came back in, the problem ("" when there is none) out.
import { arrivedAt } from "../identity/near-miss.js";
import type { Exchange } from "../model/exchange.js";
import { describe, describeAuthorization, refused, shown } from "./identity-words.js";
import { type Authorization, type CodeExchange, type SameSession } from "../model/identity-facts.js";
import type { Reauthentication } from "../model/identity-facts.js";

/**
 * What prompt=none may answer instead of a code when it cannot sign the user in silently (OpenID Connect Core
 * §3.1.2.6).
 */
const SILENT_ERRORS = ["login_required", "interaction_required", "consent_required", "account_selection_required"];
/** Core §3.1.2.1 (id_token_hint): "an invalid_request error MAY be returned if it is not" present with prompt=none. */
const WITHOUT_HINT_ERRORS = [...SILENT_ERRORS, "invalid_request"];

/** sign_in: the first sign-in brought a code. */
export const signInFailure = (first: Authorization) =>
  first.kind === "code"
    ? ""
    : first.kind === "failed"
      ? first.failure
      : `the provider answered the sign-in with ${describeAuthorization(first)}`;

/**
 * authorization_response_iss on one authorization response (RFC 9207): an iss, when there is one, is the issuer
 * (§2.4, as the suite's ValidateIssIfPresentInAuthorizationResponse); a provider that advertises
 * authorization_response_iss_parameter_supported: true MUST send it in every response, errors included (§2).
 */
export function issReturned(back: URLSearchParams, iss: { issuer: unknown; advertised: boolean }): string {
  const sent = back.get("iss");
  if (sent === null)
    return iss.advertised
      ? "the authorization response carries no iss, though the discovery document advertises authorization_response_iss_parameter_supported: true (RFC 9207 §2: MUST)"
      : "";
  return sent === iss.issuer
    ? ""
    : `the authorization response's iss is ${shown(sent)}, not the issuer ${shown(iss.issuer)} (RFC 9207 §2, §2.4)`;
}

/** The least the suite's oidcc-server accepts of a code: 128 bits long, more than 96 bits of Shannon entropy. */
const CODE_BITS = 128;
const CODE_ENTROPY_BITS = 96;

/**
 * authorization_code_entropy, measured as the suite measures it (EnsureMinimumAuthorizationCodeLength and
 * EnsureMinimumAuthorizationCodeEntropy): its length in bits, and its Shannon entropy per character times its length.
 * The message names the numbers, never the code.
 */
export function codeEntropy(code: string): string {
  const bits = Buffer.byteLength(code) * 8;
  const counts = new Map<string, number>();
  for (const character of code.split("")) counts.set(character, (counts.get(character) ?? 0) + 1);
  const perCharacter = [...counts.values()].reduce((sum, n) => sum - (n / code.length) * Math.log2(n / code.length), 0);
  const entropy = Math.round(perCharacter * code.length);
  const problems: string[] = [];
  if (bits < CODE_BITS) problems.push(`the authorization code is ${bits} bits long, less than ${CODE_BITS}`);
  if (entropy <= CODE_ENTROPY_BITS)
    problems.push(`it has about ${entropy} bits of entropy, not more than ${CODE_ENTROPY_BITS}`);
  return problems.length
    ? `${problems.join("; ")} (RFC 6749 §10.10: the odds of guessing it MUST be at most 2^-128; RFC 6819 §5.1.4.2.2)`
    : "";
}

/** code_reuse fails so when even the first, fresh code was refused: nothing can be replayed then. */
export const freshCodeRefused = (exchange: Exchange) =>
  `a fresh code with its verifier was refused: ${describe(exchange)} (RFC 6749 §4.1.3, RFC 7636 §4.6)`;

/** state_echoed: the redirect_uri got back the state the request sent, unchanged. */
export function stateEchoed(sent: string, back: URLSearchParams): string {
  const returned = back.get("state");
  if (returned === sent) return "";
  if (returned === null)
    return `the provider came back to the redirect_uri (${back.has("code") ? "with a code" : `with error ${back.get("error")}`}) without the state sent (RFC 6749 §4.1.2, §4.1.2.1)`;
  return "the provider came back to the redirect_uri with another state than the one sent (RFC 6749 §4.1.2, §4.1.2.1)";
}

/** pkce_s256_only at the authorization endpoint: a code for plain breaks the contract's S256-only assumption. */
export const plainPkceAccepted = (attempt: Authorization) =>
  attempt.kind === "code"
    ? "a code was issued for code_challenge_method=plain (RFC 7636 §4.2 allows it; the contract allows S256 only, RFC 9700 §2.1.1)"
    : "";

/**
 * redirect_uri_mismatch: the provider must not redirect to an unregistered redirect_uri, nor exchange a code sent
 * with another redirect_uri than the one it was issued for.
 */
export function redirectUriMismatch(
  toUnregistered: Authorization,
  unregistered: string,
  exchangedElsewhere: Exchange | undefined,
): string {
  const problems: string[] = [];
  if (toUnregistered.kind !== "failed")
    problems.push(
      `the provider redirected (${describeAuthorization(toUnregistered)}) to the unregistered redirect_uri ${unregistered} (RFC 6749 §4.1.2.1, OpenID Connect Core §3.1.2.1: it must not)`,
    );
  if (exchangedElsewhere && !refused(exchangedElsewhere))
    problems.push(
      `a code was exchanged with another redirect_uri than the one it was issued for (${describe(exchangedElsewhere)}; RFC 6749 §4.1.3)`,
    );
  return problems.join("; ");
}

/**
 * redirect_uri_exact_match: a near miss of the registered redirect_uri (a subdomain, another path, an extra query) is
 * refused with an error page, never redirected to; coming back to the registered address instead is not following it.
 */
export const nearMissFollowed = (attempt: Authorization, nearMiss: { how: string; uri: string }) =>
  attempt.kind !== "failed" && arrivedAt(attempt.navigation.arrived, nearMiss.uri)
    ? `the provider redirected (${describeAuthorization(attempt)}) to ${nearMiss.uri}, the registered redirect_uri with ${nearMiss.how} (exact matching: RFC 9700 §4.1.3, OpenID Connect Core §3.1.2.1; RFC 8252 §7.3 lets only a loopback port vary)`
    : "";

/** nonce_optional: a request without nonce gets a code, and that code's id_token carries no nonce. */
export function nonceOptional(attempt: Authorization, exchanged: CodeExchange | undefined, idTokenNonce: unknown) {
  if (attempt.kind !== "code")
    return `an authorization request without nonce got ${describeAuthorization(attempt)} (OpenID Connect Core §3.1.2.1: nonce is optional in the code flow)`;
  if (exchanged && !exchanged.tokens)
    return `the code of a request without nonce was refused: ${describe(exchanged.exchange)} (RFC 6749 §4.1.3)`;
  if (idTokenNonce !== undefined)
    return "the id_token carries a nonce though the request sent none (OpenID Connect Core §2: nonce is the request's)";
  return "";
}

/** unknown_parameters_ignored: a parameter the provider does not know is ignored, not refused. */
export const unknownParameterRefused = (attempt: Authorization) =>
  attempt.kind === "code"
    ? ""
    : `an authorization request with an unknown parameter got ${describeAuthorization(attempt)} (RFC 6749 §3.1, OpenID Connect Core §3.1.2.1: unknown parameters are ignored)`;

/**
 * The checks of MUST_SUCCEED (identity/authorization.ts): a request that must be taken as a plain one is gets a code,
 * the code tokens, and the id_token the claim the request makes REQUIRED.
 */
export function mustSucceed(
  what: string,
  section: string,
  attempt: Authorization,
  exchanged: CodeExchange | undefined,
  requiredClaim: { name: string; section: string; value: unknown } | undefined,
  sameSessionOf?: SameSession,
): string {
  if (attempt.kind !== "code") return `${what} got ${describeAuthorization(attempt)} instead of a code (${section})`;
  if (exchanged && !exchanged.tokens)
    return `the code of ${what} was refused: ${describe(exchanged.exchange)} (RFC 6749 §4.1.3)`;
  const problems: string[] = [];
  if (requiredClaim && requiredClaim.value === undefined)
    problems.push(`the id_token of ${what} carries no ${requiredClaim.name} (${requiredClaim.section})`);
  const session = sameSession(what, sameSessionOf);
  if (session) problems.push(session);
  return problems.join("; ");
}

/**
 * prompt_none and max_age_10000 on a later id_token of the first sign-in's session, got with no new sign-in: the same
 * sub (OpenID Connect Core §2: the End-User's identifier, never reassigned) and the same auth_time when both carry
 * one, as the suite compares them (CheckIdTokenAuthTimeClaimsSameIfPresent). When the first has none (Core §2: it is
 * REQUIRED only when asked for), the later one's may not be after the first sign-in ended (1 second of clock allowed).
 */
export function sameSession(what: string, session: SameSession | undefined): string {
  if (!session) return "";
  const { first, claims } = session;
  if (!claims) return `the token response of ${what} carries no id_token (OpenID Connect Core §3.1.3.3)`;
  const problems: string[] = [];
  if (claims.sub !== first.sub)
    problems.push(
      `the id_token of ${what} has sub ${shown(claims.sub)}, the first sign-in's of the same session ${shown(first.sub)} (OpenID Connect Core §2)`,
    );
  const { auth_time: authTime } = claims;
  if (typeof authTime === "number" && typeof first.authTime === "number" && authTime !== first.authTime)
    problems.push(
      `the id_token of ${what} has auth_time ${authTime}, the first sign-in's ${first.authTime}, though no new sign-in happened (OpenID Connect Core §2)`,
    );
  else if (typeof authTime === "number" && typeof first.authTime !== "number" && authTime > first.signedInBy + 1)
    problems.push(
      `the id_token of ${what} has auth_time ${authTime}, after the first sign-in (done by ${first.signedInBy}), though no new sign-in happened (OpenID Connect Core §2)`,
    );
  return problems.join("; ");
}

/** Why a refused authorization request by POST warns: the contract (the seed) describes GET only. */
export const POST_NOT_IN_CONTRACT =
  "the contract describes the authorization request by GET only, as the seed does; OpenID Connect Core §3.1.2.1 says the Authorization Server MUST support POST too.";

/**
 * authorization_by_post: a POST taken (a page acted on, a redirect back) must end as a GET does, in a code that
 * exchanges (`problem`); a POST answered at once with a page the driver cannot go on from (405, 404, an error page)
 * is a `refusal`, which breaks Core's MUST but not the contract.
 */
export function authorizationByPost(
  attempt: Authorization,
  exchanged: CodeExchange | undefined,
): { problem: string; refusal: string } {
  const what = "an authorization request by POST";
  const section = "OpenID Connect Core §3.1.2.1: the Authorization Server MUST support POST";
  const status = attempt.kind === "failed" ? (attempt.navigation.lastPage?.status ?? 0) : 0;
  if (status >= 500) return { problem: `${what} got a server error (status ${status}) (${section})`, refusal: "" };
  if (attempt.kind === "failed" && attempt.navigation.pages === 0)
    return {
      problem: "",
      refusal: `the authorization endpoint refused ${what}${status ? ` with status ${status}` : ""}, on a page saying "${attempt.navigation.lastPage?.text ?? ""}"`,
    };
  return { problem: mustSucceed(what, section, attempt, exchanged, undefined), refusal: "" };
}

/** What oidcc-response-type-missing accepts in an error redirect (RFC 6749 §4.1.2.1). */
const RESPONSE_TYPE_MISSING_ERRORS = ["invalid_request", "unsupported_response_type"];

/**
 * response_type_missing: an error redirect with invalid_request or unsupported_response_type, or an error page (the
 * suite takes its screenshot); never a code, and not a server error.
 */
export function responseTypeMissing(attempt: Authorization): string {
  const request = "an authorization request without response_type";
  if (attempt.kind === "code") return `${request} got a code (RFC 6749 §3.1.1: response_type is REQUIRED)`;
  if (attempt.kind === "error")
    return RESPONSE_TYPE_MISSING_ERRORS.includes(attempt.error)
      ? ""
      : `${request} got ${describeAuthorization(attempt)}, expected ${RESPONSE_TYPE_MISSING_ERRORS.join(" or ")} (RFC 6749 §4.1.2.1)`;
  const status = attempt.navigation.lastPage?.status ?? 0;
  return status >= 500
    ? `${request} got a server error (status ${status}) instead of an error redirect or page (RFC 6749 §4.1.2.1)`
    : "";
}

/** prompt_none with a live session (and its id_token_hint, when there is one): a code, without a page. */
export function promptNoneSignedIn(
  attempt: Authorization,
  hinted: boolean,
  exchanged?: CodeExchange,
  session?: SameSession,
): string {
  if (attempt.kind !== "code")
    return `prompt=none with a live session${hinted ? " and its id_token_hint" : ""} got ${describeAuthorization(attempt)} instead of a code (OpenID Connect Core §3.1.2.1)`;
  if (exchanged && !exchanged.tokens)
    return `the code of prompt=none was refused: ${describe(exchanged.exchange)} (RFC 6749 §4.1.3)`;
  return sameSession("prompt=none", session);
}

/** prompt_none without a session: an error redirect, without a page. */
export const promptNoneSignedOut = (attempt: Authorization) =>
  attempt.kind === "error" && WITHOUT_HINT_ERRORS.includes(attempt.error)
    ? ""
    : `prompt=none without a session got ${describeAuthorization(attempt)}, expected an error redirect (${WITHOUT_HINT_ERRORS.join(", ")}; OpenID Connect Core §3.1.2.1, §3.1.2.6)`;

/** What a re-authentication got wrong before its auth_time is read: no code, no page shown, the code refused. */
function reauthenticationProblems(run: Reauthentication, asked: string, didNotAskAgain?: string): string[] {
  const { attempt, exchanged } = run;
  if (attempt.kind !== "code") {
    return [`${asked} got ${describeAuthorization(attempt)} (OpenID Connect Core §3.1.2.1)`];
  }
  const problems: string[] = [];
  if (didNotAskAgain && !run.manual && attempt.navigation.pages === 0) problems.push(didNotAskAgain);
  if (exchanged && !exchanged.tokens)
    problems.push(`the code was refused: ${describe(exchanged.exchange)} (RFC 6749 §4.1.3)`);
  return problems;
}

/** Why prompt=login answered without asking for the credentials warns: Core recommends the prompt, not requires it. */
export const REAUTHENTICATION_PROMPT_IS_A_SHOULD =
  "OpenID Connect Core §3.1.2.1 says that for prompt=login the Authorization Server SHOULD (not MUST) prompt the End-User for reauthentication; it MUST return an error only when it cannot reauthenticate.";

/**
 * prompt_login: the sign-in is asked again (a form with a password input shown and submitted), and the id_token's
 * auth_time is that of the new one. `problem` fails the check; `credentialsNotAsked` (a code after no credentials were
 * asked for, a one-click "continue as" page, with an auth_time that moved forward) breaks only Core's SHOULD.
 */
export function promptLogin(
  run: Reauthentication,
  firstSignIn: number,
): { problem: string; credentialsNotAsked: string } {
  const problems = reauthenticationProblems(run, "prompt=login");
  const { attempt } = run;
  if (attempt.kind !== "code" || !run.exchanged?.tokens)
    return { problem: problems.join("; "), credentialsNotAsked: "" };
  const asked = run.manual || attempt.navigation.passwordSubmitted === true;
  const notAsked = `prompt=login returned a code without asking for the credentials again: no form with a password input was shown and submitted (${attempt.navigation.pages} page(s) went on without one; a one-click "continue" page is not a re-authentication, OpenID Connect Core §3.1.2.1)`;
  if (run.authTime !== undefined && run.authTime < run.sentAt - 1)
    problems.push(
      `the id_token's auth_time ${run.authTime} is that of the earlier sign-in (about ${firstSignIn}), not of the new one (OpenID Connect Core §2, §3.1.2.1)`,
    );
  else if (run.authTime === undefined && run.manual)
    problems.push(
      "the id_token carries no auth_time, so a re-authentication cannot be told (OpenID Connect Core §2: auth_time when requested)",
    );
  // Fail closed: without the credentials asked and without an auth_time nothing shows a re-authentication.
  else if (run.authTime === undefined && !asked)
    problems.push(`${notAsked}, and the id_token carries no auth_time to show a new sign-in`);
  const problem = problems.join("; ");
  return { problem, credentialsNotAsked: problem || asked ? "" : notAsked };
}

/** max_age: a session older than max_age signs in again, and the id_token's auth_time is within max_age. */
export function maxAge(run: Reauthentication): string {
  const problems = reauthenticationProblems(
    run,
    "max_age=1",
    "max_age=1 on a session older than a second returned a code without signing in again (OpenID Connect Core §3.1.2.1)",
  );
  if (run.attempt.kind !== "code" || !run.exchanged?.tokens) return problems.join("; ");
  if (run.authTime === undefined)
    problems.push("the id_token of a request with max_age carries no auth_time (OpenID Connect Core §2)");
  else if (run.authTime < run.sentAt - 1)
    problems.push(
      `the id_token's auth_time ${run.authTime} is older than max_age allows (the request was sent at ${run.sentAt}; OpenID Connect Core §3.1.2.1)`,
    );
  return problems.join("; ");
}
