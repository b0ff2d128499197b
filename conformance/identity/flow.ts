// The shared steps of every flow check: sending the browser (a sign-in driver) to the authorization endpoint and
// reading what comes back to the redirect_uri, and exchanging codes at the token endpoint. The endpoints are the
// discovery document's, as an OpenID Connect client follows them.
import { createHash, randomBytes } from "node:crypto";
import type { RequestCase } from "../plan/cases.js";
import type { Session } from "../send/session.js";
import type { Navigation, SignInDriver } from "../sign-in/driver.js";
import type { Exchange } from "../send/transport.js";
import { type IdentityOperationId, identityOperationPath } from "./paths.js";
import { verdictOf } from "../judge/verdict.js";

/** The discovery document's members the checks read; a provider may send anything, so each is checked before use. */
export type DiscoveryDocument = Record<string, unknown>;

/** One run's way through the provider: the session, the driver and the discovery document. */
export interface Flow {
  session: Session;
  driver: SignInDriver;
  document: DiscoveryDocument;
  /** The first sign-in's id_token, sent as id_token_hint where OpenID Connect Core §3.1.2.1 says it SHOULD be. */
  idTokenHint?: string;
}

/** A token response, as JSON; each member is checked before use. */
export type TokenResponse = Record<string, unknown> & { access_token: string };

export interface CodeGrant {
  code: string;
  verifier?: string;
  nonce?: string;
  scope: string;
  redirectUri: string;
}

export type Authorization =
  | ({ kind: "code"; navigation: Navigation; exchange: Exchange } & CodeGrant)
  | { kind: "error"; error: string; description: string; navigation: Navigation; exchange: Exchange }
  | { kind: "failed"; failure: string; navigation: Navigation; exchange: Exchange };

export const base64url = (bytes: Buffer) => bytes.toString("base64url");
export const newState = () => base64url(randomBytes(12));

/** A JSON body as an object, or undefined. */
export const jsonObject = (value: unknown): Record<string, unknown> | undefined =>
  value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;

/** The discovery document's member for one endpoint, or the contract's path under the base address when absent. */
export function endpointOf(
  session: Session,
  document: DiscoveryDocument,
  member: string,
  operationId: IdentityOperationId,
): string {
  const advertised = document[member];
  return typeof advertised === "string"
    ? advertised
    : `${session.options.baseUrl.replace(/\/$/, "")}${identityOperationPath(operationId)}`;
}

/** An exchange standing for a driver's navigation, so that a failure's report and curl reproduction show the URL. */
export function navigationExchange(url: string, navigation?: Navigation, arrived?: URL): Exchange {
  const response: Exchange["response"] = navigation?.lastPage
    ? {
        status: navigation.lastPage.status ?? 200,
        headers: {},
        text: navigation.lastPage.text,
        json: undefined,
        isJson: false,
        setCookies: [],
      }
    : arrived
      ? { status: 302, headers: { location: arrived.href }, text: "", json: undefined, isJson: false, setCookies: [] }
      : undefined;
  return {
    request: { method: "GET", url, headers: {} },
    ...(response ? { response } : {}),
    ...(navigation?.failure ? { error: navigation.failure } : {}),
    durationMs: 0,
    receivedAt: Date.now(),
  };
}

/** Whether `url` is `target` (same origin and path; the query may carry the response). */
export const sameEndpoint = (url: URL, target: string) => {
  const wanted = new URL(target);
  return url.origin === wanted.origin && url.pathname === wanted.pathname;
};

export interface AuthorizeOptions {
  scope: string;
  purpose: string;
  /** "S256" (default), "plain", or none. */
  pkce?: "S256" | "plain" | false;
  nonce?: boolean;
  redirectUri?: string;
  extra?: Record<string, string>;
  interactive?: boolean;
}

interface AuthorizationRequest {
  url: URL;
  state: string;
  redirectUri: string;
  verifier?: string;
  nonce?: string;
}

function authorizationRequest(flow: Flow, options: AuthorizeOptions): AuthorizationRequest {
  const { credentials } = flow.session.options;
  const redirectUri = options.redirectUri ?? credentials.redirectUri ?? "";
  const verifier = options.pkce === false ? undefined : base64url(randomBytes(32));
  const challenge =
    verifier && (options.pkce === "plain" ? verifier : base64url(createHash("sha256").update(verifier).digest()));
  const nonce = options.nonce === false ? undefined : base64url(randomBytes(12));
  const state = newState();
  const url = new URL(endpointOf(flow.session, flow.document, "authorization_endpoint", "authorize"));
  const params: Record<string, string> = {
    response_type: "code",
    client_id: credentials.clientId ?? "",
    redirect_uri: redirectUri,
    scope: options.scope,
    state,
  };
  if (nonce) params.nonce = nonce;
  if (challenge)
    Object.assign(params, {
      code_challenge: challenge,
      code_challenge_method: options.pkce === "plain" ? "plain" : "S256",
    });
  url.search = new URLSearchParams({ ...params, ...options.extra }).toString();
  return { url, state, redirectUri, verifier, nonce };
}

/** Sends the browser to the authorization endpoint and reads what comes back to the redirect_uri (state checked). */
export async function authorize(flow: Flow, options: AuthorizeOptions): Promise<Authorization> {
  const { session, driver } = flow;
  const { url, state, redirectUri, verifier, nonce } = authorizationRequest(flow, options);
  const navigation = await driver.navigate(url.href, {
    until: (next) => sameEndpoint(next, redirectUri),
    interactive: options.interactive,
    purpose: options.purpose,
  });
  const exchange = navigationExchange(url.href, navigation, navigation.arrived);
  if (!navigation.arrived)
    return {
      kind: "failed",
      failure: navigation.failure ?? "the provider did not send the browser back",
      navigation,
      exchange,
    };
  const back = navigation.arrived.searchParams;
  const code = back.get("code");
  if (code) session.secrets.add(code, "<authorization code>");
  const returned = back.get("state");
  session.ledger.add(
    verdictOf(
      "state_echoed",
      "authorize",
      returned === state
        ? ""
        : returned === null
          ? `the provider came back to the redirect_uri (${back.has("code") ? "with a code" : `with error ${back.get("error")}`}) without the state sent (RFC 6749 §4.1.2, §4.1.2.1)`
          : "the provider came back to the redirect_uri with another state than the one sent (RFC 6749 §4.1.2, §4.1.2.1)",
      exchange,
      options.purpose,
    ),
  );
  if (code) {
    return { kind: "code", code, verifier, nonce, scope: options.scope, redirectUri, navigation, exchange };
  }
  return {
    kind: "error",
    error: back.get("error") ?? "(no code and no error)",
    description: back.get("error_description") ?? "",
    navigation,
    exchange,
  };
}

export const describeAuthorization = (a: Authorization) =>
  a.kind === "code"
    ? "a code"
    : a.kind === "error"
      ? `error ${a.error}${a.description ? ` (${a.description})` : ""}`
      : a.failure;

export async function exchangeCode(
  session: Session,
  fields: Record<string, string | undefined>,
  label: string,
): Promise<Exchange> {
  const model = session.model("exchangeToken");
  const body = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
  const requestCase: RequestCase = { origin: "example", label, path: {}, query: {}, headers: {}, body };
  const exchange = await session.send(model, requestCase);
  session.judge.exchange(model, exchange, "any", label);
  const tokens = jsonObject(exchange.response?.json);
  for (const name of ["access_token", "refresh_token", "id_token"]) {
    const value = tokens?.[name];
    if (typeof value === "string") session.secrets.add(value, `<${name}>`);
  }
  return exchange;
}

export function codeFields(
  session: Session,
  grant: CodeGrant,
  overrides: Record<string, string | undefined> = {},
): Record<string, string | undefined> {
  const { credentials } = session.options;
  return {
    grant_type: "authorization_code",
    code: grant.code,
    redirect_uri: grant.redirectUri,
    client_id: credentials.clientId,
    client_secret: credentials.clientSecret,
    code_verifier: grant.verifier,
    ...overrides,
  };
}

/** Exchanges a code properly; the tokens when the provider issued them. */
export async function tokensFor(
  session: Session,
  grant: CodeGrant,
  label: string,
): Promise<{ exchange: Exchange; tokens?: TokenResponse }> {
  const exchange = await exchangeCode(session, codeFields(session, grant), label);
  const tokens = jsonObject(exchange.response?.json);
  return exchange.response?.status === 200 && typeof tokens?.access_token === "string"
    ? { exchange, tokens: tokens as TokenResponse }
    : { exchange };
}

const oauthError = (exchange: Exchange) => jsonObject(exchange.response?.json)?.error;

/**
 * A token request refused: any 4xx without an access token. Which status and error code is token_errors' to judge
 * (RFC 6749 §5.2); a code refused with 403 and another code was still not accepted.
 */
export const refused = (exchange: Exchange) => {
  const status = exchange.response?.status ?? 0;
  return status >= 400 && status < 500 && typeof jsonObject(exchange.response?.json)?.access_token !== "string";
};

/** A token request refused with this RFC 6749 §5.2 error code (a 4xx carrying it): what token_errors judges. */
export const refusedWith = (exchange: Exchange, error: string) => refused(exchange) && oauthError(exchange) === error;
export const describe = (exchange: Exchange) => {
  const error = oauthError(exchange);
  return exchange.response
    ? `status ${exchange.response.status}${error ? ` ${shown(error)}` : ""}`
    : `no response (${exchange.error})`;
};

/** A value for a problem message: strings as they are, anything else as JSON. */
export const shown = (value: unknown) => (typeof value === "string" ? value : JSON.stringify(value));
