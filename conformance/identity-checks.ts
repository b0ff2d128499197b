// OpenID Connect provider checks for identity, at the level of the OpenID Foundation's Basic OP and Config OP plans
// where they apply to the contract (docs/guide/identity-conformance.md maps each check to its test modules).
// Discovery and JWKS need nothing; the flow checks need a registered client and a way through the provider's pages,
// which a sign-in driver provides (sign-in/: HTML forms by default, --browser, --manual). Fail closed: when the
// sign-in cannot complete, the sign_in check fails with the real cause and the run exits 1.
import { createHash, randomBytes } from "node:crypto";
import { createLocalJWKSet, decodeJwt, type JSONWebKeySet, type JWTPayload, jwtVerify, type JWTVerifyOptions } from "jose";
import { loadBundle, validateAt, describeErrors } from "../lib/openapi.js";
import type { RequestCase } from "./cases.js";
import { FLOW_CHECKS } from "./identity-check-list.js";
import type { Session } from "./session.js";
import type { Navigation, SignInDriver } from "./sign-in/driver.js";
import { openSignInDriver } from "./sign-in/open.js";
import { type Exchange, sleep } from "./transport.js";

/** The contract's paths of the provider's endpoints, as the discovery document must name them. */
const ENDPOINT_PATHS: Record<string, string> = {
  authorization_endpoint: "/login/oauth/authorize",
  token_endpoint: "/api/login/oauth/access_token",
  userinfo_endpoint: "/api/userinfo",
  jwks_uri: "/.well-known/jwks",
  end_session_endpoint: "/api/logout",
};

const REQUIRED_DISCOVERY_FIELDS = ["issuer", "authorization_endpoint", "token_endpoint", "jwks_uri", "response_types_supported", "subject_types_supported", "id_token_signing_alg_values_supported"];

/** What prompt=none may answer instead of a code when it cannot sign the user in silently (OpenID Connect Core §3.1.2.6). */
const SILENT_ERRORS = ["login_required", "interaction_required", "consent_required", "account_selection_required"];

export interface Discovery {
  document: Record<string, any>;
  exchange: Exchange;
}

async function get(session: Session, operationId: string, label: string): Promise<Exchange> {
  const model = session.model(operationId);
  const exchange = await session.send(model, { origin: "example", label, path: {}, query: {}, headers: {} });
  session.check(model, exchange, "valid", label);
  return exchange;
}

export async function checkDiscovery(session: Session): Promise<Discovery | undefined> {
  const exchange = await get(session, "getOpenIdConfiguration", "discovery document");
  const document = exchange.response?.json as Record<string, any> | undefined;
  if (!document || typeof document !== "object") {
    for (const check of ["discovery_fields_and_issuer", "discovery_rs256_and_openid", "pkce_s256_only"]) {
      session.record(check, "getOpenIdConfiguration", `no JSON discovery document (status ${exchange.response?.status ?? exchange.error})`, exchange, "discovery document");
    }
    return undefined;
  }
  const problems: string[] = [];
  const missing = REQUIRED_DISCOVERY_FIELDS.filter((field) => document[field] === undefined);
  if (missing.length) problems.push(`missing ${missing.join(", ")}`);
  const issuer = session.options.baseUrl.replace(/\/$/, "");
  if (typeof document.issuer === "string" && document.issuer.replace(/\/$/, "") !== issuer) problems.push(`issuer is ${document.issuer}, not the base address ${issuer}`);
  for (const [field, path] of Object.entries(ENDPOINT_PATHS)) {
    if (document[field] !== undefined && document[field] !== `${issuer}${path}`) problems.push(`${field} is ${document[field]}, the contract's is ${issuer}${path}`);
  }
  if (Array.isArray(document.response_types_supported) && !document.response_types_supported.includes("code")) problems.push("response_types_supported lacks code");
  session.record("discovery_fields_and_issuer", "getOpenIdConfiguration", problems.join("; "), exchange, "discovery document");

  const algorithms: string[] = [];
  if (!Array.isArray(document.id_token_signing_alg_values_supported) || !document.id_token_signing_alg_values_supported.includes("RS256")) algorithms.push(`id_token_signing_alg_values_supported (${JSON.stringify(document.id_token_signing_alg_values_supported)}) lacks RS256`);
  if (!Array.isArray(document.scopes_supported) || !document.scopes_supported.includes("openid")) algorithms.push(`scopes_supported (${JSON.stringify(document.scopes_supported)}) lacks openid`);
  session.record("discovery_rs256_and_openid", "getOpenIdConfiguration", algorithms.join("; "), exchange, "discovery document");

  const methods = document.code_challenge_methods_supported;
  const pkce = !Array.isArray(methods) ? "code_challenge_methods_supported is not advertised (RFC 8414 §2), so a client cannot tell that S256 is supported" : methods.length === 1 && methods[0] === "S256" ? "" : `code_challenge_methods_supported is ${JSON.stringify(methods)}, not ["S256"] (plain must not be offered, RFC 9700 §2.1.1)`;
  session.record("pkce_s256_only", "getOpenIdConfiguration", pkce, exchange, "discovery document");
  return { document, exchange };
}

export async function checkJwks(session: Session): Promise<Array<Record<string, any>> | undefined> {
  const exchange = await get(session, "getJwks", "JWKS");
  const keys = (exchange.response?.json as { keys?: unknown } | undefined)?.keys;
  if (!Array.isArray(keys)) {
    session.record("jwks_shape", "getJwks", `no keys array in the JWKS (status ${exchange.response?.status ?? exchange.error})`, exchange, "JWKS");
    return undefined;
  }
  const problems: string[] = [];
  keys.forEach((key: Record<string, any>, index) => {
    const where = `key ${index}${key?.kid ? ` (kid ${key.kid})` : ""}`;
    if (!key || typeof key !== "object") return problems.push(`${where} is not an object`);
    if (typeof key.kty !== "string") return problems.push(`${where} has no kty`);
    const members = key.kty === "RSA" ? ["n", "e"] : key.kty === "EC" ? ["crv", "x", "y"] : key.kty === "OKP" ? ["crv", "x"] : [];
    const absent = members.filter((m) => typeof key[m] !== "string");
    if (absent.length) problems.push(`${where} (${key.kty}) lacks ${absent.join(", ")}`);
    if (key.d !== undefined || key.p !== undefined) problems.push(`${where} publishes private key members`);
    return undefined;
  });
  if (!keys.some((key: Record<string, any>) => key && (key.use === undefined || key.use === "sig"))) problems.push("no key may be used for signatures");
  session.record("jwks_shape", "getJwks", problems.join("; "), exchange, "JWKS");
  const kids = keys.map((key: Record<string, any>) => key?.kid).filter((kid): kid is string => typeof kid === "string");
  const repeated = [...new Set(kids.filter((kid, index) => kids.indexOf(kid) !== index))];
  const unnamed = keys.length > 1 && kids.length < keys.length ? "several keys and not every one has a kid" : "";
  session.record("jwks_unique_kids", "getJwks", [repeated.length ? `kid ${repeated.join(", ")} is used by more than one key` : "", unnamed].filter(Boolean).join("; "), exchange, "JWKS");
  return keys;
}

/** Scope of each claim, read from the contract's UserInfo descriptions ("Scope `profile`: ..."). */
function claimScopes(): Map<string, string> {
  const userInfo = (loadBundle("identity").components?.schemas as Record<string, any>).UserInfo;
  const result = new Map<string, string>();
  for (const [claim, schema] of Object.entries<any>(userInfo.properties ?? {})) {
    const scope = /^Scope `([a-z_]+)`/.exec(schema.description ?? "")?.[1];
    if (scope) result.set(claim, scope);
  }
  return result;
}

const base64url = (bytes: Buffer) => bytes.toString("base64url");
const newState = () => base64url(randomBytes(12));

/** One run's way through the provider: the session, the driver and the discovery document. */
interface Flow {
  session: Session;
  driver: SignInDriver;
  document: Record<string, any>;
}

interface CodeGrant {
  code: string;
  verifier?: string;
  nonce?: string;
  scope: string;
  redirectUri: string;
}

type Authorization =
  | ({ kind: "code"; navigation: Navigation; exchange: Exchange } & CodeGrant)
  | { kind: "error"; error: string; description: string; navigation: Navigation; exchange: Exchange }
  | { kind: "failed"; failure: string; navigation: Navigation; exchange: Exchange };

/** An exchange standing for a driver's navigation, so that a failure's report and curl reproduction show the URL. */
function navigationExchange(url: string, navigation?: Navigation, arrived?: URL): Exchange {
  const response: Exchange["response"] = navigation?.lastPage
    ? { status: navigation.lastPage.status ?? 200, headers: {}, text: navigation.lastPage.text, json: undefined, isJson: false, setCookies: [] }
    : arrived
      ? { status: 302, headers: { location: arrived.href }, text: "", json: undefined, isJson: false, setCookies: [] }
      : undefined;
  return { request: { method: "GET", url, headers: {} }, ...(response ? { response } : {}), ...(navigation?.failure ? { error: navigation.failure } : {}), durationMs: 0, receivedAt: Date.now() };
}

/** Whether `url` is `target` (same origin and path; the query may carry the response). */
const sameEndpoint = (url: URL, target: string) => {
  const wanted = new URL(target);
  return url.origin === wanted.origin && url.pathname === wanted.pathname;
};

interface AuthorizeOptions {
  scope: string;
  purpose: string;
  /** "S256" (default), "plain", or none. */
  pkce?: "S256" | "plain" | false;
  nonce?: boolean;
  redirectUri?: string;
  extra?: Record<string, string>;
  interactive?: boolean;
}

/** Sends the browser to the authorization endpoint and reads what comes back to the redirect_uri (state checked). */
async function authorize(flow: Flow, options: AuthorizeOptions): Promise<Authorization> {
  const { session, driver, document } = flow;
  const { credentials } = session.options;
  const redirectUri = options.redirectUri ?? credentials.redirectUri!;
  const verifier = options.pkce === false ? undefined : base64url(randomBytes(32));
  const challenge = verifier && (options.pkce === "plain" ? verifier : base64url(createHash("sha256").update(verifier).digest()));
  const nonce = options.nonce === false ? undefined : base64url(randomBytes(12));
  const state = newState();
  const url = new URL(document.authorization_endpoint ?? `${session.options.baseUrl}/login/oauth/authorize`);
  const params: Record<string, string> = { response_type: "code", client_id: credentials.clientId!, redirect_uri: redirectUri, scope: options.scope, state };
  if (nonce) params.nonce = nonce;
  if (challenge) Object.assign(params, { code_challenge: challenge, code_challenge_method: options.pkce === "plain" ? "plain" : "S256" });
  url.search = new URLSearchParams({ ...params, ...options.extra }).toString();
  const navigation = await driver.navigate(url.href, { until: (next) => sameEndpoint(next, redirectUri), interactive: options.interactive, purpose: options.purpose });
  const exchange = navigationExchange(url.href, navigation, navigation.arrived);
  if (!navigation.arrived) return { kind: "failed", failure: navigation.failure ?? "the provider did not send the browser back", navigation, exchange };
  const back = navigation.arrived.searchParams;
  const code = back.get("code");
  if (code) session.secrets.add(code, "<authorization code>");
  const returned = back.get("state");
  session.record("state_echoed", "authorize", returned === state ? "" : returned === null ? `the provider came back to the redirect_uri (${back.has("code") ? "with a code" : `with error ${back.get("error")}`}) without the state sent` : "the provider came back to the redirect_uri with another state than the one sent", exchange, options.purpose);
  if (code) {
    return { kind: "code", code, verifier, nonce, scope: options.scope, redirectUri, navigation, exchange };
  }
  return { kind: "error", error: back.get("error") ?? "(no code and no error)", description: back.get("error_description") ?? "", navigation, exchange };
}

const describeAuthorization = (a: Authorization) => (a.kind === "code" ? "a code" : a.kind === "error" ? `error ${a.error}${a.description ? ` (${a.description})` : ""}` : a.failure);

async function exchangeCode(session: Session, fields: Record<string, string | undefined>, label: string): Promise<Exchange> {
  const model = session.model("exchangeToken");
  const body = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
  const requestCase: RequestCase = { origin: "example", label, path: {}, query: {}, headers: {}, body };
  const exchange = await session.send(model, requestCase);
  session.check(model, exchange, "any", label);
  const tokens = exchange.response?.json as Record<string, unknown> | undefined;
  for (const name of ["access_token", "refresh_token", "id_token"]) if (typeof tokens?.[name] === "string") session.secrets.add(tokens[name] as string, `<${name}>`);
  return exchange;
}

function codeFields(session: Session, grant: CodeGrant, overrides: Record<string, string | undefined> = {}): Record<string, string | undefined> {
  const { credentials } = session.options;
  return { grant_type: "authorization_code", code: grant.code, redirect_uri: grant.redirectUri, client_id: credentials.clientId, client_secret: credentials.clientSecret, code_verifier: grant.verifier, ...overrides };
}

/** Exchanges a code properly; the tokens when the provider issued them. */
async function tokensFor(session: Session, grant: CodeGrant, label: string): Promise<{ exchange: Exchange; tokens?: Record<string, any> }> {
  const exchange = await exchangeCode(session, codeFields(session, grant), label);
  const tokens = exchange.response?.json as Record<string, any> | undefined;
  return exchange.response?.status === 200 && typeof tokens?.access_token === "string" ? { exchange, tokens } : { exchange };
}

const oauthError = (exchange: Exchange) => (exchange.response?.json as { error?: unknown } | undefined)?.error;
const refused = (exchange: Exchange, error = "invalid_grant") => {
  const status = exchange.response?.status ?? 0;
  return status >= 400 && status < 500 && oauthError(exchange) === error;
};
const describe = (exchange: Exchange) => (exchange.response ? `status ${exchange.response.status}${oauthError(exchange) ? ` ${String(oauthError(exchange))}` : ""}` : `no response (${exchange.error})`);

async function tokenErrors(session: Session): Promise<void> {
  const { credentials } = session.options;
  const problems: string[] = [];
  let last: Exchange | undefined;
  const cases: Array<[string, Record<string, string | undefined>, (e: Exchange) => boolean, string]> = [
    ["an unknown code", { grant_type: "authorization_code", code: `unknown-${base64url(randomBytes(9))}`, redirect_uri: credentials.redirectUri, client_id: credentials.clientId, client_secret: credentials.clientSecret }, (e) => refused(e, "invalid_grant"), "400 invalid_grant"],
    ["a wrong client_secret", { grant_type: "authorization_code", code: `unknown-${base64url(randomBytes(9))}`, redirect_uri: credentials.redirectUri, client_id: credentials.clientId, client_secret: "conformance-wrong-secret" }, (e) => refused(e, "invalid_client"), "400 or 401 invalid_client"],
    ["an unsupported grant_type", { grant_type: "password", username: "conformance", password: "conformance", client_id: credentials.clientId, client_secret: credentials.clientSecret }, (e) => refused(e, "unsupported_grant_type") || refused(e, "unauthorized_client"), "400 unsupported_grant_type"],
  ];
  for (const [what, fields, ok, expected] of cases) {
    const exchange = await exchangeCode(session, fields, `token request with ${what}`);
    if (!ok(exchange)) {
      problems.push(`${what} got ${describe(exchange)}, expected ${expected}`);
      last = exchange;
    } else last ??= exchange;
  }
  session.record("token_errors", "exchangeToken", problems.join("; "), last, "token requests that must fail");
}

export async function runIdentityChecks(session: Session): Promise<void> {
  const { checks, credentials, operations } = session.options;
  const selected = (...ids: string[]) => operations.length === 0 || ids.some((id) => operations.includes(id));
  const discoveryChecks = ["discovery_fields_and_issuer", "discovery_rs256_and_openid", "pkce_s256_only"].some((c) => checks.has(c));
  const discovery = selected("getOpenIdConfiguration", "authorize", "exchangeToken", "getUserInfo") && discoveryChecks ? await checkDiscovery(session) : undefined;
  if (selected("getJwks") && (checks.has("jwks_shape") || checks.has("jwks_unique_kids"))) await checkJwks(session);

  const flowChecks = FLOW_CHECKS.filter((c) => checks.has(c));
  if (!selected("authorize", "exchangeToken", "getUserInfo", "logout", "logoutWithForm") || flowChecks.length === 0) return;
  const missing = (["clientId", "clientSecret", "redirectUri"] as const).filter((k) => !credentials[k]);
  const CREDENTIAL_FLAGS = { clientId: "--client-id (IDENTITY_CLIENT_ID)", clientSecret: "--client-secret (IDENTITY_CLIENT_SECRET)", redirectUri: "--redirect-uri (IDENTITY_REDIRECT_URI)" };
  if (missing.length) {
    for (const check of flowChecks) session.cannotRun(check, `needs ${missing.map((k) => CREDENTIAL_FLAGS[k]).join(", ")}`);
    return;
  }
  if (checks.has("token_errors")) await tokenErrors(session);

  const document = discovery?.document ?? ((await session.transport.send({ method: "GET", url: `${session.options.baseUrl}/.well-known/openid-configuration`, headers: {} })).response?.json as Record<string, any> | undefined) ?? {};
  const identity = session.options.identity ?? { driver: "form" };
  const driver = await openSignInDriver(identity, { transport: session.transport, signIn: credentials.signIn ?? {}, timeoutMs: session.options.timeoutMs });
  try {
    await runFlows({ session, driver, document });
  } finally {
    await driver.close();
  }
}

async function runFlows(flow: Flow): Promise<void> {
  const { session } = flow;
  const { checks } = session.options;
  const run = (check: string) => checks.has(check) && !session.aborted;
  const skipRest = (reason: string) => {
    for (const check of FLOW_CHECKS) if (checks.has(check) && !session.tallies.has(check)) session.skippedChecks.set(check, reason);
  };

  // Fail closed: without a sign-in no flow check can run, and that is a failure of the run, not a pass.
  const signInStarted = Math.floor(Date.now() / 1000);
  const first = await authorize(flow, { scope: "openid profile email", purpose: "sign in" });
  if (first.kind !== "code") {
    const cause = first.kind === "failed" ? first.failure : `the provider answered the sign-in with ${describeAuthorization(first)}`;
    session.record("sign_in", "authorize", `could not sign in to get an authorization code: ${cause}`, first.exchange, "sign in");
    skipRest("the sign-in did not complete, see sign_in");
    return;
  }
  session.record("sign_in", "authorize", "", first.exchange, "sign in");

  // The first code is exchanged properly; its tokens serve the id_token and userinfo checks before code_reuse
  // replays the code (a provider should then revoke those tokens, RFC 6749 §4.1.2).
  const { exchange: tokensExchange, tokens } = await tokensFor(session, first, "exchange a fresh code");
  if (!tokens) {
    session.record("code_reuse", "exchangeToken", `a fresh code with its verifier was refused: ${describe(tokensExchange)}`, tokensExchange, "exchange a fresh code");
    skipRest("the provider refused a fresh code with its verifier, see code_reuse");
    return;
  }
  let idTokenSub: unknown;
  if (run("id_token_signature_and_claims")) idTokenSub = await checkIdToken(session, flow.document, tokens, first, tokensExchange);
  if (run("id_token_at_hash")) checkAtHash(session, tokens, tokensExchange);
  if (run("userinfo_by_scope") || run("granted_scope_claims")) await userinfoByScope(flow, tokens.access_token, first.scope, idTokenSub);
  if (run("userinfo_methods")) await userinfoMethods(flow, tokens.access_token);
  if (run("refresh_token_offline_access") && typeof tokens.refresh_token === "string") {
    session.record("refresh_token_offline_access", "exchangeToken", `a refresh token was issued for scope "${first.scope}", without offline_access`, tokensExchange, "exchange a code without offline_access");
  }
  if (run("code_reuse") || run("code_reuse_revokes_tokens")) {
    const again = await exchangeCode(session, codeFields(session, first), "exchange the same code again");
    session.record("code_reuse", "exchangeToken", refused(again) ? "" : `the code was accepted a second time (${describe(again)})`, again, "exchange the same code again");
    // Revoking the tokens is what a provider does once it detects the replay; accepting the replay is code_reuse's.
    if (run("code_reuse_revokes_tokens") && !refused(again)) session.skippedChecks.set("code_reuse_revokes_tokens", "the replayed code was accepted, see code_reuse");
    else if (run("code_reuse_revokes_tokens")) {
      const after = await readUserinfo(flow, tokens.access_token);
      session.record("code_reuse_revokes_tokens", "getUserInfo", after.response?.status === 200 ? "the access token issued for the code still reads userinfo after the code was replayed" : "", after, "userinfo with the first code's token after the replay");
    }
  }

  if (run("pkce_enforcement")) await pkceEnforcement(flow);
  if (run("pkce_s256_only")) {
    const plain = await authorize(flow, { scope: "openid", pkce: "plain", purpose: "authorize with code_challenge_method=plain" });
    session.record("pkce_s256_only", "authorize", plain.kind === "code" ? "a code was issued for code_challenge_method=plain" : "", plain.exchange, "authorize with code_challenge_method=plain");
  }
  if (run("redirect_uri_mismatch")) await redirectUriMismatch(flow);
  if (run("redirect_uri_exact_match")) {
    const registered = new URL(session.options.credentials.redirectUri!);
    registered.searchParams.append("conformance", "altered");
    const attempt = await authorize(flow, { scope: "openid", redirectUri: registered.href, purpose: "authorize with a redirect_uri whose query was altered" });
    session.record("redirect_uri_exact_match", "authorize", attempt.kind === "failed" ? "" : `the provider redirected (${describeAuthorization(attempt)}) to ${registered.href}, which is the registered redirect_uri with another query`, attempt.exchange, "authorize with an altered redirect_uri query");
  }
  if (run("nonce_optional")) {
    const attempt = await authorize(flow, { scope: "openid", nonce: false, purpose: "authorize without nonce" });
    let problem = attempt.kind === "code" ? "" : `an authorization request without nonce got ${describeAuthorization(attempt)}`;
    let exchange = attempt.exchange;
    if (attempt.kind === "code") {
      const result = await tokensFor(session, attempt, "exchange a code requested without nonce");
      exchange = result.exchange;
      const claims = typeof result.tokens?.id_token === "string" ? decodeJwt(result.tokens.id_token) : undefined;
      if (!result.tokens) problem = `the code of a request without nonce was refused: ${describe(result.exchange)}`;
      else if (claims?.nonce !== undefined) problem = "the id_token carries a nonce though the request sent none";
    }
    session.record("nonce_optional", "authorize", problem, exchange, "authorize without nonce");
  }
  if (run("unknown_parameters_ignored")) {
    const attempt = await authorize(flow, { scope: "openid", extra: { conformance_unknown_parameter: "ignore-me" }, purpose: "authorize with an unknown parameter" });
    session.record("unknown_parameters_ignored", "authorize", attempt.kind === "code" ? "" : `an authorization request with an unknown parameter got ${describeAuthorization(attempt)}`, attempt.exchange, "authorize with an unknown parameter");
  }
  if (run("prompt_none")) {
    const attempt = await authorize(flow, { scope: "openid", extra: { prompt: "none" }, interactive: false, purpose: "authorize with prompt=none while signed in" });
    session.record("prompt_none", "authorize", attempt.kind === "code" ? "" : `prompt=none with a live session got ${describeAuthorization(attempt)} instead of a code`, attempt.exchange, "prompt=none while signed in");
  }
  if (run("prompt_login")) await promptLogin(flow, signInStarted);
  if (run("max_age")) await maxAge(flow);
  if (run("refresh_token_offline_access")) await refreshTokens(flow);
  await logout(flow);
  if (run("prompt_none")) {
    await flow.driver.reset();
    const attempt = await authorize(flow, { scope: "openid", extra: { prompt: "none" }, interactive: false, purpose: "authorize with prompt=none without a session" });
    const ok = attempt.kind === "error" && SILENT_ERRORS.includes(attempt.error);
    session.record("prompt_none", "authorize", ok ? "" : `prompt=none without a session got ${describeAuthorization(attempt)}, expected an error redirect (${SILENT_ERRORS.join(", ")})`, attempt.exchange, "prompt=none without a session");
  }
}

async function pkceEnforcement(flow: Flow): Promise<void> {
  const { session } = flow;
  const problems: string[] = [];
  let last: Exchange | undefined;
  for (const [what, verifier] of [["without the code_verifier", undefined], ["with a wrong code_verifier", base64url(randomBytes(32))]] as const) {
    const grant = await authorize(flow, { scope: "openid", purpose: "authorize with PKCE" });
    if (grant.kind !== "code") {
      session.skippedChecks.set("pkce_enforcement", `could not get a code again: ${describeAuthorization(grant)}`);
      return;
    }
    last = await exchangeCode(session, codeFields(session, grant, { code_verifier: verifier }), `exchange a PKCE code ${what}`);
    if (!refused(last)) problems.push(`a code issued for a S256 challenge was exchanged ${what} (${describe(last)})`);
  }
  session.record("pkce_enforcement", "exchangeToken", problems.join("; "), last, "PKCE code exchanges that must fail");
}

async function redirectUriMismatch(flow: Flow): Promise<void> {
  const { session } = flow;
  const problems: string[] = [];
  const unregistered = `${session.options.credentials.redirectUri!.replace(/\/$/, "")}/conformance-not-registered`;
  const attempt = await authorize(flow, { scope: "openid", redirectUri: unregistered, purpose: "authorize with an unregistered redirect_uri" });
  if (attempt.kind !== "failed") problems.push(`the provider redirected (${describeAuthorization(attempt)}) to the unregistered redirect_uri ${unregistered}`);
  let last = attempt.exchange;
  const grant = await authorize(flow, { scope: "openid", purpose: "authorize" });
  if (grant.kind === "code") {
    last = await exchangeCode(session, codeFields(session, grant, { redirect_uri: unregistered }), "exchange a code with another redirect_uri");
    if (!refused(last)) problems.push(`a code was exchanged with another redirect_uri than the one it was issued for (${describe(last)})`);
  }
  session.record("redirect_uri_mismatch", "exchangeToken", problems.join("; "), last, "redirect_uri that must be refused");
}

/** auth_time of the id_token a code brings, after exchanging it. */
async function authTimeOf(session: Session, grant: CodeGrant, label: string): Promise<{ authTime?: number; exchange: Exchange; problem?: string }> {
  const result = await tokensFor(session, grant, label);
  if (!result.tokens) return { exchange: result.exchange, problem: `the code was refused: ${describe(result.exchange)}` };
  const claims = typeof result.tokens.id_token === "string" ? decodeJwt(result.tokens.id_token) : undefined;
  return { exchange: result.exchange, authTime: typeof claims?.auth_time === "number" ? claims.auth_time : undefined };
}

async function promptLogin(flow: Flow, firstSignIn: number): Promise<void> {
  const { session, driver } = flow;
  // auth_time counts seconds: the new sign-in must happen in a later second than the first one.
  await sleep(1100, session.options.signal);
  const before = Math.floor(Date.now() / 1000);
  const attempt = await authorize(flow, { scope: "openid", extra: { prompt: "login" }, purpose: "authorize with prompt=login (sign in again)" });
  const problems: string[] = [];
  let exchange = attempt.exchange;
  if (attempt.kind !== "code") problems.push(`prompt=login got ${describeAuthorization(attempt)}`);
  else {
    if (driver.name !== "manual" && attempt.navigation.pages === 0) problems.push("prompt=login returned a code without showing the sign-in again");
    const result = await authTimeOf(session, attempt, "exchange the code of prompt=login");
    exchange = result.exchange;
    if (result.problem) problems.push(result.problem);
    else if (result.authTime !== undefined && result.authTime < before - 1) problems.push(`the id_token's auth_time ${result.authTime} is that of the earlier sign-in (about ${firstSignIn}), not of the new one`);
    else if (result.authTime === undefined && driver.name === "manual") problems.push("the id_token carries no auth_time, so a re-authentication cannot be told");
  }
  session.record("prompt_login", "authorize", problems.join("; "), exchange, "prompt=login");
}

async function maxAge(flow: Flow): Promise<void> {
  const { session, driver } = flow;
  // The session must be older than max_age=1 second.
  await sleep(2100, session.options.signal);
  const before = Math.floor(Date.now() / 1000);
  const attempt = await authorize(flow, { scope: "openid", extra: { max_age: "1" }, purpose: "authorize with max_age=1 (sign in again)" });
  const problems: string[] = [];
  let exchange = attempt.exchange;
  if (attempt.kind !== "code") problems.push(`max_age=1 got ${describeAuthorization(attempt)}`);
  else {
    if (driver.name !== "manual" && attempt.navigation.pages === 0) problems.push("max_age=1 on a session older than a second returned a code without signing in again");
    const result = await authTimeOf(session, attempt, "exchange the code of max_age=1");
    exchange = result.exchange;
    if (result.problem) problems.push(result.problem);
    else if (result.authTime === undefined) problems.push("the id_token of a request with max_age carries no auth_time (OpenID Connect Core §2)");
    else if (result.authTime < before - 1) problems.push(`the id_token's auth_time ${result.authTime} is older than max_age allows (the request was sent at ${before})`);
  }
  session.record("max_age", "authorize", problems.join("; "), exchange, "max_age=1");
}

async function refreshTokens(flow: Flow): Promise<void> {
  const { session } = flow;
  const { credentials } = session.options;
  const record = (problem: string, exchange: Exchange, label: string) => session.record("refresh_token_offline_access", "exchangeToken", problem, exchange, label);
  const attempt = await authorize(flow, { scope: "openid offline_access", purpose: "authorize with offline_access" });
  if (attempt.kind !== "code") return record(`an authorization request with offline_access got ${describeAuthorization(attempt)}`, attempt.exchange, "authorize with offline_access");
  const { exchange, tokens } = await tokensFor(session, attempt, "exchange a code with offline_access");
  if (!tokens) return record(`the code of a request with offline_access was refused: ${describe(exchange)}`, exchange, "exchange a code with offline_access");
  if (typeof tokens.refresh_token !== "string") return record("no refresh token was issued for the offline_access scope", exchange, "exchange a code with offline_access");
  const refreshed = await exchangeCode(session, { grant_type: "refresh_token", refresh_token: tokens.refresh_token, client_id: credentials.clientId, client_secret: credentials.clientSecret }, "refresh grant");
  const access = (refreshed.response?.json as { access_token?: unknown } | undefined)?.access_token;
  if (refreshed.response?.status !== 200 || typeof access !== "string") return record(`the refresh grant was refused: ${describe(refreshed)}`, refreshed, "refresh grant");
  const read = await readUserinfo(flow, access);
  record(read.response?.status === 200 ? "" : `the access token of the refresh grant does not read userinfo (status ${read.response?.status ?? read.error})`, read, "userinfo with a refreshed access token");
}

async function logout(flow: Flow): Promise<void> {
  const { session, driver, document } = flow;
  const { checks, credentials } = session.options;
  const wanted = ["logout_post_redirect", "logout_open_redirect", "logout_ends_session"].filter((c) => checks.has(c));
  if (wanted.length === 0 || session.aborted) return;
  const registered = session.options.identity?.postLogoutRedirectUri;
  if (!registered) {
    for (const check of wanted) session.skippedChecks.set(check, "needs --post-logout-redirect-uri (registered for the client)");
    return;
  }
  const endpoint = document.end_session_endpoint ?? `${session.options.baseUrl}/api/logout`;
  // A live session and an id_token to hint with, as a relying party has when its user signs out.
  const hint = async (): Promise<string | undefined> => {
    const grant = await authorize(flow, { scope: "openid", purpose: "sign in before signing out" });
    if (grant.kind !== "code") return undefined;
    const result = await tokensFor(session, grant, "exchange a code before signing out");
    return typeof result.tokens?.id_token === "string" ? result.tokens.id_token : undefined;
  };
  const logoutUrl = (idToken: string, postLogout: string, state: string) => `${endpoint}?${new URLSearchParams({ id_token_hint: idToken, client_id: credentials.clientId!, post_logout_redirect_uri: postLogout, state })}`;
  let idToken = await hint();
  if (!idToken) {
    for (const check of wanted) session.skippedChecks.set(check, "could not sign in again to get an id_token to sign out with");
    return;
  }

  if (checks.has("logout_open_redirect")) {
    const elsewhere = "https://conformance-open-redirect.invalid/after-logout";
    const url = logoutUrl(idToken, elsewhere, newState());
    const navigation = await driver.navigate(url, { until: (next) => sameEndpoint(next, elsewhere), purpose: "sign out with an unregistered post_logout_redirect_uri (it must be refused)" });
    session.record("logout_open_redirect", "logout", navigation.arrived ? `logout sent the browser to ${elsewhere}, which is not registered for the client (an open redirect)` : "", navigationExchange(url, navigation, navigation.arrived), "logout with an unregistered post_logout_redirect_uri");
    idToken = (await hint()) ?? idToken;
  }

  const state = newState();
  const url = logoutUrl(idToken, registered, state);
  const navigation = await driver.navigate(url, { until: (next) => sameEndpoint(next, registered), purpose: "sign out (RP-initiated logout)" });
  const exchange = navigationExchange(url, navigation, navigation.arrived);
  const returned = navigation.arrived?.searchParams.get("state");
  session.record("logout_post_redirect", "logout", !navigation.arrived ? `logout did not send the browser to the registered post_logout_redirect_uri: ${navigation.failure}` : returned === state ? "" : returned == null ? "the post-logout redirect carries no state, though one was sent" : "the post-logout redirect carries another state than the one sent", exchange, "logout with the registered post_logout_redirect_uri");
  if (!checks.has("logout_ends_session")) return;
  if (!navigation.arrived) {
    session.skippedChecks.set("logout_ends_session", "the logout did not complete, see logout_post_redirect");
    return;
  }
  const after = await authorize(flow, { scope: "openid", extra: { prompt: "none" }, interactive: false, purpose: "authorize with prompt=none after signing out" });
  session.record("logout_ends_session", "logout", after.kind === "code" ? "prompt=none still got a code after the logout: the session was not ended" : "", after.exchange, "prompt=none after logout");
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

async function checkIdToken(session: Session, document: Record<string, any>, tokens: Record<string, any>, grant: CodeGrant, exchange: Exchange): Promise<unknown> {
  const { credentials, baseUrl } = session.options;
  const record = (problem: string) => session.record("id_token_signature_and_claims", "exchangeToken", problem, exchange, "the id_token of a fresh code");
  if (typeof tokens.id_token !== "string") return record("the token response for scope openid carries no id_token");
  const jwksResponse = await session.transport.send({ method: "GET", url: document.jwks_uri ?? `${baseUrl}/.well-known/jwks`, headers: {} });
  const jwks = jwksResponse.response?.json as JSONWebKeySet | undefined;
  if (!jwks?.keys) return record("the JWKS could not be read to verify the id_token");
  try {
    const payload = await verifyIdToken(tokens.id_token, jwks, { issuer: baseUrl, audience: credentials.clientId!, clockTolerance: 60 });
    const problems: string[] = [];
    if (payload.nonce !== grant.nonce) problems.push(`nonce is ${String(payload.nonce)}, not the one sent`);
    if (typeof payload.iat !== "number" || payload.iat > Date.now() / 1000 + 60) problems.push("iat is missing or in the future");
    if (typeof payload.exp !== "number") problems.push("exp is missing");
    const schema = validateAt("identity", "/components/schemas/IdTokenClaims", payload);
    if (!schema.valid) problems.push(`the claims do not match IdTokenClaims: ${describeErrors(schema.errors)}`);
    record(problems.join("; "));
    return payload.sub;
  } catch (error) {
    record(`the id_token does not verify: ${(error as Error).message}`);
    return undefined;
  }
}

/** at_hash (OpenID Connect Core §3.1.3.6): the left half of the hash of the access token, for RS256 SHA-256. */
function checkAtHash(session: Session, tokens: Record<string, any>, exchange: Exchange): void {
  if (typeof tokens.id_token !== "string") return;
  const claims = decodeJwt(tokens.id_token);
  if (claims.at_hash === undefined) return session.record("id_token_at_hash", "exchangeToken", "", exchange, "the id_token's at_hash (absent, which code flow allows)");
  const digest = createHash("sha256").update(String(tokens.access_token)).digest();
  const expected = base64url(digest.subarray(0, digest.length / 2));
  session.record("id_token_at_hash", "exchangeToken", claims.at_hash === expected ? "" : `at_hash is ${String(claims.at_hash)}, the access token's is ${expected}`, exchange, "the id_token's at_hash");
}

function userinfoUrl(flow: Flow): string {
  return flow.document.userinfo_endpoint ?? `${flow.session.options.baseUrl}/api/userinfo`;
}

async function readUserinfo(flow: Flow, token: string): Promise<Exchange> {
  return flow.session.transport.send({ method: "GET", url: userinfoUrl(flow), headers: { Authorization: `Bearer ${token}` } });
}

async function userinfoByScope(flow: Flow, accessToken: string, grantedScope: string, idTokenSub: unknown): Promise<void> {
  const { session } = flow;
  const scopesOf = claimScopes();
  const model = session.model("getUserInfo");
  const problems: string[] = [];
  const missingScopes: string[] = [];
  let last: Exchange | undefined;
  const read = async (token: string, scope: string) => {
    const exchange = await readUserinfo(flow, token);
    session.observations.observe(model, exchange);
    session.check(model, exchange, "valid", `userinfo for scope ${scope}`);
    last = exchange;
    const claims = exchange.response?.json as Record<string, unknown> | undefined;
    if (exchange.response?.status !== 200 || !claims) {
      problems.push(`userinfo for scope "${scope}" answered ${exchange.response?.status ?? exchange.error}`);
      return undefined;
    }
    const granted = new Set(scope.split(" "));
    const leaked = Object.keys(claims).filter((claim) => scopesOf.has(claim) && !granted.has(scopesOf.get(claim)!));
    if (leaked.length) problems.push(`scope "${scope}" released ${leaked.join(", ")}`);
    for (const claim of ["sub", "iss", "aud"]) if (claims[claim] === undefined) problems.push(`userinfo for scope "${scope}" lacks ${claim}`);
    for (const grantedScope of granted) {
      const ofScope = [...scopesOf].filter(([, s]) => s === grantedScope).map(([claim]) => claim);
      if (ofScope.length > 0 && !ofScope.some((claim) => claims[claim] !== undefined)) missingScopes.push(`scope "${grantedScope}" was granted but userinfo returns none of ${ofScope.join(", ")}`);
    }
    return claims;
  };
  const claims = await read(accessToken, grantedScope);
  if (claims && idTokenSub !== undefined && claims.sub !== idTokenSub) problems.push(`userinfo sub ${String(claims.sub)} differs from the id_token's ${String(idTokenSub)}`);
  session.record("granted_scope_claims", "getUserInfo", missingScopes.join("; "), last, `userinfo for scope ${grantedScope}`);
  const narrow = await authorize(flow, { scope: "openid", purpose: "authorize with scope openid only" });
  if (narrow.kind === "code") {
    const exchange = await exchangeCode(session, codeFields(session, narrow), "exchange a code for scope openid");
    const token = (exchange.response?.json as { access_token?: unknown } | undefined)?.access_token;
    if (typeof token === "string") await read(token, "openid");
  }
  session.record("userinfo_by_scope", "getUserInfo", problems.join("; "), last, "userinfo by scope");
}

/** GET and POST with the token in the header (RFC 6750 §2.1) and POST with it in the form body (§2.2). */
async function userinfoMethods(flow: Flow, accessToken: string): Promise<void> {
  const { session } = flow;
  const url = userinfoUrl(flow);
  const ways: Array<[string, Parameters<Session["transport"]["send"]>[0]]> = [
    ["GET with the Authorization header", { method: "GET", url, headers: { Authorization: `Bearer ${accessToken}` } }],
    ["POST with the Authorization header", { method: "POST", url, headers: { Authorization: `Bearer ${accessToken}` } }],
    ["POST with access_token in the form body", { method: "POST", url, headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ access_token: accessToken }).toString() }],
  ];
  const problems: string[] = [];
  let subject: unknown;
  let last: Exchange | undefined;
  for (const [what, request] of ways) {
    const exchange = await session.transport.send(request);
    const claims = exchange.response?.json as Record<string, unknown> | undefined;
    if (exchange.response?.status !== 200 || !claims || typeof claims !== "object") {
      problems.push(`userinfo by ${what} answered ${exchange.response?.status ?? exchange.error}`);
      last = exchange;
      continue;
    }
    last ??= exchange;
    if (subject === undefined) subject = claims.sub;
    else if (claims.sub !== subject) problems.push(`userinfo by ${what} returned sub ${String(claims.sub)}, not ${String(subject)}`);
  }
  session.record("userinfo_methods", "getUserInfo", problems.join("; "), last, "userinfo by GET and POST");
}
