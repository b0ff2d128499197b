// The token endpoint's flows: refusals in the RFC 6749 shape, PKCE, code replay, the id_token and refresh grants.
// Each sends what its check needs and adds the verdict of the check (judge/identity-tokens.ts).
import { randomBytes } from "node:crypto";
import {
  createLocalJWKSet,
  decodeJwt,
  type JSONWebKeySet,
  type JWTPayload,
  jwtVerify,
  type JWTVerifyOptions,
} from "jose";
import {
  assumedMessage,
  type CodeGrant,
  describeAuthorization,
  jsonObject,
  refused,
  type TokenResponse,
} from "../judge/identity-words.js";
import {
  atHash,
  codeExchangedWithoutSecret,
  codeReplayAccepted,
  idTokenClaims,
  idTokenUnverified,
  jwksUnreadable,
  noIdToken,
  pkceCodeExchanged,
  refreshTokenOfflineAccess,
  type RefreshRun,
  REVOKE_IS_A_SHOULD,
  tokenError,
  type TokenErrorCase,
  tokensKeptAfterReplay,
} from "../judge/identity-tokens.js";
import { verdictOf } from "../judge/verdict.js";
import type { Exchange } from "../send/transport.js";
import {
  addResult,
  authorize,
  base64url,
  codeFields,
  endpointOf,
  exchangeCode,
  type Flow,
  type IdentityParts,
  readUserinfo,
  tokensFor,
} from "./flow.js";

/**
 * A grant type no specification and no registry defines: `password` (RFC 6749 §4.3) and other real grants may be
 * enabled, and a refusal of their invalid credentials is not a refusal of the grant type.
 */
export const UNDEFINED_GRANT_TYPE = "urn:conformance:grant-type:undefined";

/** The token requests token_errors sends without a code of its own, each with exactly one fault. */
function tokenErrorRequests({ context }: IdentityParts): Array<[TokenErrorCase, Record<string, string | undefined>]> {
  const { credentials } = context.options;
  const client = { client_id: credentials.clientId, client_secret: credentials.clientSecret };
  return [
    [
      "an unknown code",
      {
        grant_type: "authorization_code",
        code: `unknown-${base64url(randomBytes(9))}`,
        redirect_uri: credentials.redirectUri,
        ...client,
      },
    ],
    ["an unsupported grant_type", { grant_type: UNDEFINED_GRANT_TYPE, ...client }],
  ];
}

function addTokenErrors(parts: IdentityParts, sent: Array<[TokenErrorCase, Exchange]>): void {
  const problems: string[] = [];
  let last: Exchange | undefined;
  for (const [what, exchange] of sent) {
    const problem = tokenError(what, exchange);
    if (problem) {
      problems.push(problem);
      last = exchange;
    } else last ??= exchange;
  }
  parts.ledger.add(
    verdictOf("token_errors", "exchangeToken", problems.join("; "), last, "token requests that must fail"),
  );
}

/** token_errors before any sign-in: an unknown code, an unsupported grant_type. */
export async function tokenErrors(parts: IdentityParts): Promise<void> {
  const sent: Array<[TokenErrorCase, Exchange]> = [];
  for (const [what, fields] of tokenErrorRequests(parts))
    sent.push([what, await exchangeCode(parts, fields, `token request with ${what}`)]);
  addTokenErrors(parts, sent);
}

/**
 * token_errors on a wrong client_secret: a fresh, valid code with its verifier and the wrong secret, so that the secret
 * is the request's only fault (RFC 6749 §5.2 does not order the checks: a provider may look the code up first).
 */
export async function wrongClientSecret(flow: Flow): Promise<void> {
  const what = "a wrong client_secret";
  const grant = await authorize(flow, {
    scope: "openid",
    purpose: "authorize for a token request with a wrong secret",
  });
  if (grant.kind !== "code") {
    const reason = `could not get a code for ${what}: ${describeAuthorization(grant)}`;
    flow.ledger.decide({ about: "check", name: "token_errors", decision: "cannot run", reason });
    return;
  }
  const fields = codeFields(flow.context, grant, { client_secret: "conformance-wrong-secret" });
  addTokenErrors(flow, [[what, await exchangeCode(flow, fields, `token request with ${what}`)]]);
}

/**
 * client_authentication_required: a confidential client's fresh code with its code_verifier but no client_secret
 * must be refused; PKCE binds the code to the client instance, it does not authenticate the client (RFC 6749 §3.2.1,
 * §4.1.3).
 */
export async function clientAuthenticationRequired(flow: Flow): Promise<void> {
  const check = "client_authentication_required";
  const grant = await authorize(flow, { scope: "openid", purpose: "authorize for a token request without the secret" });
  if (grant.kind !== "code") {
    const reason = `could not get a code: ${describeAuthorization(grant)}`;
    flow.ledger.decide({ about: "check", name: check, decision: "cannot run", reason });
    return;
  }
  const label = "exchange a code with its code_verifier and no client_secret";
  const exchange = await exchangeCode(flow, codeFields(flow.context, grant, { client_secret: undefined }), label);
  flow.ledger.add(verdictOf(check, "exchangeToken", codeExchangedWithoutSecret(exchange), exchange, label));
}

/** Verifies with the JWKS; where several keys share the kid (jwks_unique_kids reports that), any of them may verify. */
async function verifyIdToken(token: string, jwks: JSONWebKeySet, options: JWTVerifyOptions): Promise<JWTPayload> {
  try {
    return (await jwtVerify(token, createLocalJWKSet(jwks), options)).payload;
  } catch (error) {
    if ((error as { code?: string }).code !== "ERR_JWKS_MULTIPLE_MATCHING_KEYS") throw error;
    let last: unknown = error;
    for await (const key of error as AsyncIterable<CryptoKey>) {
      try {
        return (await jwtVerify(token, key, options)).payload;
      } catch (next) {
        last = next;
      }
    }
    throw last;
  }
}

/** Checks the id_token of a fresh code (verified with the JWKS the discovery names); its sub, for userinfo's. */
export async function checkIdToken(
  flow: Flow,
  tokens: TokenResponse,
  grant: CodeGrant,
  exchange: Exchange,
): Promise<unknown> {
  const { context, send, ledger } = flow;
  const { credentials, baseUrl } = context.options;
  const check = "id_token_signature_and_claims";
  const caseLabel = "the id_token of a fresh code";
  const add = (problem: string) => ledger.add(verdictOf(check, "exchangeToken", problem, exchange, caseLabel));
  if (typeof tokens.id_token !== "string") return add(noIdToken);
  const jwksResponse = await send.sendAsIs(
    { method: "GET", url: endpointOf(flow, "jwks_uri", "getJwks"), headers: {} },
    { model: context.model("getJwks"), label: "JWKS to verify the id_token" },
  );
  const jwks = jsonObject(jwksResponse.response?.json);
  if (!Array.isArray(jwks?.keys)) return add(jwksUnreadable);
  try {
    const payload = await verifyIdToken(tokens.id_token, jwks as unknown as JSONWebKeySet, {
      issuer: baseUrl,
      audience: credentials.clientId ?? "",
      clockTolerance: 60,
    });
    add(idTokenClaims(payload, grant.nonce, flow.judge.assumption(check, "exchangeToken", caseLabel)));
    return payload.sub;
  } catch (error) {
    add(idTokenUnverified(error as Error));
    return undefined;
  }
}

/** at_hash of the id_token of a fresh code (OpenID Connect Core §3.1.3.6). */
export function checkAtHash({ ledger }: IdentityParts, tokens: TokenResponse, exchange: Exchange): void {
  const claims = typeof tokens.id_token === "string" ? decodeJwt(tokens.id_token) : undefined;
  const verdict = atHash(tokens, claims, exchange);
  if (verdict) ledger.add(verdict);
}

/** Replays the first code; a provider must refuse it and should revoke the tokens issued for it. */
export async function codeReuse(
  flow: Flow,
  first: CodeGrant,
  tokens: TokenResponse,
  run: (check: string) => boolean,
): Promise<void> {
  const { context, judge, ledger } = flow;
  const again = await exchangeCode(flow, codeFields(context, first), "exchange the same code again");
  ledger.add(
    verdictOf("code_reuse", "exchangeToken", codeReplayAccepted(again), again, "exchange the same code again"),
  );
  if (!run("code_reuse_revokes_tokens")) return;
  // Revoking the tokens is what a provider does once it detects the replay; accepting the replay is code_reuse's.
  if (!refused(again)) {
    const reason = "the replayed code was accepted, see code_reuse";
    ledger.decide({ about: "check", name: "code_reuse_revokes_tokens", decision: "skipped", reason });
    return;
  }
  // RFC 6749 §4.1.2 says SHOULD: a provider that keeps the tokens is allowed, so this is a warning, not a failure
  // (a failure under --strict), as the OpenID Foundation's code-reuse module reports it.
  const caseLabel = "userinfo with the first code's token after the replay";
  const after = await readUserinfo(flow, tokens.access_token, caseLabel);
  const check = "code_reuse_revokes_tokens";
  const problem = tokensKeptAfterReplay(after);
  const message = assumedMessage(judge, {
    check,
    operationId: "getUserInfo",
    caseLabel,
    problem,
    assumption: REVOKE_IS_A_SHOULD,
  });
  ledger.add(verdictOf(check, "getUserInfo", message, after, caseLabel));
}

export async function pkceEnforcement(flow: Flow): Promise<void> {
  const { context, ledger } = flow;
  const problems: string[] = [];
  let last: Exchange | undefined;
  for (const [what, verifier] of [
    ["without the code_verifier", undefined],
    ["with a wrong code_verifier", base64url(randomBytes(32))],
  ] as const) {
    const grant = await authorize(flow, { scope: "openid", purpose: "authorize with PKCE" });
    if (grant.kind !== "code") {
      const reason = `could not get a code again: ${describeAuthorization(grant)}`;
      ledger.decide({ about: "check", name: "pkce_enforcement", decision: "cannot run", reason });
      return;
    }
    const fields = codeFields(context, grant, { code_verifier: verifier });
    last = await exchangeCode(flow, fields, `exchange a PKCE code ${what}`);
    const problem = pkceCodeExchanged(what, last);
    if (problem) problems.push(problem);
  }
  ledger.add(
    verdictOf("pkce_enforcement", "exchangeToken", problems.join("; "), last, "PKCE code exchanges that must fail"),
  );
}

/**
 * oidcc-refresh-token: offline_access asked for as OpenID Connect Core §11 requires (with prompt=consent), then a
 * refresh grant (RFC 6749 §6) whose access token reads userinfo. A provider that does not grant offline_access
 * (Core §11 lets it) issues no refresh token: the check skips then, as the OpenID Foundation's module does.
 */
export async function refreshTokens(flow: Flow): Promise<void> {
  const { credentials } = flow.context.options;
  const attempt = await authorize(flow, {
    scope: "openid offline_access",
    extra: { prompt: "consent" },
    purpose: "authorize with offline_access and prompt=consent",
  });
  const run: RefreshRun = { attempt };
  if (attempt.kind === "code") run.exchanged = await tokensFor(flow, attempt, "exchange a code with offline_access");
  const refreshToken = run.exchanged?.tokens?.refresh_token;
  if (typeof refreshToken === "string") {
    const fields = {
      grant_type: "refresh_token",
      refresh_token: refreshToken,
      client_id: credentials.clientId,
      client_secret: credentials.clientSecret,
    };
    run.refreshed = await exchangeCode(flow, fields, "refresh grant");
    const access = jsonObject(run.refreshed.response?.json)?.access_token;
    if (run.refreshed.response?.status === 200 && typeof access === "string")
      run.read = await readUserinfo(flow, access, "userinfo with a refreshed access token");
  }
  addResult(flow.ledger, refreshTokenOfflineAccess(run));
}
