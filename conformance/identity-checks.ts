// OpenID Connect provider checks for identity: discovery and JWKS need nothing; the flow checks (token errors, PKCE,
// code reuse, redirect_uri, id_token, userinfo by scope) need a registered client and a way to sign in. The runner
// signs in like a browser: it follows the authorize redirects with a cookie jar and submits the provider's HTML
// sign-in (and consent) forms, filling the fields named by --sign-in.
import { createHash, randomBytes } from "node:crypto";
import { createLocalJWKSet, type JSONWebKeySet, jwtVerify } from "jose";
import { loadBundle, validateAt, describeErrors } from "../lib/openapi.js";
import type { RequestCase } from "./cases.js";
import type { Session } from "./session.js";
import type { Exchange } from "./transport.js";

/** The contract's paths of the provider's endpoints, as the discovery document must name them. */
const ENDPOINT_PATHS: Record<string, string> = {
  authorization_endpoint: "/login/oauth/authorize",
  token_endpoint: "/api/login/oauth/access_token",
  userinfo_endpoint: "/api/userinfo",
  jwks_uri: "/.well-known/jwks",
  end_session_endpoint: "/api/logout",
};

const REQUIRED_DISCOVERY_FIELDS = ["issuer", "authorization_endpoint", "token_endpoint", "jwks_uri", "response_types_supported", "subject_types_supported", "id_token_signing_alg_values_supported"];

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
    session.record("discovery_fields_and_issuer", "getOpenIdConfiguration", `no JSON discovery document (status ${exchange.response?.status ?? exchange.error})`, exchange, "discovery document");
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
  if (Array.isArray(document.code_challenge_methods_supported) && !document.code_challenge_methods_supported.includes("S256")) problems.push("code_challenge_methods_supported lacks S256");
  session.record("discovery_fields_and_issuer", "getOpenIdConfiguration", problems.join("; "), exchange, "discovery document");
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

interface CodeGrant {
  code: string;
  verifier?: string;
  nonce: string;
  scope: string;
  redirectUri: string;
}

const base64url = (bytes: Buffer) => bytes.toString("base64url");

/** A minimal HTML form reader: the forms of a page with their action, method and named fields. */
function forms(html: string): Array<{ action: string; method: string; fields: Array<{ name: string; value: string; type: string }> }> {
  const attribute = (tag: string, name: string) => new RegExp(`\\s${name}\\s*=\\s*("([^"]*)"|'([^']*)'|([^\\s>]+))`, "i").exec(tag)?.slice(2).find((v) => v !== undefined);
  const decode = (text: string) => text.replace(/&amp;/g, "&").replace(/&quot;/g, '"').replace(/&#(\d+);/g, (_m, code: string) => String.fromCharCode(Number(code))).replace(/&lt;/g, "<").replace(/&gt;/g, ">");
  return [...html.matchAll(/<form\b([^>]*)>([\s\S]*?)<\/form>/gi)].map(([, attributes, inner]) => ({
    action: decode(attribute(`<form ${attributes}`, "action") ?? ""),
    method: (attribute(`<form ${attributes}`, "method") ?? "get").toLowerCase(),
    fields: [...inner!.matchAll(/<(input|button)\b[^>]*>/gi)]
      .map(([tag]) => ({ name: attribute(tag, "name"), value: decode(attribute(tag, "value") ?? ""), type: (attribute(tag, "type") ?? "text").toLowerCase() }))
      .filter((field): field is { name: string; value: string; type: string } => field.name !== undefined),
  }));
}

class Browser {
  private readonly cookies = new Map<string, string>();
  constructor(private readonly session: Session) {}

  async get(url: string, init: { method?: string; body?: string; headers?: Record<string, string> } = {}): Promise<Exchange> {
    const headers: Record<string, string> = { ...init.headers, Accept: "text/html,application/json" };
    if (this.cookies.size) headers.Cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
    const exchange = await this.session.transport.send({ method: init.method ?? "GET", url, headers, ...(init.body !== undefined ? { body: init.body } : {}) });
    for (const cookie of exchange.response?.setCookies ?? []) {
      const [pair] = cookie.split(";");
      const index = pair!.indexOf("=");
      if (index > 0) this.cookies.set(pair!.slice(0, index).trim(), pair!.slice(index + 1).trim());
    }
    return exchange;
  }
}

/** Signs in through the provider's pages and returns the code sent to the redirect_uri (or why there is none). */
async function signIn(session: Session, discovery: Record<string, any>, scope: string, options: { pkce?: boolean; redirectUri?: string } = {}): Promise<CodeGrant | { failure: string; exchange?: Exchange }> {
  const { credentials } = session.options;
  const redirectUri = options.redirectUri ?? credentials.redirectUri!;
  const verifier = options.pkce === false ? undefined : base64url(randomBytes(32));
  const nonce = base64url(randomBytes(12));
  const state = base64url(randomBytes(12));
  const url = new URL(discovery.authorization_endpoint ?? `${session.options.baseUrl}/login/oauth/authorize`);
  url.search = new URLSearchParams({ response_type: "code", client_id: credentials.clientId!, redirect_uri: redirectUri, scope, state, nonce, ...(verifier ? { code_challenge: base64url(createHash("sha256").update(verifier).digest()), code_challenge_method: "S256" } : {}) }).toString();
  const browser = new Browser(session);
  let exchange = await browser.get(url.href);
  for (let step = 0; step < 12; step++) {
    const response = exchange.response;
    if (!response) return { failure: `no response: ${exchange.error}`, exchange };
    const location = response.headers.location;
    if (response.status >= 300 && response.status < 400 && location) {
      const next = new URL(location, exchange.request.url);
      if (next.href.startsWith(redirectUri)) {
        const code = next.searchParams.get("code");
        if (!code) return { failure: `the provider redirected back without a code: ${next.searchParams.get("error") ?? "no error"} ${next.searchParams.get("error_description") ?? ""}`.trim(), exchange };
        if (next.searchParams.get("state") !== state) return { failure: "the provider returned another state than the one sent", exchange };
        session.secrets.add(code, "<authorization code>");
        return { code, verifier, nonce, scope, redirectUri };
      }
      exchange = await browser.get(next.href);
      continue;
    }
    const form = forms(response.text);
    const wanted = Object.keys(credentials.signIn ?? {});
    const chosen = form.find((f) => wanted.length > 0 && wanted.every((name) => f.fields.some((field) => field.name === name))) ?? form[0];
    if (response.status !== 200 || !chosen) return { failure: `signing in stopped at status ${response.status} without a form to submit`, exchange };
    const fields = new URLSearchParams();
    for (const field of chosen.fields) {
      if ((field.type === "checkbox" || field.type === "radio") && !field.value) continue;
      fields.append(field.name, credentials.signIn?.[field.name] ?? field.value);
    }
    const action = new URL(chosen.action || exchange.request.url, exchange.request.url);
    exchange =
      chosen.method === "post"
        ? await browser.get(action.href, { method: "POST", body: fields.toString(), headers: { "Content-Type": "application/x-www-form-urlencoded" } })
        : await browser.get(`${action.origin}${action.pathname}?${fields}`);
  }
  return { failure: "signing in took more than 12 steps", exchange };
}

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
  const discovery = selected("getOpenIdConfiguration", "authorize", "exchangeToken", "getUserInfo") && checks.has("discovery_fields_and_issuer") ? await checkDiscovery(session) : undefined;
  if (selected("getJwks") && checks.has("jwks_shape")) await checkJwks(session);

  const flowChecks = ["token_errors", "pkce_enforcement", "code_reuse", "redirect_uri_mismatch", "id_token_signature_and_claims", "userinfo_by_scope"].filter((c) => checks.has(c));
  if (!selected("authorize", "exchangeToken", "getUserInfo") || flowChecks.length === 0) return;
  const missing = (["clientId", "clientSecret", "redirectUri"] as const).filter((k) => !credentials[k]);
  const CREDENTIAL_FLAGS = { clientId: "--client-id (IDENTITY_CLIENT_ID)", clientSecret: "--client-secret (IDENTITY_CLIENT_SECRET)", redirectUri: "--redirect-uri (IDENTITY_REDIRECT_URI)" };
  if (missing.length) {
    for (const check of flowChecks) session.cannotRun(check, `needs ${missing.map((k) => CREDENTIAL_FLAGS[k]).join(", ")}`);
    return;
  }
  if (checks.has("token_errors")) await tokenErrors(session);

  const document = discovery?.document ?? ((await session.transport.send({ method: "GET", url: `${session.options.baseUrl}/.well-known/openid-configuration`, headers: {} })).response?.json as Record<string, any> | undefined) ?? {};
  const skipAll = (reason: string) => {
    for (const check of flowChecks) if (check !== "token_errors" && !session.tallies.has(check)) session.cannotRun(check, reason);
  };
  const first = await signIn(session, document, "openid profile email");
  if ("failure" in first) {
    skipAll(`could not sign in to get an authorization code (${first.failure}); pass the sign-in form's fields with --sign-in name=value`);
    return;
  }

  // The first code is exchanged properly; its tokens serve the id_token and userinfo checks before code_reuse
  // replays the code (a provider should then revoke those tokens, RFC 6749 §4.1.2).
  const tokensExchange = await exchangeCode(session, codeFields(session, first), "exchange a fresh code");
  const tokens = tokensExchange.response?.json as Record<string, any> | undefined;
  if (tokensExchange.response?.status !== 200 || typeof tokens?.access_token !== "string") {
    session.record("code_reuse", "exchangeToken", `a fresh code with its verifier was refused: ${describe(tokensExchange)}`, tokensExchange, "exchange a fresh code");
    skipAll("the provider refused a fresh code with its verifier, see code_reuse");
    return;
  }
  let idTokenSub: unknown;
  if (checks.has("id_token_signature_and_claims")) idTokenSub = await checkIdToken(session, document, tokens, first, tokensExchange);
  if (checks.has("userinfo_by_scope")) await userinfoByScope(session, document, tokens.access_token, first.scope, idTokenSub);
  if (checks.has("code_reuse")) {
    const again = await exchangeCode(session, codeFields(session, first), "exchange the same code again");
    session.record("code_reuse", "exchangeToken", refused(again) ? "" : `the code was accepted a second time (${describe(again)})`, again, "exchange the same code again");
  }

  if (checks.has("pkce_enforcement")) {
    const problems: string[] = [];
    let last: Exchange | undefined;
    for (const [what, verifier] of [["without the code_verifier", undefined], ["with a wrong code_verifier", base64url(randomBytes(32))]] as const) {
      const grant = await signIn(session, document, "openid");
      if ("failure" in grant) return skipAll(`could not sign in again: ${grant.failure}`);
      last = await exchangeCode(session, codeFields(session, grant, { code_verifier: verifier }), `exchange a PKCE code ${what}`);
      if (!refused(last)) problems.push(`a code issued for a S256 challenge was exchanged ${what} (${describe(last)})`);
    }
    session.record("pkce_enforcement", "exchangeToken", problems.join("; "), last, "PKCE code exchanges that must fail");
  }

  if (checks.has("redirect_uri_mismatch")) {
    const problems: string[] = [];
    const unregistered = `${credentials.redirectUri!.replace(/\/$/, "")}/conformance-not-registered`;
    const attempt = await signIn(session, document, "openid", { redirectUri: unregistered });
    const probe = "exchange" in attempt ? attempt.exchange : undefined;
    if (!("failure" in attempt)) problems.push(`the provider redirected to the unregistered redirect_uri ${unregistered}`);
    else if (probe?.response?.headers.location?.startsWith(unregistered)) problems.push(`the provider redirected an error to the unregistered redirect_uri ${unregistered}`);
    const grant = await signIn(session, document, "openid");
    let last = probe;
    if (!("failure" in grant)) {
      last = await exchangeCode(session, codeFields(session, grant, { redirect_uri: unregistered }), "exchange a code with another redirect_uri");
      if (!refused(last)) problems.push(`a code was exchanged with another redirect_uri than the one it was issued for (${describe(last)})`);
    }
    session.record("redirect_uri_mismatch", "exchangeToken", problems.join("; "), last, "redirect_uri that must be refused");
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
    const { payload } = await jwtVerify(tokens.id_token, createLocalJWKSet(jwks), { issuer: baseUrl, audience: credentials.clientId!, clockTolerance: 60 });
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

async function userinfoByScope(session: Session, document: Record<string, any>, accessToken: string, grantedScope: string, idTokenSub: unknown): Promise<void> {
  const scopesOf = claimScopes();
  const model = session.model("getUserInfo");
  const problems: string[] = [];
  let last: Exchange | undefined;
  const read = async (token: string, scope: string) => {
    const exchange = await session.transport.send({ method: "GET", url: document.userinfo_endpoint ?? `${session.options.baseUrl}/api/userinfo`, headers: { Authorization: `Bearer ${token}` } });
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
    return claims;
  };
  const claims = await read(accessToken, grantedScope);
  if (claims && idTokenSub !== undefined && claims.sub !== idTokenSub) problems.push(`userinfo sub ${String(claims.sub)} differs from the id_token's ${String(idTokenSub)}`);
  const narrow = await signIn(session, document, "openid");
  if (!("failure" in narrow)) {
    const exchange = await exchangeCode(session, codeFields(session, narrow), "exchange a code for scope openid");
    const token = (exchange.response?.json as { access_token?: unknown } | undefined)?.access_token;
    if (typeof token === "string") await read(token, "openid");
  }
  session.record("userinfo_by_scope", "getUserInfo", problems.join("; "), last, "userinfo by scope");
}
