// Token endpoint checks: refusals in the RFC 6749 shape, PKCE, code replay, the id_token and refresh grants.
import { createHash, randomBytes } from "node:crypto";
import {
  createLocalJWKSet,
  decodeJwt,
  type JSONWebKeySet,
  type JWTPayload,
  jwtVerify,
  type JWTVerifyOptions,
} from "jose";
import { describeErrors, loadContract } from "../../lib/contract/index.js";
import { assumptionBroken } from "../judge/assumptions.js";
import type { Session } from "../send/session.js";
import type { Exchange } from "../send/transport.js";
import {
  authorize,
  base64url,
  type CodeGrant,
  codeFields,
  describe,
  describeAuthorization,
  endpointOf,
  exchangeCode,
  type Flow,
  jsonObject,
  refused,
  refusedWith,
  shown,
  type TokenResponse,
  tokensFor,
} from "./flow.js";
import { readUserinfo } from "./userinfo.js";
import { verdictOf } from "../judge/verdict.js";

type TokenErrorCase = [string, Record<string, string | undefined>, (e: Exchange) => boolean, string];

function tokenErrorCases(session: Session): TokenErrorCase[] {
  const { credentials } = session.options;
  const unknownCode = () => `unknown-${base64url(randomBytes(9))}`;
  return [
    [
      "an unknown code",
      {
        grant_type: "authorization_code",
        code: unknownCode(),
        redirect_uri: credentials.redirectUri,
        client_id: credentials.clientId,
        client_secret: credentials.clientSecret,
      },
      (e) => refusedWith(e, "invalid_grant"),
      "400 invalid_grant (RFC 6749 §5.2)",
    ],
    [
      "a wrong client_secret",
      {
        grant_type: "authorization_code",
        code: unknownCode(),
        redirect_uri: credentials.redirectUri,
        client_id: credentials.clientId,
        client_secret: "conformance-wrong-secret",
      },
      (e) => refusedWith(e, "invalid_client"),
      "400 or 401 invalid_client (RFC 6749 §5.2)",
    ],
    [
      "an unsupported grant_type",
      {
        grant_type: "password",
        username: "conformance",
        password: "conformance",
        client_id: credentials.clientId,
        client_secret: credentials.clientSecret,
      },
      (e) => refusedWith(e, "unsupported_grant_type") || refusedWith(e, "unauthorized_client"),
      "400 unsupported_grant_type (RFC 6749 §5.2)",
    ],
  ];
}

export async function tokenErrors(session: Session): Promise<void> {
  const problems: string[] = [];
  let last: Exchange | undefined;
  for (const [what, fields, ok, expected] of tokenErrorCases(session)) {
    const exchange = await exchangeCode(session, fields, `token request with ${what}`);
    if (!ok(exchange)) {
      problems.push(`${what} got ${describe(exchange)}, expected ${expected}`);
      last = exchange;
    } else last ??= exchange;
  }
  session.ledger.add(
    verdictOf("token_errors", "exchangeToken", problems.join("; "), last, "token requests that must fail"),
  );
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

function claimProblems(payload: JWTPayload, grant: CodeGrant): string[] {
  const problems: string[] = [];
  if (payload.nonce !== grant.nonce)
    problems.push(`nonce is ${shown(payload.nonce)}, not the one sent (OpenID Connect Core §2, §3.1.3.7)`);
  if (typeof payload.iat !== "number" || payload.iat > Date.now() / 1000 + 60)
    problems.push("iat is missing or in the future (OpenID Connect Core §2)");
  if (typeof payload.exp !== "number") problems.push("exp is missing (OpenID Connect Core §2)");
  const schema = loadContract("identity").validate("/components/schemas/IdTokenClaims", payload);
  if (!schema.valid)
    problems.push(`the claims do not match IdTokenClaims: ${describeErrors(schema.errors)} (the seed's claim table)`);
  return problems;
}

/** Checks the id_token of a fresh code; its sub, for comparing with userinfo's. */
export async function checkIdToken(
  flow: Flow,
  tokens: TokenResponse,
  grant: CodeGrant,
  exchange: Exchange,
): Promise<unknown> {
  const { session, document } = flow;
  const { credentials, baseUrl } = session.options;
  const record = (problem: string) =>
    session.ledger.add(
      verdictOf("id_token_signature_and_claims", "exchangeToken", problem, exchange, "the id_token of a fresh code"),
    );
  if (typeof tokens.id_token !== "string")
    return record("the token response for scope openid carries no id_token (OpenID Connect Core §3.1.3.3)");
  const jwksResponse = await session.transport.send({
    method: "GET",
    url: endpointOf(session, document, "jwks_uri", "getJwks"),
    headers: {},
  });
  const jwks = jsonObject(jwksResponse.response?.json);
  if (!Array.isArray(jwks?.keys))
    return record("the JWKS could not be read to verify the id_token (OpenID Connect Core §3.1.3.7, RFC 7517 §5)");
  try {
    const payload = await verifyIdToken(tokens.id_token, jwks as unknown as JSONWebKeySet, {
      issuer: baseUrl,
      audience: credentials.clientId ?? "",
      clockTolerance: 60,
    });
    record(claimProblems(payload, grant).join("; "));
    return payload.sub;
  } catch (error) {
    record(`the id_token does not verify: ${(error as Error).message} (OpenID Connect Core §3.1.3.7)`);
    return undefined;
  }
}

/** at_hash (OpenID Connect Core §3.1.3.6): the left half of the hash of the access token, for RS256 SHA-256. */
export function checkAtHash(session: Session, tokens: TokenResponse, exchange: Exchange): void {
  if (typeof tokens.id_token !== "string") return;
  const claims = decodeJwt(tokens.id_token);
  if (claims.at_hash === undefined)
    return session.ledger.add(
      verdictOf(
        "id_token_at_hash",
        "exchangeToken",
        "",
        exchange,
        "the id_token's at_hash (absent, which code flow allows)",
      ),
    );
  const digest = createHash("sha256").update(tokens.access_token).digest();
  const expected = base64url(digest.subarray(0, digest.length / 2));
  session.ledger.add(
    verdictOf(
      "id_token_at_hash",
      "exchangeToken",
      claims.at_hash === expected
        ? ""
        : `at_hash is ${shown(claims.at_hash)}, the access token's is ${expected} (OpenID Connect Core §3.1.3.6)`,
      exchange,
      "the id_token's at_hash",
    ),
  );
}

/** Replays the first code; a provider must refuse it and should revoke the tokens issued for it. */
export async function codeReuse(
  flow: Flow,
  first: CodeGrant,
  tokens: TokenResponse,
  run: (check: string) => boolean,
): Promise<void> {
  const { session } = flow;
  const again = await exchangeCode(session, codeFields(session, first), "exchange the same code again");
  session.ledger.add(
    verdictOf(
      "code_reuse",
      "exchangeToken",
      refused(again) ? "" : `the code was accepted a second time (${describe(again)}; RFC 6749 §4.1.2, §10.5)`,
      again,
      "exchange the same code again",
    ),
  );
  if (!run("code_reuse_revokes_tokens")) return;
  // Revoking the tokens is what a provider does once it detects the replay; accepting the replay is code_reuse's.
  if (!refused(again)) {
    session.skippedChecks.set("code_reuse_revokes_tokens", "the replayed code was accepted, see code_reuse");
    return;
  }
  const after = await readUserinfo(flow, tokens.access_token);
  // RFC 6749 §4.1.2 says SHOULD: a provider that keeps the tokens is allowed, so this is a warning, not a failure
  // (a failure under --strict), as the OpenID Foundation's code-reuse module reports it.
  const label = "userinfo with the first code's token after the replay";
  const problem =
    after.response?.status === 200
      ? "the access token issued for the code still reads userinfo after the code was replayed"
      : "";
  session.ledger.add(
    verdictOf(
      "code_reuse_revokes_tokens",
      "getUserInfo",
      problem
        ? assumptionBroken(
            session.judge.assumption("code_reuse_revokes_tokens", "getUserInfo", label),
            problem,
            REVOKE_IS_A_SHOULD,
          )
        : "",
      after,
      label,
    ),
  );
}

/** Why keeping the tokens of a replayed code warns: the standard recommends revoking them, it does not require it. */
const REVOKE_IS_A_SHOULD =
  "RFC 6749 §4.1.2 says the provider SHOULD (not MUST) revoke the tokens issued for a code that is used twice.";

export async function pkceEnforcement(flow: Flow): Promise<void> {
  const { session } = flow;
  const problems: string[] = [];
  let last: Exchange | undefined;
  for (const [what, verifier] of [
    ["without the code_verifier", undefined],
    ["with a wrong code_verifier", base64url(randomBytes(32))],
  ] as const) {
    const grant = await authorize(flow, { scope: "openid", purpose: "authorize with PKCE" });
    if (grant.kind !== "code") {
      session.ledger.decide({
        about: "check",
        name: "pkce_enforcement",
        decision: "cannot run",
        reason: `could not get a code again: ${describeAuthorization(grant)}`,
      });
      return;
    }
    last = await exchangeCode(
      session,
      codeFields(session, grant, { code_verifier: verifier }),
      `exchange a PKCE code ${what}`,
    );
    if (!refused(last))
      problems.push(`a code issued for a S256 challenge was exchanged ${what} (${describe(last)}; RFC 7636 §4.6)`);
  }
  session.ledger.add(
    verdictOf("pkce_enforcement", "exchangeToken", problems.join("; "), last, "PKCE code exchanges that must fail"),
  );
}

/** Whether a token response grants offline_access: its scope says so, or it has none (RFC 6749 §5.1: as requested). */
const grantsOfflineAccess = (tokens: TokenResponse) =>
  typeof tokens.scope !== "string" || tokens.scope.split(" ").includes("offline_access");

/**
 * oidcc-refresh-token: offline_access asked for as OpenID Connect Core §11 requires (with prompt=consent), then a
 * refresh grant (RFC 6749 §6) whose access token reads userinfo. A provider that does not grant offline_access
 * (Core §11 lets it) issues no refresh token: the check skips then, as the OpenID Foundation's module does.
 */
export async function refreshTokens(flow: Flow): Promise<void> {
  const { session } = flow;
  const { credentials } = session.options;
  const record = (problem: string, exchange: Exchange, label: string) =>
    session.ledger.add(verdictOf("refresh_token_offline_access", "exchangeToken", problem, exchange, label));
  const attempt = await authorize(flow, {
    scope: "openid offline_access",
    extra: { prompt: "consent" },
    purpose: "authorize with offline_access and prompt=consent",
  });
  if (attempt.kind !== "code")
    return record(
      `an authorization request with offline_access and prompt=consent got ${describeAuthorization(attempt)} (OpenID Connect Core §11: the provider may ignore offline_access, not refuse the request)`,
      attempt.exchange,
      "authorize with offline_access",
    );
  const { exchange, tokens } = await tokensFor(session, attempt, "exchange a code with offline_access");
  if (!tokens)
    return record(
      `the code of a request with offline_access was refused: ${describe(exchange)} (RFC 6749 §4.1.3)`,
      exchange,
      "exchange a code with offline_access",
    );
  if (typeof tokens.refresh_token !== "string") {
    if (!grantsOfflineAccess(tokens)) {
      session.skippedChecks.set(
        "refresh_token_offline_access",
        `offline_access was not granted (the token response's scope is "${shown(tokens.scope)}", OpenID Connect Core §11 allows that), so no refresh token was issued to test, as oidcc-refresh-token skips`,
      );
      return;
    }
    return record(
      "offline_access was granted but no refresh token was issued (the seed: a refresh_token is included when offline_access was granted)",
      exchange,
      "exchange a code with offline_access",
    );
  }
  const refreshed = await exchangeCode(
    session,
    {
      grant_type: "refresh_token",
      refresh_token: tokens.refresh_token,
      client_id: credentials.clientId,
      client_secret: credentials.clientSecret,
    },
    "refresh grant",
  );
  const access = jsonObject(refreshed.response?.json)?.access_token;
  if (refreshed.response?.status !== 200 || typeof access !== "string")
    return record(`the refresh grant was refused: ${describe(refreshed)} (RFC 6749 §6)`, refreshed, "refresh grant");
  const read = await readUserinfo(flow, access);
  record(
    read.response?.status === 200
      ? ""
      : `the access token of the refresh grant does not read userinfo (status ${read.response?.status ?? read.error}; RFC 6749 §6, OpenID Connect Core §5.3)`,
    read,
    "userinfo with a refreshed access token",
  );
}
