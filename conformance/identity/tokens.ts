// The token endpoint's flows: refusals in the RFC 6749 shape, PKCE, code replay, the id_token and refresh grants.
// Each sends what its check needs and returns what it saw as a scenario, which judge/identity-token-scenarios.ts
// judges.
import { randomBytes } from "node:crypto";
import {
  createLocalJWKSet,
  decodeJwt,
  type JSONWebKeySet,
  type JWTPayload,
  jwtVerify,
  type JWTVerifyOptions,
} from "jose";
import type { RefreshRun, TokenErrorCase } from "../model/identity-facts.js";
import { issuedTokens, jsonObject } from "./json.js";
import { type CodeGrant, type TokenResponse } from "../model/identity-facts.js";
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
import { sleep } from "../send/transport.js";
import {
  addToTrail,
  authorize,
  base64url,
  codeFields,
  exchangeCode,
  type Flow,
  type IdentityParts,
  readUserinfo,
  tokensFor,
  traced,
  trailOf,
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

/** token_errors before any sign-in: an unknown code, an unsupported grant_type. */
export async function tokenErrors(parts: IdentityParts): Promise<TokenErrorsScenario> {
  const flow = traced(parts);
  const requests: TokenErrorsScenario["requests"] = [];
  for (const [what, fields] of tokenErrorRequests(parts))
    requests.push({ what, exchange: await exchangeCode(flow, fields, `token request with ${what}`) });
  return { family: "identity", name: "token errors", ...trailOf(flow), requests };
}

/**
 * token_errors on a wrong client_secret: a fresh, valid code with its verifier and the wrong secret, so that the secret
 * is the request's only fault (RFC 6749 §5.2 does not order the checks: a provider may look the code up first).
 */
export async function wrongClientSecret(parent: Flow): Promise<WrongClientSecretScenario> {
  const flow = traced(parent);
  const grant = await authorize(flow, {
    scope: "openid",
    purpose: "authorize for a token request with a wrong secret",
  });
  const scenario: WrongClientSecretScenario = {
    family: "identity",
    name: "wrong client secret",
    ...trailOf(flow),
    grant,
  };
  if (grant.kind !== "code") return scenario;
  const fields = codeFields(flow.context, grant, { client_secret: "conformance-wrong-secret" });
  return { ...scenario, exchange: await exchangeCode(flow, fields, "token request with a wrong client_secret") };
}

/**
 * client_authentication_required: a confidential client's fresh code with its code_verifier but no client_secret
 * must be refused; PKCE binds the code to the client instance, it does not authenticate the client (RFC 6749 §3.2.1,
 * §4.1.3).
 */
export async function clientAuthentication(parent: Flow): Promise<ClientAuthenticationScenario> {
  const flow = traced(parent);
  const grant = await authorize(flow, { scope: "openid", purpose: "authorize for a token request without the secret" });
  const scenario: ClientAuthenticationScenario = {
    family: "identity",
    name: "client authentication",
    ...trailOf(flow),
    grant,
  };
  if (grant.kind !== "code") return scenario;
  const label = "exchange a code with its code_verifier and no client_secret";
  return {
    ...scenario,
    exchange: await exchangeCode(flow, codeFields(flow.context, grant, { client_secret: undefined }), label),
  };
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

/** The id_token of a fresh code, verified with the JWKS the discovery names (the sender's urlOf). */
export async function idToken(
  parent: Flow,
  tokens: TokenResponse,
  grant: CodeGrant,
  exchange: Exchange,
): Promise<IdTokenScenario> {
  const flow = traced(parent);
  const { credentials, baseUrl } = flow.context.options;
  const scenario = (found: Partial<Pick<IdTokenScenario, "verified" | "unverified">> = {}): IdTokenScenario => ({
    family: "identity",
    name: "id token",
    ...trailOf(flow),
    exchange,
    tokens,
    nonce: grant.nonce,
    requested: grant.scope,
    ...found,
  });
  if (typeof tokens.id_token !== "string") return scenario();
  const label = "JWKS to verify the id_token";
  const url = flow.send.urlOf("getJwks");
  const jwksResponse = await flow.send.sendAsIs(
    { method: "GET", url, headers: {} },
    { model: flow.context.model("getJwks"), label },
  );
  addToTrail(flow, "jwks", "getJwks", label, jwksResponse);
  const jwks = jsonObject(jwksResponse.response?.json);
  if (!Array.isArray(jwks?.keys)) return scenario();
  try {
    const verified = await verifyIdToken(tokens.id_token, jwks as unknown as JSONWebKeySet, {
      issuer: baseUrl,
      audience: credentials.clientId ?? "",
      clockTolerance: 60,
    });
    return scenario({ verified });
  } catch (error) {
    return scenario({ unverified: error as Error });
  }
}

/** The id_token of a fresh code, decoded for its at_hash (OpenID Connect Core §3.1.3.6): nothing is sent. */
export function atHash(tokens: TokenResponse, exchange: Exchange): AtHashScenario {
  const claims = typeof tokens.id_token === "string" ? decodeJwt(tokens.id_token) : undefined;
  return { family: "identity", name: "at hash", exchanges: [], authorizations: [], exchange, tokens, claims };
}

/**
 * Replays the first code; a provider must refuse it and should revoke the tokens issued for it, which userinfo with
 * the first code's token shows (not worth asking when the replay brought tokens: code_reuse fails then).
 */
export async function codeReuse(
  parent: Flow,
  first: CodeGrant,
  tokens: TokenResponse,
  revocationAsked: boolean,
): Promise<CodeReuseScenario> {
  const flow = traced(parent);
  const again = await exchangeCode(flow, codeFields(flow.context, first), "exchange the same code again", "replay");
  const after =
    revocationAsked && !issuedTokens(again)
      ? await readUserinfo(flow, tokens.access_token, "userinfo with the first code's token after the replay")
      : undefined;
  return { family: "identity", name: "code reuse", ...trailOf(flow), again, revocationAsked, after };
}

/** How long oidcc-codereuse-30seconds waits between a code's exchange and its replay. */
export const CODE_REUSE_WAIT_MS = 30_000;

/**
 * oidcc-codereuse-30seconds, in two halves so that the wait costs the run only what its other flows do not fill: a
 * code of its own is exchanged now, when the clock starts, and the function returned replays it once 30 seconds have
 * passed since that exchange (the run calls it at its end, and it sleeps only what is left).
 */
export async function codeForLaterReuse(parent: Flow): Promise<() => Promise<CodeReuseLaterScenario>> {
  const flow = traced(parent);
  const grant = await authorize(flow, { scope: "openid", purpose: "authorize for a code replayed 30 seconds later" });
  const first = grant.kind === "code" ? await tokensFor(flow, grant, "exchange a code to replay later") : undefined;
  const exchangedAt = Date.now();
  const scenario = { family: "identity", name: "code reuse after 30 seconds", grant, first } as const;
  return async () => {
    if (grant.kind !== "code" || !first?.tokens || flow.send.aborted) return { ...scenario, ...trailOf(flow) };
    await sleep(Math.max(0, CODE_REUSE_WAIT_MS - (Date.now() - exchangedAt)), flow.context.options.signal);
    const afterMs = Date.now() - exchangedAt;
    const label = "exchange the same code again 30 seconds later";
    const again = await exchangeCode(flow, codeFields(flow.context, grant), label, "replay");
    return { ...scenario, ...trailOf(flow), again, afterMs };
  };
}

export async function pkceEnforcement(parent: Flow): Promise<PkceEnforcementScenario> {
  const flow = traced(parent);
  const attempts: PkceEnforcementScenario["attempts"] = [];
  for (const [what, verifier] of [
    ["without the code_verifier", undefined],
    ["with a wrong code_verifier", base64url(randomBytes(32))],
  ] as const) {
    const grant = await authorize(flow, { scope: "openid", purpose: "authorize with PKCE" });
    if (grant.kind !== "code") {
      attempts.push({ what, grant });
      break;
    }
    const fields = codeFields(flow.context, grant, { code_verifier: verifier });
    attempts.push({ what, grant, exchange: await exchangeCode(flow, fields, `exchange a PKCE code ${what}`) });
  }
  return { family: "identity", name: "pkce enforcement", ...trailOf(flow), attempts };
}

/**
 * oidcc-refresh-token: offline_access asked for as OpenID Connect Core §11 requires (with prompt=consent), then a
 * refresh grant (RFC 6749 §6) whose access token reads userinfo. A provider that does not grant offline_access
 * (Core §11 lets it) issues no refresh token: the check skips then, as the OpenID Foundation's module does. With a
 * second client, that client presents the refresh token last (refresh_token_client_bound: RFC 6749 §6, §10.4).
 */
export async function refreshTokens(parent: Flow): Promise<RefreshScenario> {
  const flow = traced(parent);
  const { credentials } = flow.context.options;
  const secondClient = Boolean(credentials.secondClientId && credentials.secondClientSecret);
  const attempt = await authorize(flow, {
    scope: "openid offline_access",
    extra: { prompt: "consent" },
    purpose: "authorize with offline_access and prompt=consent",
  });
  const run: RefreshRun = { attempt };
  if (attempt.kind === "code") run.exchanged = await tokensFor(flow, attempt, "exchange a code with offline_access");
  const refreshToken = run.exchanged?.tokens?.refresh_token;
  /** A refresh grant (RFC 6749 §6) as a client. */
  const refreshGrant = (token: string, clientId?: string, clientSecret?: string) => ({
    grant_type: "refresh_token",
    refresh_token: token,
    client_id: clientId,
    client_secret: clientSecret,
  });
  if (typeof refreshToken === "string") {
    const fields = refreshGrant(refreshToken, credentials.clientId, credentials.clientSecret);
    run.refreshed = await exchangeCode(flow, fields, "refresh grant", "refresh");
    const refreshed = jsonObject(run.refreshed.response?.json);
    if (run.refreshed.response?.status === 200 && typeof refreshed?.access_token === "string")
      run.read = await readUserinfo(flow, refreshed.access_token, "userinfo with a refreshed access token");
    // After the client's own refresh grant, so that a provider that revokes a token another client presented does
    // not fail refresh_token_offline_access; with the refresh token the client holds now (it may have been rotated).
    if (secondClient && flow.context.options.checks.has("refresh_token_client_bound")) {
      const latest = typeof refreshed?.refresh_token === "string" ? refreshed.refresh_token : refreshToken;
      const other = refreshGrant(latest, credentials.secondClientId, credentials.secondClientSecret);
      run.byOtherClient = await exchangeCode(flow, other, "refresh grant by the second client", "refresh");
    }
  }
  const scopesSupported = flow.send.discovered("scopes_supported");
  return { family: "identity", name: "refresh tokens", ...trailOf(flow), run, scopesSupported, secondClient };
}
