// A deliberately small OpenID Connect provider at the contract's paths, for the conformance self-tests only. A
// certified implementation (oidc-provider, used by the sandbox) cannot be made to break one rule at a time (accept
// a reused code, skip PKCE), so this one spells each rule out where a fault can switch it off; the cryptography is
// jose's. Requests reach the endpoints by the contract's operationIds (http.ts routes them with the bundle), and
// the discovery document names the contract's paths. This file holds the provider's state and what a browser goes
// through (authorize, sign-in, consent, logout); identity-endpoints.ts the discovery, JWKS, token and userinfo.
// Sign-in is a plain HTML form (login and password) by default, as the runner meets it on many providers; four
// variants change only the pages (identity-pages.ts): `javascript-sign-in` (no HTML form at all, like most single-page
// sign-ins), `consent-page` (a Keycloak-style consent page, accept and cancel in one form), `scope-consent` (one
// checkbox per requested scope, only the ticked granted), `login-in-password-id` ("login" in the password input's id).
import { randomBytes } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import type { IncomingMessage } from "node:http";
import type { JWK } from "jose";
import { identityOperationPath } from "../identity/paths.js";
import { FAULT_SERVER_CREDENTIALS } from "./credentials.js";
import {
  type Client,
  discovery,
  type IssuedCode,
  jwks,
  now,
  SCOPES,
  token,
  userinfo,
  userRecordSecretsOf,
} from "./identity-endpoints.js";
import { type IdentityFault, REFUSED_PARAMETERS } from "./identity-fault-names.js";
import { faultProviderKeys } from "./identity-keys.js";
import { looselyMatches } from "./identity-redirects.js";
import { logout, logoutConfirm, type LogoutState, SESSION_COOKIE } from "./identity-logout.js";
import { readCall, type Reply, type RunningServer, startServer } from "./http.js";
import {
  consentPage,
  continueAsPage,
  cookieOf,
  errorPage,
  escape,
  html,
  type IdentityVariant,
  readText,
  scopeConsentPage,
  scopeReviewPage,
  signInPage,
} from "./identity-pages.js";

export type { IdentityVariant } from "./identity-pages.js";

export { IDENTITY_FAULTS, type IdentityFault } from "./identity-fault-names.js";

const KNOWN_AUTHORIZE_PARAMETERS = [
  "response_type",
  "client_id",
  "redirect_uri",
  "scope",
  "state",
  "nonce",
  "code_challenge",
  "code_challenge_method",
  "prompt",
  "id_token_hint",
  "max_age",
  // OpenID Connect Core §3.1.2.1, §5.2 and §5.5: the parameters REFUSED_PARAMETERS' faults refuse one at a time.
  "display",
  "login_hint",
  "ui_locales",
  "claims_locales",
  "acr_values",
  "claims",
];
export interface PendingAuthorization {
  clientId: string;
  redirectUri: string;
  scope: string[];
  state?: string;
  nonce?: string;
  challenge?: string;
  method?: string;
  maxAge?: number;
}

/** The provider's state and endpoints; `fault` switches one rule off. */
class FaultProvider implements LogoutState {
  issuer = "";
  readonly pending = new Map<string, PendingAuthorization>();
  /** Signed-in requests waiting for consent (consent-page variant). */
  readonly consents = new Map<string, { request: PendingAuthorization; session: string }>();
  readonly sessions = new Map<string, { authTime: number }>();
  readonly logoutConfirmations = new Set<string>();
  readonly codes = new Map<string, IssuedCode>();
  readonly accessTokens = new Map<string, { scope: string[] }>();
  readonly refreshTokens = new Map<string, { scope: string[]; clientId: string }>();
  readonly secondClient = {
    id: FAULT_SERVER_CREDENTIALS.IDENTITY_SECOND_CLIENT_ID,
    secret: FAULT_SERVER_CREDENTIALS.IDENTITY_SECOND_CLIENT_SECRET,
  };
  readonly secretsSeen: Set<string>;

  constructor(
    readonly fault: IdentityFault | undefined,
    readonly variant: IdentityVariant,
    readonly client: Client,
    readonly signIn: URLSearchParams,
    readonly privateKey: CryptoKey,
    readonly publicJwk: JWK & { kid: string },
  ) {
    this.secretsSeen = new Set(
      [client.secret, this.secondClient.secret, signIn.get("password"), ...userRecordSecretsOf(fault)].filter(
        (secret): secret is string => Boolean(secret),
      ),
    );
  }

  /** The redirect of an authorization response, state included (unless the fault drops it). */
  backTo(
    request: { redirectUri: string; state?: string },
    params: Record<string, string | undefined>,
    headers: Record<string, string> = {},
  ): Reply {
    const target = new URL(request.redirectUri);
    for (const [k, v] of Object.entries(params)) if (v) target.searchParams.set(k, v);
    if (request.state && this.fault !== "state-not-echoed") target.searchParams.set("state", request.state);
    return { status: 302, headers: { Location: target.href, ...headers } };
  }

  issueCode(request: PendingAuthorization, authTime: number, headers: Record<string, string> = {}): Reply {
    // Twelve lowercase letters under the low-entropy fault: about 56 bits, not the 128 RFC 6749 §10.10 asks for.
    const code =
      this.fault === "code-low-entropy"
        ? Array.from(randomBytes(12), (byte) => String.fromCharCode(97 + (byte % 26))).join("")
        : randomBytes(16).toString("hex");
    this.secretsSeen.add(code);
    this.codes.set(code, { ...request, expiresAt: Date.now() + 60_000, used: false, authTime, accessTokens: [] });
    return this.backTo(request, { code }, headers);
  }

  /**
   * The authorization request's parameters, or the refusal they earn; `invalid`: why the request breaks the contract
   * (a POST, which the contract does not describe, is checked by the rules here only).
   */
  authorizationRequest(q: URLSearchParams, invalid: string | undefined): PendingAuthorization | Reply {
    const { client, fault } = this;
    const clientId = q.get("client_id");
    const redirectUri = q.get("redirect_uri");
    const pageStatus = fault === "authorize-error-403" ? 403 : 400;
    if (clientId !== client.id) return errorPage("Sign-in error", "Unknown application (client_id).", pageStatus);
    const registered = (uri: string) => client.redirectUris.some((r) => looselyMatches(fault, uri, r));
    if (!redirectUri || !registered(redirectUri))
      return errorPage("Sign-in error", "The redirect_uri is not registered for this application.", pageStatus);
    const state = q.get("state") || undefined;
    const refuse = (error: string, description: string) =>
      this.backTo({ redirectUri, state }, { error, error_description: description });
    // The missing-response_type fault must get past the contract's required response_type too.
    const missingTypeAccepted = fault === "response-type-missing-accepted" && !q.has("response_type");
    if (q.get("response_type") !== "code" && !missingTypeAccepted)
      return refuse("unsupported_response_type", "Only the code flow is supported");
    // The plain-PKCE fault must get past the contract's S256-only enum to show what accepting plain looks like.
    const plainOnly =
      fault === "pkce-plain-accepted" &&
      q.get("code_challenge_method") === "plain" &&
      /code_challenge_method/.test(invalid ?? "");
    if (invalid && !plainOnly && !missingTypeAccepted)
      return refuse("invalid_request", invalid.replace(/[^\x20-\x21\x23-\x5B\x5D-\x7E]/g, " "));
    const unknown = [...q.keys()].filter((key) => !KNOWN_AUTHORIZE_PARAMETERS.includes(key));
    if (fault === "unknown-parameter-refused" && unknown.length)
      return refuse("invalid_request", `Unknown parameter ${unknown.join(", ")}`);
    const refusal = fault && REFUSED_PARAMETERS[fault];
    const refusedValue = refusal ? q.get(refusal.name) : null;
    if (refusal && refusedValue !== null && refusal.refused(refusedValue))
      return refuse("invalid_request", `${refusal.name} is not supported`);
    const scope = (q.get("scope") ?? "").split(" ").filter(Boolean);
    if (!scope.includes("openid") || scope.some((s) => !SCOPES.includes(s)))
      return refuse("invalid_scope", "Unsupported scope");
    if (!q.get("nonce") && fault === "nonce-required") return refuse("invalid_request", "nonce is required");
    // PKCE is S256 only (RFC 9700 §2.1.1); a code issued for a challenge is only exchanged with its verifier.
    const challenge = q.get("code_challenge") || undefined;
    const method = challenge ? q.get("code_challenge_method") || "plain" : undefined;
    if (method && method !== "S256" && fault !== "pkce-plain-accepted")
      return refuse("invalid_request", "code_challenge_method must be S256");
    const maxAge = q.has("max_age") ? Number(q.get("max_age")) : undefined;
    return { clientId, redirectUri, scope, state, nonce: q.get("nonce") || undefined, challenge, method, maxAge };
  }

  async authorize(q: URLSearchParams, invalid: string | undefined, request: IncomingMessage): Promise<Reply> {
    const details = this.authorizationRequest(q, invalid);
    if ("status" in details) return details;
    const { fault } = this;
    if (fault === "scope-openid-first" && details.scope[0] !== "openid")
      return this.backTo(details, { error: "invalid_scope", error_description: "The scope must start with openid" });
    const prompts = (q.get("prompt") ?? "").split(" ");
    if (prompts.includes("none") && fault === "prompt-none-needs-hint" && !q.get("id_token_hint"))
      return this.backTo(details, { error: "invalid_request", error_description: "prompt=none needs id_token_hint" });
    const session = this.sessions.get(cookieOf(request, SESSION_COOKIE) ?? "");
    const fresh =
      session &&
      (details.maxAge === undefined || fault === "max-age-ignored" || now() - session.authTime <= details.maxAge);
    const reuse = session && fresh && (!prompts.includes("login") || fault === "prompt-login-ignored");
    // Two that answer a request of the live session as if the user had signed in again silently, in a later second
    // than the session's sign-in (waiting for it: the runner may ask within the same second).
    const newAuthTime =
      (fault === "prompt-none-new-auth-time" && prompts.includes("none")) ||
      (fault === "max-age-resets-auth-time" && details.maxAge !== undefined);
    if (reuse && newAuthTime) {
      while (now() <= session.authTime) await sleep(1000 - (Date.now() % 1000));
      return this.issueCode(details, now());
    }
    if (reuse) return this.issueCode(details, session.authTime);
    if (session && prompts.includes("login") && fault === "prompt-ignored-one-click") {
      const id = randomBytes(12).toString("hex");
      this.consents.set(id, { request: details, session: cookieOf(request, SESSION_COOKIE)! });
      return continueAsPage(id, this.signIn.get("login") ?? "");
    }
    if (prompts.includes("none") && fault !== "prompt-none-shows-page")
      return this.backTo(details, { error: "login_required", error_description: "The user is not signed in" });
    const id = randomBytes(12).toString("hex");
    this.pending.set(id, details);
    return signInPage(this.variant, id);
  }

  /** Signs the user in: a session cookie, then the consent page (consent-page variant) or the code. */
  signedIn(request: PendingAuthorization): Reply {
    const sessionId = randomBytes(16).toString("hex");
    const authTime = now();
    if (this.fault === "no-session") return this.issueCode(request, authTime);
    this.sessions.set(sessionId, { authTime });
    const cookie = { "Set-Cookie": `${SESSION_COOKIE}=${sessionId}; Path=/; HttpOnly; SameSite=Lax` };
    if (this.variant !== "consent-page" && this.variant !== "scope-consent")
      return this.issueCode(request, authTime, cookie);
    const id = randomBytes(12).toString("hex");
    this.consents.set(id, { request, session: sessionId });
    return this.variant === "scope-consent"
      ? scopeConsentPage(id, request.scope, cookie)
      : consentPage(id, request.scope, cookie);
  }

  async signInSubmit(request: IncomingMessage): Promise<Reply> {
    const text = await readText(request);
    const json = (request.headers["content-type"] ?? "").startsWith("application/json");
    const form = json ? new URLSearchParams(JSON.parse(text) as Record<string, string>) : new URLSearchParams(text);
    const id = form.get("request") ?? "";
    const details = this.pending.get(id);
    if (!details)
      return json
        ? { status: 400, body: { problem: "The sign-in request expired." } }
        : errorPage("Sign-in error", "The sign-in request expired.");
    // The login-in-password-id page names its fields username and secret.
    const [login, password] = [form.get("login") ?? form.get("username"), form.get("password") ?? form.get("secret")];
    if (login !== this.signIn.get("login") || password !== this.signIn.get("password")) {
      return json
        ? { status: 401, body: { problem: "Wrong login or password." } }
        : signInPage(this.variant, id, "Wrong login or password.");
    }
    this.pending.delete(id);
    const reply = this.signedIn(details);
    // The JavaScript sign-in reads where to go from JSON; the browser gets the session cookie with it.
    return json
      ? {
          status: 200,
          body: { location: reply.headers?.Location },
          headers: reply.headers?.["Set-Cookie"] ? { "Set-Cookie": reply.headers["Set-Cookie"] } : {},
        }
      : reply;
  }

  /** The one click of the "continue as" page: a new auth_time, as if the user had signed in again. */
  async continueAs(request: IncomingMessage): Promise<Reply> {
    const id = new URLSearchParams(await readText(request)).get("request") ?? "";
    const consent = this.consents.get(id);
    if (!consent) return errorPage("Sign-in error", "The sign-in request expired.");
    this.consents.delete(id);
    const authTime = now();
    this.sessions.set(consent.session, { authTime });
    return this.issueCode(consent.request, authTime);
  }

  async signInCancel(request: IncomingMessage): Promise<Reply> {
    const details = this.pending.get(new URLSearchParams(await readText(request)).get("request") ?? "");
    return details
      ? this.backTo(details, { error: "access_denied", error_description: "The user cancelled the sign-in" })
      : html(400, "Sign-in error", "<h1>The sign-in request expired</h1>");
  }

  async consentSubmit(request: IncomingMessage): Promise<Reply> {
    const form = new URLSearchParams(await readText(request));
    const id = form.get("code") ?? "";
    const consent = this.consents.get(id);
    if (!consent) return errorPage("Consent error", "The consent request expired.");
    this.consents.delete(id);
    if (this.variant === "scope-consent") return this.scopeConsentStep(form, consent);
    if (form.has("cancel") || !form.has("accept"))
      return this.backTo(consent.request, { error: "access_denied", error_description: "The user denied access" });
    return this.issueCode(consent.request, this.sessions.get(consent.session)?.authTime ?? now());
  }

  /** The two steps of the scope-consent page: the ticked scopes (openid among them), then Continue. */
  scopeConsentStep(form: URLSearchParams, consent: { request: PendingAuthorization; session: string }): Reply {
    const decision = form.get("decision");
    if (decision !== "grant" && decision !== "continue")
      return this.backTo(consent.request, { error: "access_denied", error_description: "The user denied access" });
    const id = randomBytes(12).toString("hex");
    if (form.get("step") === "review") {
      return this.issueCode(consent.request, this.sessions.get(consent.session)?.authTime ?? now());
    }
    const granted = consent.request.scope.filter((s) => form.getAll("scope").includes(s));
    if (!granted.includes("openid")) {
      this.consents.set(id, consent);
      return scopeConsentPage(id, consent.request.scope, {}, "Choose what demo-app may access (openid at least).");
    }
    this.consents.set(id, { ...consent, request: { ...consent.request, scope: granted } });
    return scopeReviewPage(id, granted);
  }

  /**
   * The authorization request by POST, its parameters in the form (OpenID Connect Core §3.1.2.1: the OP MUST take it),
   * which the contract does not describe.
   */
  async authorizeByPost(request: IncomingMessage): Promise<Reply> {
    if (this.fault === "authorize-post-refused") return { status: 405, headers: { Allow: "GET" } };
    const form = new URLSearchParams(await readText(request));
    if (this.fault !== "authorize-post-error-redirect") return this.authorize(form, undefined, request);
    const details = this.authorizationRequest(form, undefined);
    if ("status" in details) return details;
    return this.backTo(details, { error: "invalid_request", error_description: "The request must be sent by GET" });
  }

  /** Every request: the provider's own pages by path, the contract's endpoints by operationId. */
  async handle(request: IncomingMessage): Promise<Reply> {
    const url = new URL(request.url ?? "/", this.issuer);
    const route = `${request.method} ${url.pathname}`;
    if (route === "POST /sign-in") return this.signInSubmit(request);
    if (route === "POST /sign-in/cancel") return this.signInCancel(request);
    if (route === "POST /consent") return this.consentSubmit(request);
    if (route === "POST /continue") return this.continueAs(request);
    if (route === "POST /logout/confirm") return logoutConfirm(this, request);
    // Userinfo also answers POST (OpenID Connect Core §5.3.1), which the contract does not describe.
    if (url.pathname === identityOperationPath("getUserInfo")) return userinfo(this, request);
    if (route === `POST ${identityOperationPath("authorize")}`) return this.authorizeByPost(request);
    const call = await readCall("identity", request);
    switch (call?.operationId) {
      case "getOpenIdConfiguration":
        return discovery(this);
      case "getJwks":
        return jwks(this);
      case "authorize":
        return this.authorize(url.searchParams, call.invalid, request);
      case "exchangeToken":
        return token(this, new URLSearchParams(call.rawBody));
      case "logout":
        return logout(this, url.searchParams, call, request);
      case "logoutWithForm":
        return logout(this, new URLSearchParams(call.rawBody), call, request);
      default:
        return html(404, "Not found", `<p>${escape(url.pathname)} does not exist.</p>`);
    }
  }
}

/**
 * `appOrigin`: the client's application is there, its redirect_uri `<appOrigin>/callback` and its post-logout address
 * `<appOrigin>/` (by default the ones of FAULT_SERVER_CREDENTIALS).
 */
export async function startIdentityServer(
  options: {
    fault?: IdentityFault;
    variant?: IdentityVariant;
    port?: number;
    clientSecret?: string;
    appOrigin?: string;
    /** The sign-in it accepts (`login=..&password=..`; by default FAULT_SERVER_CREDENTIALS'). */
    signIn?: string;
  } = {},
): Promise<RunningServer> {
  const C = FAULT_SERVER_CREDENTIALS;
  const [redirectUri, postLogoutRedirectUri] = options.appOrigin
    ? [`${options.appOrigin}/callback`, `${options.appOrigin}/`]
    : [C.IDENTITY_REDIRECT_URI, C.IDENTITY_POST_LOGOUT_REDIRECT_URI];
  const client: Client = {
    id: C.IDENTITY_CLIENT_ID,
    secret: options.clientSecret ?? C.IDENTITY_CLIENT_SECRET,
    redirectUris: [redirectUri],
    postLogoutRedirectUris: [postLogoutRedirectUri],
  };
  const { privateKey, publicJwk } = await faultProviderKeys();
  const provider = new FaultProvider(
    options.fault,
    options.variant ?? "html-form",
    client,
    new URLSearchParams(options.signIn ?? C.IDENTITY_SIGN_IN),
    privateKey,
    publicJwk,
  );
  const running = await startServer(options.port ?? 0, (request) => provider.handle(request), provider.secretsSeen);
  provider.issuer = running.url;
  return running;
}
