// A deliberately small OpenID Connect provider at the contract's paths, for the conformance self-tests only. A
// certified implementation (oidc-provider, used by the sandbox) cannot be made to break one rule at a time (accept
// a reused code, skip PKCE), so this one spells each rule out where a fault can switch it off; the cryptography is
// jose's. Sign-in is a plain HTML form (login and password), as the runner meets it on a real provider.
import { createHash, randomBytes } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { exportJWK, generateKeyPair, SignJWT } from "jose";
import { FAULT_SERVER_CREDENTIALS } from "./credentials.js";
import { type IncomingCall, readCall, type Reply, type RunningServer, startServer } from "./http.js";

export const IDENTITY_FAULTS = [
  "discovery-status-203",
  "wrong-issuer",
  "jwks-rsa-key-without-modulus",
  "wrong-secret-invalid-grant",
  "pkce-not-enforced",
  "code-reusable",
  "redirect-uri-not-checked",
  "id-token-wrong-audience",
  "userinfo-ignores-scope",
] as const;
export type IdentityFault = (typeof IDENTITY_FAULTS)[number];

const SCOPES = ["openid", "profile", "email", "wallets", "offline_access", "quests"];
const USER = {
  sub: "5b8f2c4e-1a7d-4e3b-9c6f-0d2a8e7b4f91",
  profile: { name: "Alice Novak", preferred_username: "alice", picture: "https://t.me/i/userpic/320/alice_novak.jpg", tg_id: 482915637, tg_username: "alice_novak" },
  email: { email: "alice.novak@example.org", email_verified: true },
  wallets: { wallets: [{ chain: "ton", address: "UQBvW8Z5huBkMJYdnfAEM5JqTNkuWX3diqYENkWsIL0XggGG" }] },
};

interface PendingAuthorization {
  clientId: string;
  redirectUri: string;
  scope: string[];
  state?: string;
  nonce?: string;
  challenge?: string;
  method?: string;
}

interface IssuedCode extends PendingAuthorization {
  expiresAt: number;
  used: boolean;
  authTime: number;
}

const html = (status: number, title: string, body: string): Reply => ({ status, text: `<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body>${body}</body></html>\n`, headers: { "Content-Type": "text/html; charset=utf-8" } });
const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);


export async function startIdentityServer(options: { fault?: IdentityFault; port?: number; clientSecret?: string } = {}): Promise<RunningServer> {
  const fault = options.fault;
  const client = { id: FAULT_SERVER_CREDENTIALS.IDENTITY_CLIENT_ID, secret: options.clientSecret ?? FAULT_SERVER_CREDENTIALS.IDENTITY_CLIENT_SECRET, redirectUris: [FAULT_SERVER_CREDENTIALS.IDENTITY_REDIRECT_URI as string] };
  const signIn = new URLSearchParams(FAULT_SERVER_CREDENTIALS.IDENTITY_SIGN_IN);
  const { privateKey, publicKey } = await generateKeyPair("RS256");
  const publicJwk = { ...(await exportJWK(publicKey)), kid: "fault-server-rs256", use: "sig", alg: "RS256" };
  const pending = new Map<string, PendingAuthorization>();
  const codes = new Map<string, IssuedCode>();
  const accessTokens = new Map<string, { scope: string[] }>();
  const refreshTokens = new Map<string, { scope: string[] }>();
  let issuer = "";
  const secretsSeen = new Set([client.secret, signIn.get("password")!]);

  const claimsFor = (scope: string[], ignoreScope = false) => ({
    sub: USER.sub,
    ...(ignoreScope || scope.includes("profile") ? USER.profile : {}),
    ...(ignoreScope || scope.includes("email") ? USER.email : {}),
    ...(ignoreScope || scope.includes("wallets") ? USER.wallets : {}),
  });
  const tokenError = (status: number, error: string, description: string): Reply => ({ status, body: { error, error_description: description }, headers: { "Cache-Control": "no-store", Pragma: "no-cache" } });

  async function authorize(url: URL, call: IncomingCall): Promise<Reply> {
    const q = url.searchParams;
    const clientId = q.get("client_id");
    const redirectUri = q.get("redirect_uri");
    if (clientId !== client.id) return html(400, "Sign-in error", "<h1>Sign-in error</h1><p>Unknown application (client_id).</p>");
    if (!redirectUri || !client.redirectUris.includes(redirectUri)) return html(400, "Sign-in error", "<h1>Sign-in error</h1><p>The redirect_uri is not registered for this application.</p>");
    const back = (params: Record<string, string | undefined>): Reply => {
      const target = new URL(redirectUri);
      for (const [k, v] of Object.entries(params)) if (v) target.searchParams.set(k, v);
      return { status: 302, headers: { Location: target.href } };
    };
    const state = q.get("state") || undefined;
    if (q.get("response_type") !== "code") return back({ error: "unsupported_response_type", state });
    if (call.invalid) return back({ error: "invalid_request", error_description: call.invalid.replace(/[^\x20-\x21\x23-\x5B\x5D-\x7E]/g, " "), state });
    const scope = (q.get("scope") ?? "").split(" ").filter(Boolean);
    if (!scope.includes("openid") || scope.some((s) => !SCOPES.includes(s))) return back({ error: "invalid_scope", error_description: "Unsupported scope", state });
    // PKCE is optional in the contract; a code issued for a challenge is only exchanged with its verifier.
    const challenge = q.get("code_challenge") || undefined;
    const method = challenge ? q.get("code_challenge_method") || "plain" : undefined;
    const id = randomBytes(12).toString("hex");
    pending.set(id, { clientId, redirectUri, scope, state, nonce: q.get("nonce") || undefined, challenge, method });
    return html(200, "Sign in to demo-app", `<h1>Sign in to demo-app</h1><form method="post" action="/sign-in"><input type="hidden" name="request" value="${id}"><label>Login <input name="login"></label><label>Password <input type="password" name="password"></label><button type="submit">Continue with e-mail</button></form>`);
  }

  async function signInSubmit(form: URLSearchParams): Promise<Reply> {
    const request = pending.get(form.get("request") ?? "");
    if (!request) return html(400, "Sign-in error", "<h1>Sign-in error</h1><p>The sign-in request expired.</p>");
    if (form.get("login") !== signIn.get("login") || form.get("password") !== signIn.get("password")) return html(200, "Sign in", `<p>Wrong login or password.</p>`);
    pending.delete(form.get("request")!);
    const code = randomBytes(16).toString("hex");
    secretsSeen.add(code);
    codes.set(code, { ...request, expiresAt: Date.now() + 60_000, used: false, authTime: Math.floor(Date.now() / 1000) });
    const target = new URL(request.redirectUri);
    target.searchParams.set("code", code);
    if (request.state) target.searchParams.set("state", request.state);
    return { status: 302, headers: { Location: target.href } };
  }

  async function token(form: URLSearchParams): Promise<Reply> {
    if (form.get("client_id") !== client.id || form.get("client_secret") !== client.secret) {
      return fault === "wrong-secret-invalid-grant" ? tokenError(400, "invalid_grant", "The grant is invalid.") : tokenError(401, "invalid_client", "Client authentication failed.");
    }
    const grantType = form.get("grant_type");
    let scope: string[];
    let nonce: string | undefined;
    let authTime = Math.floor(Date.now() / 1000);
    if (grantType === "authorization_code") {
      const code = codes.get(form.get("code") ?? "");
      if (!code || code.expiresAt < Date.now()) return tokenError(400, "invalid_grant", "The authorization code is unknown or expired.");
      if (code.used && fault !== "code-reusable") return tokenError(400, "invalid_grant", "The authorization code has already been used.");
      code.used = true;
      if (fault !== "redirect-uri-not-checked" && form.get("redirect_uri") !== code.redirectUri) return tokenError(400, "invalid_grant", "The redirect_uri does not match the one used in the authorization request.");
      if (code.challenge && fault !== "pkce-not-enforced") {
        const verifier = form.get("code_verifier") ?? "";
        const expected = code.method === "S256" ? createHash("sha256").update(verifier).digest("base64url") : verifier;
        if (!verifier || expected !== code.challenge) return tokenError(400, "invalid_grant", "The code_verifier does not match the code_challenge.");
      }
      scope = code.scope;
      nonce = code.nonce;
      authTime = code.authTime;
    } else if (grantType === "refresh_token") {
      const refresh = refreshTokens.get(form.get("refresh_token") ?? "");
      if (!refresh) return tokenError(400, "invalid_grant", "The refresh token is invalid.");
      scope = refresh.scope;
    } else if (!grantType) return tokenError(400, "invalid_request", "The grant_type parameter is missing.");
    else return tokenError(400, "unsupported_grant_type", "Only authorization_code and refresh_token are supported.");

    const accessToken = `at_${randomBytes(18).toString("base64url")}`;
    accessTokens.set(accessToken, { scope });
    const now = Math.floor(Date.now() / 1000);
    const idToken = await new SignJWT({ ...claimsFor(scope), ...(nonce ? { nonce } : {}), auth_time: authTime, azp: client.id })
      .setProtectedHeader({ alg: "RS256", kid: publicJwk.kid, typ: "JWT" })
      .setIssuer(issuer)
      .setAudience(fault === "id-token-wrong-audience" ? "another-app" : client.id)
      .setIssuedAt(now)
      .setExpirationTime(now + 3600)
      .sign(privateKey);
    const body: Record<string, unknown> = { access_token: accessToken, token_type: "Bearer", expires_in: 3600, id_token: idToken, scope: scope.join(" ") };
    if (scope.includes("offline_access")) {
      const refreshToken = `rt_${randomBytes(18).toString("base64url")}`;
      refreshTokens.set(refreshToken, { scope });
      body.refresh_token = refreshToken;
    }
    for (const value of [accessToken, idToken, body.refresh_token]) if (typeof value === "string") secretsSeen.add(value);
    return { status: 200, body, headers: { "Cache-Control": "no-store", Pragma: "no-cache" } };
  }

  function userinfo(request: IncomingMessage): Reply {
    const authorization = request.headers.authorization;
    if (!authorization) return { status: 401, headers: { "WWW-Authenticate": "Bearer" } };
    const grant = accessTokens.get(authorization.replace(/^Bearer /, ""));
    if (!grant) return { status: 401, headers: { "WWW-Authenticate": 'Bearer error="invalid_token", error_description="The access token is unknown or expired"' } };
    return { status: 200, body: { iss: issuer, aud: client.id, ...claimsFor(grant.scope, fault === "userinfo-ignores-scope") } };
  }

  const running = await startServer(options.port ?? 0, async (request): Promise<Reply> => {
    const url = new URL(request.url ?? "/", issuer);
    const route = `${request.method} ${url.pathname}`;
    if (route === "POST /sign-in") {
      let text = "";
      for await (const chunk of request) text += chunk;
      return signInSubmit(new URLSearchParams(text));
    }
    const call = await readCall("identity", request);
    const form = new URLSearchParams(call?.rawBody ?? "");
    switch (route) {
      case "GET /.well-known/openid-configuration":
        return {
          status: fault === "discovery-status-203" ? 203 : 200,
          body: {
            issuer: fault === "wrong-issuer" ? "https://id.example.com" : issuer,
            authorization_endpoint: `${issuer}/login/oauth/authorize`,
            token_endpoint: `${issuer}/api/login/oauth/access_token`,
            userinfo_endpoint: `${issuer}/api/userinfo`,
            jwks_uri: `${issuer}/.well-known/jwks`,
            end_session_endpoint: `${issuer}/api/logout`,
            scopes_supported: SCOPES,
            response_types_supported: ["code"],
            response_modes_supported: ["query"],
            grant_types_supported: ["authorization_code", "refresh_token"],
            subject_types_supported: ["public"],
            id_token_signing_alg_values_supported: ["RS256"],
            token_endpoint_auth_methods_supported: ["client_secret_post"],
            code_challenge_methods_supported: ["S256"],
          },
        };
      case "GET /.well-known/jwks": {
        const { n: _n, ...withoutModulus } = publicJwk;
        return { status: 200, body: { keys: [fault === "jwks-rsa-key-without-modulus" ? withoutModulus : publicJwk] } };
      }
      case "GET /login/oauth/authorize":
        return authorize(url, call!);
      case "POST /api/login/oauth/access_token":
        return token(form);
      case "GET /api/userinfo":
        return userinfo(request);
      case "GET /api/logout":
      case "POST /api/logout":
        return call?.invalid ? html(400, "Sign-out error", `<h1>Sign-out error</h1><p>${escape(call.invalid)}</p>`) : html(200, "Signed out", "<h1>You have been signed out</h1>");
      default:
        return html(404, "Not found", `<p>${escape(url.pathname)} does not exist.</p>`);
    }
  }, secretsSeen);
  issuer = running.url;
  return running;
}
