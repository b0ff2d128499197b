// The fault provider's back-channel endpoints: the discovery document, the JWKS, the token endpoint and userinfo
// (identity.ts holds the provider's state and the endpoints a browser goes through: authorize, sign-in, consent,
// logout). Each rule is spelled out where a fault switches it off.
import { createHash, randomBytes } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { type JWK, SignJWT } from "jose";
import { identityOperationPath } from "../identity/paths.js";
import type { Reply } from "./http.js";
import type { IdentityFault, PendingAuthorization } from "./identity.js";
import { readText } from "./identity-pages.js";
import { otherPublicKey } from "./identity-keys.js";

export const SCOPES = ["openid", "profile", "email", "wallets", "offline_access", "quests"];
const USER = {
  sub: "5b8f2c4e-1a7d-4e3b-9c6f-0d2a8e7b4f91",
  profile: {
    name: "Alice Novak",
    preferred_username: "alice",
    picture: "https://t.me/i/userpic/320/alice_novak.jpg",
    tg_id: 482915637,
    tg_username: "alice_novak",
  },
  email: { email: "alice.novak@example.org", email_verified: true },
  wallets: { wallets: [{ chain: "ton", address: "UQBvW8Z5huBkMJYdnfAEM5JqTNkuWX3diqYENkWsIL0XggGG" }] },
};
/** The claims the provider can supply, as its discovery document lists them (claims_supported). */
const CLAIMS_SUPPORTED = ["sub", ...Object.keys({ ...USER.profile, ...USER.email, ...USER.wallets })];
/**
 * What the user record holds beyond the seed's claims: a phone number, and what must never leave the provider. The
 * recovery codes are many, so that a token response carrying them is longer than a report quotes (4000 characters).
 */
const USER_RECORD = {
  phone_number: "+420 601 555 014",
  password_salt: "salt-7c1e9a4f0b2d",
  password_hash: "pbkdf2-sha256$310000$Zq8vR2mXk4TnW9pL",
  totp_secret: "JBSWY3DPEHPK3PXPTOTPSECRET",
  recovery_codes: Array.from({ length: 150 }, (_, i) => `rc-${String(4419 + i * 7).padStart(4, "0")}-8832-${1107 + i}`),
};
/**
 * The faults of the claims beyond the granted scope (issue 62): the id_token carries the user's claims of every scope
 * whatever was granted; userinfo carries the user's internal security fields, nested; the id_token carries the whole
 * user record, those fields included; userinfo leaves out iss (response_schema_conformance's alone to report). And a
 * choice the run must pass: the token response grants `openid profile email` for any request with openid, says so in
 * its scope (RFC 6749 §3.3, §5.1), and releases those claims.
 */
export const CLAIM_FAULTS = [
  "id-token-ignores-scope",
  "userinfo-secret-claims",
  "id-token-user-record",
  "userinfo-without-iss",
  "grants-more-scope",
] as const;

/** The secrets of the user record a fault gives away, which no report may show (none for the other faults). */
export const userRecordSecretsOf = (fault: IdentityFault | undefined): string[] =>
  fault === "userinfo-secret-claims" || fault === "id-token-user-record" ? USER_RECORD_SECRETS : [];
/** The values no report may show (USER_RECORD's secrets). */
export const USER_RECORD_SECRETS = [
  USER_RECORD.password_salt,
  USER_RECORD.password_hash,
  USER_RECORD.totp_secret,
  ...USER_RECORD.recovery_codes,
];
const NO_STORE = { "Cache-Control": "no-store", Pragma: "no-cache" };

export interface IssuedCode extends PendingAuthorization {
  expiresAt: number;
  used: boolean;
  /** When the code was first exchanged (Date.now()). */
  usedAt?: number;
  authTime: number;
  /** The access tokens issued for this code, revoked when the code is replayed (RFC 6749 §4.1.2). */
  accessTokens: string[];
}

/** What a grant (a code or a refresh token) lets the token endpoint issue. */
interface Grant {
  scope: string[];
  nonce?: string;
  authTime: number;
  issued?: IssuedCode;
}

/** The client registered with the provider. */
export interface Client {
  id: string;
  secret: string;
  redirectUris: string[];
  postLogoutRedirectUris: string[];
}

/** What the endpoints read and change of the provider's state. */
export interface ProviderState {
  readonly fault: IdentityFault | undefined;
  readonly issuer: string;
  readonly client: Client;
  /** Another registered client (refresh_token_client_bound): client_secret_post too, no redirects of its own. */
  readonly secondClient: { id: string; secret: string };
  readonly codes: Map<string, IssuedCode>;
  readonly accessTokens: Map<string, { scope: string[] }>;
  /** Each refresh token with the client it was issued to (RFC 6749 §6: bound to it). */
  readonly refreshTokens: Map<string, { scope: string[]; clientId: string }>;
  readonly secretsSeen: Set<string>;
  readonly privateKey: CryptoKey;
  readonly publicJwk: JWK & { kid: string };
}

const tokenError = (status: number, error: string, description: string): Reply => ({
  status,
  body: { error, error_description: description },
  headers: NO_STORE,
});
export const now = () => Math.floor(Date.now() / 1000);

/** The user's claims a token of `scope` releases (all of them when the userinfo-ignores-scope fault ignores it). */
function claimsFor(fault: IdentityFault | undefined, scope: string[], ignoreScope = false): Record<string, unknown> {
  return {
    sub: USER.sub,
    ...(ignoreScope || scope.includes("profile") ? USER.profile : {}),
    ...(ignoreScope || (scope.includes("email") && fault !== "userinfo-omits-granted-claims") ? USER.email : {}),
    ...(ignoreScope || scope.includes("wallets") ? USER.wallets : {}),
  };
}

export function discovery(provider: ProviderState): Reply {
  const { fault, issuer } = provider;
  const at = (operationId: Parameters<typeof identityOperationPath>[0]) =>
    `${issuer}${identityOperationPath(operationId)}`;
  return {
    status: fault === "discovery-status-203" ? 203 : 200,
    body: {
      issuer: fault === "wrong-issuer" ? "https://id.example.com" : issuer,
      authorization_endpoint: at("authorize"),
      token_endpoint: at("exchangeToken"),
      userinfo_endpoint: at("getUserInfo"),
      jwks_uri: at("getJwks"),
      end_session_endpoint: at("logout"),
      ...(fault === "scopes-supported-absent"
        ? {}
        : {
            scopes_supported:
              fault === "openid-not-in-scopes-supported" ? SCOPES.filter((s) => s !== "openid") : SCOPES,
          }),
      response_types_supported: ["code"],
      response_modes_supported: ["query"],
      grant_types_supported:
        fault === "grant-types-without-authorization-code" ? ["implicit"] : ["authorization_code", "refresh_token"],
      // The seed's claims (USER's), and without the e-mail ones under the fault that lists too few (a warning only).
      claims_supported: CLAIMS_SUPPORTED.filter(
        (claim) => fault !== "claims-supported-incomplete" || !claim.startsWith("email"),
      ),
      // A member the run never follows, so the plain http URL is the one fault (a TLS-terminating proxy's mistake).
      ...(fault === "endpoint-not-https" ? { introspection_endpoint: "http://identity.example.org/introspect" } : {}),
      subject_types_supported: ["public"],
      id_token_signing_alg_values_supported: ["RS256"],
      token_endpoint_auth_methods_supported: ["client_secret_post"],
      code_challenge_methods_supported: provider.fault === "code-challenge-methods-without-s256" ? ["plain"] : ["S256"],
      // It takes the claims parameter (OpenID Connect Core §5.5), so claims_essential runs; it returns no more claims.
      claims_parameter_supported: true,
      // RFC 9207 advertised, though its authorization responses carry no iss.
      ...(fault === "iss-advertised-not-sent" ? { authorization_response_iss_parameter_supported: true } : {}),
    },
  };
}

export async function jwks(provider: ProviderState): Promise<Reply> {
  const withoutModulus: JWK = { ...provider.publicJwk };
  delete withoutModulus.n;
  const keys: JWK[] = [provider.fault === "jwks-rsa-key-without-modulus" ? withoutModulus : provider.publicJwk];
  if (provider.fault === "duplicate-kids")
    keys.push({
      ...(await otherPublicKey()),
      kid: provider.publicJwk.kid,
      use: "sig",
      alg: "RS256",
    });
  return { status: 200, body: { keys } };
}

/** The grant an authorization code stands for, or the refusal (RFC 6749 §4.1.3, RFC 7636 §4.6). */
function codeGrant(provider: ProviderState, form: URLSearchParams, clientId: string): Grant | Reply {
  const { fault } = provider;
  const refuse = (description: string) =>
    fault === "code-refused-403"
      ? tokenError(403, "access_denied", description)
      : tokenError(400, "invalid_grant", description);
  const code = provider.codes.get(form.get("code") ?? "");
  if (!code || code.expiresAt < Date.now())
    return tokenError(400, "invalid_grant", "The authorization code is unknown or expired.");
  if (code.clientId !== clientId) return tokenError(400, "invalid_grant", "The code was issued to another client.");
  // A replay cache that forgets a used code after 10 seconds, long before the code expires: the hole
  // oidcc-codereuse-30seconds looks for.
  const forgotten = fault === "code-reuse-forgotten" && Date.now() - (code.usedAt ?? Date.now()) > 10_000;
  if (code.used && fault !== "code-reusable" && !forgotten) {
    if (fault !== "code-reuse-keeps-tokens") for (const token of code.accessTokens) provider.accessTokens.delete(token);
    return refuse("The authorization code has already been used.");
  }
  code.used = true;
  code.usedAt ??= Date.now();
  if (fault !== "redirect-uri-not-checked" && form.get("redirect_uri") !== code.redirectUri)
    return refuse("The redirect_uri does not match the one used in the authorization request.");
  if (code.challenge && fault !== "pkce-not-enforced") {
    const verifier = form.get("code_verifier") ?? "";
    const expected = code.method === "S256" ? createHash("sha256").update(verifier).digest("base64url") : verifier;
    if (!verifier || expected !== code.challenge) return refuse("The code_verifier does not match the code_challenge.");
  }
  const scope = fault === "grants-more-scope" ? [...new Set([...code.scope, "profile", "email"])] : code.scope;
  return { scope, nonce: code.nonce, authTime: code.authTime, issued: code };
}

/** The id_token's claims of the user: by the granted scope, or beyond it where a fault says so. */
function idTokenUserClaims(fault: IdentityFault | undefined, scope: string[]): Record<string, unknown> {
  if (fault === "id-token-user-record") return { ...claimsFor(fault, scope, true), ...USER_RECORD };
  if (fault === "id-token-ignores-scope")
    return { ...claimsFor(fault, scope, true), phone_number: USER_RECORD.phone_number };
  return claimsFor(fault, scope);
}

function grantOf(provider: ProviderState, form: URLSearchParams, clientId: string): Grant | Reply {
  const grantType = form.get("grant_type");
  if (grantType === "authorization_code") return codeGrant(provider, form, clientId);
  if (grantType === "refresh_token") {
    const refresh = provider.refreshTokens.get(form.get("refresh_token") ?? "");
    if (!refresh) return tokenError(400, "invalid_grant", "The refresh token is invalid.");
    if (refresh.clientId !== clientId && provider.fault !== "refresh-token-any-client")
      return tokenError(400, "invalid_grant", "The refresh token was issued to another client.");
    return { scope: refresh.scope, authTime: now() };
  }
  if (!grantType) return tokenError(400, "invalid_request", "The grant_type parameter is missing.");
  if (grantType === "password" && provider.fault === "password-grant-enabled")
    return tokenError(400, "invalid_grant", "The resource owner credentials are invalid.");
  return tokenError(400, "unsupported_grant_type", "Only authorization_code and refresh_token are supported.");
}

async function signIdToken(provider: ProviderState, grant: Grant, accessToken: string): Promise<string> {
  const { client, fault } = provider;
  const digest = createHash("sha256")
    .update(fault === "wrong-at-hash" ? `${accessToken}x` : accessToken)
    .digest();
  return new SignJWT({
    ...idTokenUserClaims(fault, grant.scope),
    ...(grant.nonce ? { nonce: grant.nonce } : {}),
    auth_time: grant.authTime,
    azp: client.id,
    at_hash: digest.subarray(0, 16).toString("base64url"),
  })
    .setProtectedHeader({ alg: "RS256", kid: provider.publicJwk.kid, typ: "JWT" })
    .setIssuer(provider.issuer)
    .setAudience(
      fault === "id-token-wrong-audience"
        ? "another-app"
        : fault === "id-token-audience-array-without-client"
          ? ["another-app"]
          : client.id,
    )
    .setIssuedAt(now())
    .setExpirationTime(now() + 3600)
    .sign(provider.privateKey);
}

/** The client that authenticated (client_secret_post), or the one the fault lets PKCE stand in for; else undefined. */
function authenticatedClient(provider: ProviderState, form: URLSearchParams): string | undefined {
  const id = form.get("client_id");
  const { client, secondClient } = provider;
  if (id === secondClient.id) return form.get("client_secret") === secondClient.secret ? id : undefined;
  if (id !== client.id) return undefined;
  if (provider.fault === "pkce-without-client-secret" && !form.has("client_secret") && form.get("code_verifier"))
    return id;
  return form.get("client_secret") === client.secret ? id : undefined;
}

export async function token(provider: ProviderState, form: URLSearchParams): Promise<Reply> {
  // The code looked up before the client is authenticated: RFC 6749 §5.2 does not order the checks.
  if (
    provider.fault === "code-looked-up-first" &&
    form.get("grant_type") === "authorization_code" &&
    !provider.codes.has(form.get("code") ?? "")
  )
    return tokenError(400, "invalid_grant", "The authorization code is unknown or expired.");
  const clientId = authenticatedClient(provider, form);
  if (!clientId) {
    return provider.fault === "wrong-secret-invalid-grant"
      ? tokenError(400, "invalid_grant", "The grant is invalid.")
      : tokenError(401, "invalid_client", "Client authentication failed.");
  }
  const grant = grantOf(provider, form, clientId);
  if ("status" in grant) return grant;
  const accessToken = `at_${randomBytes(18).toString("base64url")}`;
  provider.accessTokens.set(accessToken, { scope: grant.scope });
  grant.issued?.accessTokens.push(accessToken);
  const idToken = await signIdToken(provider, grant, accessToken);
  const body: Record<string, unknown> = {
    access_token: accessToken,
    token_type: "Bearer",
    ...(provider.fault === "token-without-expires-in" ? {} : { expires_in: 3600 }),
    id_token: idToken,
    scope: grant.scope.join(" "),
  };
  if (grant.scope.includes("offline_access") && provider.fault !== "offline-access-without-refresh-token") {
    const refreshToken = `rt_${randomBytes(18).toString("base64url")}`;
    provider.refreshTokens.set(refreshToken, { scope: grant.scope, clientId });
    body.refresh_token = refreshToken;
  }
  for (const value of [accessToken, idToken, body.refresh_token])
    if (typeof value === "string") provider.secretsSeen.add(value);
  return { status: 200, body, headers: NO_STORE };
}

/** Userinfo by GET or POST, the token in the Authorization header (RFC 6750 §2.1) or the form body (§2.2). */
export async function userinfo(provider: ProviderState, request: IncomingMessage): Promise<Reply> {
  if (request.method === "POST" && provider.fault === "userinfo-post-refused")
    return { status: 405, headers: { Allow: "GET" } };
  let token = request.headers.authorization?.replace(/^Bearer /, "");
  if (
    request.method === "POST" &&
    !token &&
    provider.fault !== "userinfo-post-body-ignored" &&
    (request.headers["content-type"] ?? "").startsWith("application/x-www-form-urlencoded")
  ) {
    token = new URLSearchParams(await readText(request)).get("access_token") ?? undefined;
  }
  if (!token) return { status: 401, headers: { "WWW-Authenticate": "Bearer" } };
  const grant = provider.accessTokens.get(token);
  if (!grant)
    return {
      status: 401,
      headers: {
        "WWW-Authenticate": 'Bearer error="invalid_token", error_description="The access token is unknown or expired"',
      },
    };
  return {
    status: 200,
    body: {
      ...(provider.fault === "userinfo-without-iss" ? {} : { iss: provider.issuer }),
      aud: provider.client.id,
      ...claimsFor(provider.fault, grant.scope, provider.fault === "userinfo-ignores-scope"),
      ...(provider.fault === "userinfo-secret-claims"
        ? { security: { totpSecret: USER_RECORD.totp_secret, recoveryCodes: USER_RECORD.recovery_codes } }
        : {}),
    },
  };
}
