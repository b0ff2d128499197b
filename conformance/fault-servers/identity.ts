// A deliberately small OpenID Connect provider at the contract's paths, for the conformance self-tests only. A
// certified implementation (oidc-provider, used by the sandbox) cannot be made to break one rule at a time (accept
// a reused code, skip PKCE), so this one spells each rule out where a fault can switch it off; the cryptography is
// jose's. Sign-in is a plain HTML form (login and password) by default, as the runner meets it on many providers;
// two variants change only the pages: `javascript-sign-in` builds its sign-in with JavaScript (no HTML form at all,
// like most single-page sign-ins) and `consent-page` asks for consent afterwards on a Keycloak-style page whose one
// form has an accept and a cancel button.
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
  "openid-not-in-scopes-supported",
  "no-code-challenge-methods",
  "pkce-plain-accepted",
  "duplicate-kids",
  "state-not-echoed",
  "nonce-required",
  "unknown-parameter-refused",
  "userinfo-omits-granted-claims",
  "userinfo-post-body-ignored",
  "wrong-at-hash",
  "prompt-none-shows-page",
  "prompt-login-ignored",
  "max-age-ignored",
  "code-reuse-keeps-tokens",
  "redirect-uri-query-ignored",
  "refresh-without-offline-access",
  "logout-open-redirect",
  "logout-drops-state",
  "logout-keeps-session",
] as const;
export type IdentityFault = (typeof IDENTITY_FAULTS)[number];

/** Variants of the correct provider that change only how the user gets through its pages. */
export type IdentityVariant = "html-form" | "javascript-sign-in" | "consent-page";

const SCOPES = ["openid", "profile", "email", "wallets", "offline_access", "quests"];
const USER = {
  sub: "5b8f2c4e-1a7d-4e3b-9c6f-0d2a8e7b4f91",
  profile: { name: "Alice Novak", preferred_username: "alice", picture: "https://t.me/i/userpic/320/alice_novak.jpg", tg_id: 482915637, tg_username: "alice_novak" },
  email: { email: "alice.novak@example.org", email_verified: true },
  wallets: { wallets: [{ chain: "ton", address: "UQBvW8Z5huBkMJYdnfAEM5JqTNkuWX3diqYENkWsIL0XggGG" }] },
};
const SESSION_COOKIE = "fault_session";

interface PendingAuthorization {
  clientId: string;
  redirectUri: string;
  scope: string[];
  state?: string;
  nonce?: string;
  challenge?: string;
  method?: string;
  maxAge?: number;
}

interface IssuedCode extends PendingAuthorization {
  expiresAt: number;
  used: boolean;
  authTime: number;
  /** The access tokens issued for this code, revoked when the code is replayed (RFC 6749 §4.1.2). */
  accessTokens: string[];
}

const html = (status: number, title: string, body: string, headers: Record<string, string> = {}): Reply => ({ status, text: `<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body>${body}</body></html>\n`, headers: { "Content-Type": "text/html; charset=utf-8", ...headers } });
const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const cookieOf = (request: IncomingMessage, name: string) =>
  (request.headers.cookie ?? "")
    .split(";")
    .map((part) => part.trim().split("="))
    .find(([key]) => key === name)?.[1];

async function readText(request: IncomingMessage): Promise<string> {
  let text = "";
  for await (const chunk of request) text += chunk;
  return text;
}

export async function startIdentityServer(options: { fault?: IdentityFault; variant?: IdentityVariant; port?: number; clientSecret?: string } = {}): Promise<RunningServer> {
  const fault = options.fault;
  const variant = options.variant ?? "html-form";
  const C = FAULT_SERVER_CREDENTIALS;
  const client = { id: C.IDENTITY_CLIENT_ID, secret: options.clientSecret ?? C.IDENTITY_CLIENT_SECRET, redirectUris: [C.IDENTITY_REDIRECT_URI as string], postLogoutRedirectUris: [C.IDENTITY_POST_LOGOUT_REDIRECT_URI as string] };
  const signIn = new URLSearchParams(C.IDENTITY_SIGN_IN);
  const { privateKey, publicKey } = await generateKeyPair("RS256");
  const publicJwk = { ...(await exportJWK(publicKey)), kid: "fault-server-rs256", use: "sig", alg: "RS256" };
  const pending = new Map<string, PendingAuthorization>();
  /** Signed-in requests waiting for consent (consent-page variant). */
  const consents = new Map<string, { request: PendingAuthorization; session: string }>();
  const sessions = new Map<string, { authTime: number }>();
  const codes = new Map<string, IssuedCode>();
  const accessTokens = new Map<string, { scope: string[] }>();
  const refreshTokens = new Map<string, { scope: string[] }>();
  let issuer = "";
  const secretsSeen = new Set([client.secret, signIn.get("password")!]);

  const claimsFor = (scope: string[], ignoreScope = false) => ({
    sub: USER.sub,
    ...(ignoreScope || scope.includes("profile") ? USER.profile : {}),
    ...(ignoreScope || (scope.includes("email") && fault !== "userinfo-omits-granted-claims") ? USER.email : {}),
    ...(ignoreScope || scope.includes("wallets") ? USER.wallets : {}),
  });
  const tokenError = (status: number, error: string, description: string): Reply => ({ status, body: { error, error_description: description }, headers: { "Cache-Control": "no-store", Pragma: "no-cache" } });

  /** The redirect of an authorization response, state included (unless the fault drops it). */
  const backTo = (request: { redirectUri: string; state?: string }, params: Record<string, string | undefined>, headers: Record<string, string> = {}): Reply => {
    const target = new URL(request.redirectUri);
    for (const [k, v] of Object.entries(params)) if (v) target.searchParams.set(k, v);
    if (request.state && fault !== "state-not-echoed") target.searchParams.set("state", request.state);
    return { status: 302, headers: { Location: target.href, ...headers } };
  };

  const issueCode = (request: PendingAuthorization, authTime: number, headers: Record<string, string> = {}): Reply => {
    const code = randomBytes(16).toString("hex");
    secretsSeen.add(code);
    codes.set(code, { ...request, expiresAt: Date.now() + 60_000, used: false, authTime, accessTokens: [] });
    return backTo(request, { code }, headers);
  };

  const signInPage = (id: string, problem = ""): Reply => {
    if (variant === "javascript-sign-in") {
      // No form in the HTML: the script builds the fields and posts them with fetch, as single-page sign-ins do.
      return html(200, "Sign in to demo-app", `<div id="app"><noscript>This sign-in needs JavaScript.</noscript></div>
<script>
const app = document.getElementById("app");
app.innerHTML = '<h1>Sign in to demo-app</h1><p id="problem" role="alert"></p>' +
  '<div><label for="user">Username</label> <input id="user" autocomplete="username"></div>' +
  '<div><input id="secret" type="password" placeholder="Password"></div>' +
  '<div><button id="go" type="button">Continue</button> <button type="button" id="forgot">Forgot password?</button></div>';
document.getElementById("go").addEventListener("click", async () => {
  const response = await fetch("/sign-in", { method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ request: ${JSON.stringify(id)}, login: document.getElementById("user").value, password: document.getElementById("secret").value }) });
  const answer = await response.json();
  if (answer.location) window.location.href = answer.location;
  else document.getElementById("problem").textContent = answer.problem;
});
</script>`);
    }
    return html(problem ? 401 : 200, "Sign in to demo-app", `<h1>Sign in to demo-app</h1>${problem ? `<p role="alert">${escape(problem)}</p>` : ""}<form method="post" action="/sign-in"><input type="hidden" name="request" value="${id}"><label>Login <input name="login" autocomplete="username"></label><label>Password <input type="password" name="password"></label><button type="submit">Continue with e-mail</button></form><form method="post" action="/sign-in/cancel"><input type="hidden" name="request" value="${id}"><button type="submit">Cancel</button></form>`);
  };

  function authorize(url: URL, call: IncomingCall, request: IncomingMessage): Reply {
    const q = url.searchParams;
    const clientId = q.get("client_id");
    const redirectUri = q.get("redirect_uri");
    if (clientId !== client.id) return html(400, "Sign-in error", "<h1>Sign-in error</h1><p>Unknown application (client_id).</p>");
    const registered = (uri: string) => (fault === "redirect-uri-query-ignored" ? client.redirectUris.some((r) => uri.split("?")[0] === r.split("?")[0]) : client.redirectUris.includes(uri));
    if (!redirectUri || !registered(redirectUri)) return html(400, "Sign-in error", "<h1>Sign-in error</h1><p>The redirect_uri is not registered for this application.</p>");
    const state = q.get("state") || undefined;
    const refuse = (error: string, description: string) => backTo({ redirectUri, state }, { error, error_description: description });
    if (q.get("response_type") !== "code") return refuse("unsupported_response_type", "Only the code flow is supported");
    // The plain-PKCE fault must get past the contract's S256-only enum to show what accepting plain looks like.
    const plainOnly = fault === "pkce-plain-accepted" && q.get("code_challenge_method") === "plain" && /code_challenge_method/.test(call.invalid ?? "");
    if (call.invalid && !plainOnly) return refuse("invalid_request", call.invalid.replace(/[^\x20-\x21\x23-\x5B\x5D-\x7E]/g, " "));
    if (fault === "unknown-parameter-refused") {
      const known = ["response_type", "client_id", "redirect_uri", "scope", "state", "nonce", "code_challenge", "code_challenge_method", "prompt", "max_age"];
      const unknown = [...q.keys()].filter((key) => !known.includes(key));
      if (unknown.length) return refuse("invalid_request", `Unknown parameter ${unknown.join(", ")}`);
    }
    const scope = (q.get("scope") ?? "").split(" ").filter(Boolean);
    if (!scope.includes("openid") || scope.some((s) => !SCOPES.includes(s))) return refuse("invalid_scope", "Unsupported scope");
    if (!q.get("nonce") && fault === "nonce-required") return refuse("invalid_request", "nonce is required");
    // PKCE is S256 only (RFC 9700 §2.1.1); a code issued for a challenge is only exchanged with its verifier.
    const challenge = q.get("code_challenge") || undefined;
    const method = challenge ? q.get("code_challenge_method") || "plain" : undefined;
    if (method && method !== "S256" && fault !== "pkce-plain-accepted") return refuse("invalid_request", "code_challenge_method must be S256");
    const maxAge = q.has("max_age") ? Number(q.get("max_age")) : undefined;
    const details: PendingAuthorization = { clientId, redirectUri, scope, state, nonce: q.get("nonce") || undefined, challenge, method, maxAge };

    const prompts = (q.get("prompt") ?? "").split(" ");
    const session = sessions.get(cookieOf(request, SESSION_COOKIE) ?? "");
    const now = Math.floor(Date.now() / 1000);
    const fresh = session && (maxAge === undefined || fault === "max-age-ignored" || now - session.authTime <= maxAge);
    const reuse = session && fresh && (!prompts.includes("login") || fault === "prompt-login-ignored");
    if (reuse) return issueCode(details, session.authTime);
    if (prompts.includes("none") && fault !== "prompt-none-shows-page") return refuse("login_required", "The user is not signed in");
    const id = randomBytes(12).toString("hex");
    pending.set(id, details);
    return signInPage(id);
  }

  /** Signs the user in: a session cookie, then the consent page (consent-page variant) or the code. */
  function signedIn(request: PendingAuthorization): Reply {
    const sessionId = randomBytes(16).toString("hex");
    const authTime = Math.floor(Date.now() / 1000);
    sessions.set(sessionId, { authTime });
    const cookie = { "Set-Cookie": `${SESSION_COOKIE}=${sessionId}; Path=/; HttpOnly; SameSite=Lax` };
    if (variant !== "consent-page") return issueCode(request, authTime, cookie);
    const id = randomBytes(12).toString("hex");
    consents.set(id, { request, session: sessionId });
    // Keycloak's consent page: one form, the accept and the cancel button side by side; cancel wins when both are sent.
    return html(200, "Grant access to demo-app", `<h1>Grant access to demo-app</h1><p>demo-app asks for: ${request.scope.map((s) => `<code>${s}</code>`).join(" ")}</p><form method="post" action="/consent"><input type="hidden" name="code" value="${id}"><input type="submit" name="cancel" value="No"> <input type="submit" name="accept" value="Yes"></form>`, cookie);
  }

  async function signInSubmit(request: IncomingMessage): Promise<Reply> {
    const text = await readText(request);
    const json = (request.headers["content-type"] ?? "").startsWith("application/json");
    const form = json ? new URLSearchParams(JSON.parse(text) as Record<string, string>) : new URLSearchParams(text);
    const id = form.get("request") ?? "";
    const details = pending.get(id);
    if (!details) return json ? { status: 400, body: { problem: "The sign-in request expired." } } : html(400, "Sign-in error", "<h1>Sign-in error</h1><p>The sign-in request expired.</p>");
    if (form.get("login") !== signIn.get("login") || form.get("password") !== signIn.get("password")) {
      return json ? { status: 401, body: { problem: "Wrong login or password." } } : signInPage(id, "Wrong login or password.");
    }
    pending.delete(id);
    const reply = signedIn(details);
    // The JavaScript sign-in reads where to go from JSON; the browser gets the session cookie with it.
    return json ? { status: 200, body: { location: reply.headers?.Location }, headers: reply.headers?.["Set-Cookie"] ? { "Set-Cookie": reply.headers["Set-Cookie"] } : {} } : reply;
  }

  async function consentSubmit(request: IncomingMessage): Promise<Reply> {
    const form = new URLSearchParams(await readText(request));
    const consent = consents.get(form.get("code") ?? "");
    if (!consent) return html(400, "Consent error", "<h1>Consent error</h1><p>The consent request expired.</p>");
    consents.delete(form.get("code")!);
    if (form.has("cancel") || !form.has("accept")) return backTo(consent.request, { error: "access_denied", error_description: "The user denied access" });
    return issueCode(consent.request, sessions.get(consent.session)!.authTime);
  }

  async function token(form: URLSearchParams): Promise<Reply> {
    if (form.get("client_id") !== client.id || form.get("client_secret") !== client.secret) {
      return fault === "wrong-secret-invalid-grant" ? tokenError(400, "invalid_grant", "The grant is invalid.") : tokenError(401, "invalid_client", "Client authentication failed.");
    }
    const grantType = form.get("grant_type");
    let scope: string[];
    let nonce: string | undefined;
    let authTime = Math.floor(Date.now() / 1000);
    let issued: IssuedCode | undefined;
    if (grantType === "authorization_code") {
      const code = codes.get(form.get("code") ?? "");
      if (!code || code.expiresAt < Date.now()) return tokenError(400, "invalid_grant", "The authorization code is unknown or expired.");
      if (code.used && fault !== "code-reusable") {
        if (fault !== "code-reuse-keeps-tokens") for (const token of code.accessTokens) accessTokens.delete(token);
        return tokenError(400, "invalid_grant", "The authorization code has already been used.");
      }
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
      issued = code;
    } else if (grantType === "refresh_token") {
      const refresh = refreshTokens.get(form.get("refresh_token") ?? "");
      if (!refresh) return tokenError(400, "invalid_grant", "The refresh token is invalid.");
      scope = refresh.scope;
    } else if (!grantType) return tokenError(400, "invalid_request", "The grant_type parameter is missing.");
    else return tokenError(400, "unsupported_grant_type", "Only authorization_code and refresh_token are supported.");

    const accessToken = `at_${randomBytes(18).toString("base64url")}`;
    accessTokens.set(accessToken, { scope });
    issued?.accessTokens.push(accessToken);
    const now = Math.floor(Date.now() / 1000);
    const digest = createHash("sha256").update(fault === "wrong-at-hash" ? `${accessToken}x` : accessToken).digest();
    const idToken = await new SignJWT({ ...claimsFor(scope), ...(nonce ? { nonce } : {}), auth_time: authTime, azp: client.id, at_hash: digest.subarray(0, 16).toString("base64url") })
      .setProtectedHeader({ alg: "RS256", kid: publicJwk.kid, typ: "JWT" })
      .setIssuer(issuer)
      .setAudience(fault === "id-token-wrong-audience" ? "another-app" : client.id)
      .setIssuedAt(now)
      .setExpirationTime(now + 3600)
      .sign(privateKey);
    const body: Record<string, unknown> = { access_token: accessToken, token_type: "Bearer", expires_in: 3600, id_token: idToken, scope: scope.join(" ") };
    if (scope.includes("offline_access") || fault === "refresh-without-offline-access") {
      const refreshToken = `rt_${randomBytes(18).toString("base64url")}`;
      refreshTokens.set(refreshToken, { scope });
      body.refresh_token = refreshToken;
    }
    for (const value of [accessToken, idToken, body.refresh_token]) if (typeof value === "string") secretsSeen.add(value);
    return { status: 200, body, headers: { "Cache-Control": "no-store", Pragma: "no-cache" } };
  }

  /** Userinfo by GET or POST, the token in the Authorization header (RFC 6750 §2.1) or the form body (§2.2). */
  async function userinfo(request: IncomingMessage): Promise<Reply> {
    let token = request.headers.authorization?.replace(/^Bearer /, "");
    if (request.method === "POST" && !token && fault !== "userinfo-post-body-ignored" && (request.headers["content-type"] ?? "").startsWith("application/x-www-form-urlencoded")) {
      token = new URLSearchParams(await readText(request)).get("access_token") ?? undefined;
    }
    if (!token) return { status: 401, headers: { "WWW-Authenticate": "Bearer" } };
    const grant = accessTokens.get(token);
    if (!grant) return { status: 401, headers: { "WWW-Authenticate": 'Bearer error="invalid_token", error_description="The access token is unknown or expired"' } };
    return { status: 200, body: { iss: issuer, aud: client.id, ...claimsFor(grant.scope, fault === "userinfo-ignores-scope") } };
  }

  /** RP-initiated logout: ends the session, then goes to a registered post_logout_redirect_uri with state. */
  function logout(params: URLSearchParams, call: IncomingCall | undefined, request: IncomingMessage): Reply {
    if (call?.invalid) return html(400, "Sign-out error", `<h1>Sign-out error</h1><p>${escape(call.invalid)}</p>`);
    const target = params.get("post_logout_redirect_uri");
    if (target && !client.postLogoutRedirectUris.includes(target) && fault !== "logout-open-redirect") {
      return html(400, "Sign-out error", "<h1>Sign-out error</h1><p>The post_logout_redirect_uri is not registered for this application.</p>");
    }
    const sessionId = cookieOf(request, SESSION_COOKIE);
    if (sessionId && fault !== "logout-keeps-session") sessions.delete(sessionId);
    // The faulty logout only redirects: it neither ends the session nor clears its cookie.
    const clearCookie: Record<string, string> = fault === "logout-keeps-session" ? {} : { "Set-Cookie": `${SESSION_COOKIE}=; Path=/; Max-Age=0` };
    if (!target) return html(200, "Signed out", "<h1>You have been signed out</h1>", clearCookie);
    const location = new URL(target);
    const state = params.get("state");
    if (state && fault !== "logout-drops-state") location.searchParams.set("state", state);
    return { status: 302, headers: { Location: location.href, ...clearCookie } };
  }

  const running = await startServer(options.port ?? 0, async (request): Promise<Reply> => {
    const url = new URL(request.url ?? "/", issuer);
    const route = `${request.method} ${url.pathname}`;
    if (route === "POST /sign-in") return signInSubmit(request);
    if (route === "POST /sign-in/cancel") {
      const details = pending.get(new URLSearchParams(await readText(request)).get("request") ?? "");
      return details ? backTo(details, { error: "access_denied", error_description: "The user cancelled the sign-in" }) : html(400, "Sign-in error", "<h1>The sign-in request expired</h1>");
    }
    if (route === "POST /consent") return consentSubmit(request);
    if (url.pathname === "/api/userinfo") return userinfo(request);
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
            scopes_supported: fault === "openid-not-in-scopes-supported" ? SCOPES.filter((s) => s !== "openid") : SCOPES,
            response_types_supported: ["code"],
            response_modes_supported: ["query"],
            grant_types_supported: ["authorization_code", "refresh_token"],
            subject_types_supported: ["public"],
            id_token_signing_alg_values_supported: ["RS256"],
            token_endpoint_auth_methods_supported: ["client_secret_post"],
            ...(fault === "no-code-challenge-methods" ? {} : { code_challenge_methods_supported: ["S256"] }),
          },
        };
      case "GET /.well-known/jwks": {
        const { n: _n, ...withoutModulus } = publicJwk;
        const keys = [fault === "jwks-rsa-key-without-modulus" ? withoutModulus : publicJwk];
        if (fault === "duplicate-kids") keys.push({ ...(await exportJWK((await generateKeyPair("RS256")).publicKey)), kid: publicJwk.kid, use: "sig", alg: "RS256" } as typeof publicJwk);
        return { status: 200, body: { keys } };
      }
      case "GET /login/oauth/authorize":
        return authorize(url, call!, request);
      case "POST /api/login/oauth/access_token":
        return token(form);
      case "GET /api/logout":
        return logout(url.searchParams, call, request);
      case "POST /api/logout":
        return logout(form, call, request);
      default:
        return html(404, "Not found", `<p>${escape(url.pathname)} does not exist.</p>`);
    }
  }, secretsSeen);
  issuer = running.url;
  return running;
}
