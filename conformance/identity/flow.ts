// The shared steps of every flow: sending the browser (a sign-in driver) to the authorization endpoint and reading
// what comes back to the redirect_uri, exchanging codes at the token endpoint, reading userinfo. The endpoints are the
// discovery document's, as an OpenID Connect client follows them: the sender's urlOf (paths.ts resolves each
// operation once for the whole run). Requests go through the identity step's sender:
// `send` for the contract's operations, `sendAsIs` for what a flow builds itself (with the operation it is, when it is
// one: the judge gets it on arrival). Each step adds what it sent to the trail of the scenario it is part of.
import { createHash, randomBytes } from "node:crypto";
import type { RunContext } from "../context.js";
import { issuedTokens, jsonObject } from "./json.js";
import { hideSecretClaims, idTokenPayload } from "./secret-claims.js";
import { type Authorization, type CodeExchange, type CodeGrant } from "../model/identity-facts.js";
import type { ScenarioJudge } from "../model/scenario.js";
import type { Trail } from "../model/identity-scenarios.js";
import type { RequestCase } from "../model/cases.js";
import type { CaseSender } from "../send/sender.js";
import type { Exchange } from "../model/exchange.js";
import type { SignInDriver } from "../sign-in/driver.js";
import type { Navigation, SameSession, SessionStart } from "../model/identity-facts.js";
import { type IdentityOperationId } from "./paths.js";
import type { IssuedTokens } from "./issued-tokens.js";
import type { OpenedSessions } from "./sessions.js";

/**
 * The parts of a run the identity flows use: the facts and options, the identity step's sender and the judge (the
 * response checks of the contract's operations, run on what the flow expected).
 */
export interface IdentityParts {
  context: RunContext;
  send: CaseSender;
  judge: ScenarioJudge;
  /** The tokens the run obtained, revoked at its end (cleanup.ts). */
  tokens: IssuedTokens;
  /** The sessions the run opened, ended at its end (cleanup.ts). */
  sessions: OpenedSessions;
}

/** One run's way through the provider: the parts and the sign-in driver. */
export interface Flow extends IdentityParts {
  driver: SignInDriver;
  /** The first sign-in's id_token, sent as id_token_hint where OpenID Connect Core §3.1.2.1 says it SHOULD be. */
  idTokenHint?: string;
  /** The first sign-in's id_token's sub and auth_time, for the later id_tokens of its session. */
  session?: SessionStart;
}

/** The parts of a flow running one scenario, with the trail of what it sent so far. */
export const traced = <P extends IdentityParts>(parts: P): P & Trail => ({
  ...parts,
  exchanges: [],
  authorizations: [],
});

/** What a traced flow sent, for the scenario it returns. */
export const trailOf = ({ exchanges, authorizations }: Trail): Trail => ({ exchanges, authorizations });

/** Adds an exchange to the trail with the part it played in the scenario. */
export function addToTrail(
  trail: Trail,
  role: string,
  operationId: IdentityOperationId,
  label: string,
  exchange: Exchange,
): Exchange {
  trail.exchanges.push({ role, operationId, label, exchange });
  return exchange;
}

export const base64url = (bytes: Buffer) => bytes.toString("base64url");
export const newState = () => base64url(randomBytes(12));

/**
 * An exchange standing for a driver's navigation, so that a failure's report and curl reproduction show the URL (and
 * the form, for a navigation that starts with a POST).
 */
export function navigationExchange(url: string, navigation?: Navigation, arrived?: URL, form?: string): Exchange {
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
    request:
      form === undefined
        ? { method: "GET", url, headers: {} }
        : { method: "POST", url, headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: form },
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
  /** Parameters left out of the request, one fault at a time (response_type_missing). */
  omit?: string[];
  interactive?: boolean;
  /** Sent by POST as a form (OpenID Connect Core §3.1.2.1), not by GET with a query. */
  post?: boolean;
  /** The parameters in the reverse of their usual order (oidcc-alternate-happy-flow: no order may matter). */
  reversed?: boolean;
}

interface AuthorizationRequest {
  url: URL;
  /** The parameters as a form, when the request is a POST (`url` is then the endpoint as advertised). */
  form?: string;
  state: string;
  redirectUri: string;
  verifier?: string;
  nonce?: string;
}

function authorizationRequest(flow: Flow, options: AuthorizeOptions): AuthorizationRequest {
  const { credentials } = flow.context.options;
  const redirectUri = options.redirectUri ?? credentials.redirectUri ?? "";
  const verifier = options.pkce === false ? undefined : base64url(randomBytes(32));
  const challenge =
    verifier && (options.pkce === "plain" ? verifier : base64url(createHash("sha256").update(verifier).digest()));
  const nonce = options.nonce === false ? undefined : base64url(randomBytes(12));
  const state = newState();
  const url = new URL(flow.send.urlOf("authorize"));
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
  const entries = Object.entries({ ...params, ...options.extra }).filter(([name]) => !options.omit?.includes(name));
  if (options.reversed) entries.reverse();
  if (options.post) return { url, form: new URLSearchParams(entries).toString(), state, redirectUri, verifier, nonce };
  // A query the endpoint carries is kept (RFC 6749 §3.1).
  for (const [name, value] of entries) url.searchParams.set(name, value);
  return { url, state, redirectUri, verifier, nonce };
}

/**
 * Sends the browser to the authorization endpoint and reads what comes back to the redirect_uri; the attempt, with
 * the state it sent, joins the scenario's authorizations.
 */
export async function authorize(flow: Flow & Trail, options: AuthorizeOptions): Promise<Authorization> {
  const request = authorizationRequest(flow, options);
  const navigation = await flow.driver.navigate(request.url.href, {
    until: (next) => sameEndpoint(next, request.redirectUri),
    interactive: options.interactive,
    purpose: options.purpose,
    ...(request.form === undefined ? {} : { form: request.form }),
  });
  const exchange = navigationExchange(request.url.href, navigation, navigation.arrived, request.form);
  addToTrail(flow, "authorize", "authorize", options.purpose, exchange);
  const outcome = authorizationOutcome(flow.context, request, options.scope, navigation, exchange);
  const iss = {
    issuer: flow.send.discovered("issuer"),
    advertised: flow.send.discovered("authorization_response_iss_parameter_supported") === true,
  };
  flow.authorizations.push({ purpose: options.purpose, state: request.state, outcome, iss });
  return outcome;
}

/** What came back to the redirect_uri: a code (a secret from now on), an error, or nothing. */
function authorizationOutcome(
  context: RunContext,
  { redirectUri, verifier, nonce }: AuthorizationRequest,
  scope: string,
  navigation: Navigation,
  exchange: Exchange,
): Authorization {
  if (!navigation.arrived)
    return {
      kind: "failed",
      failure: navigation.failure ?? "the provider did not send the browser back",
      navigation,
      exchange,
    };
  const back = navigation.arrived.searchParams;
  const code = back.get("code");
  if (code) {
    context.secrets.add(code, "<authorization code>");
    return { kind: "code", code, verifier, nonce, scope, redirectUri, navigation, exchange };
  }
  return {
    kind: "error",
    error: back.get("error") ?? "(no code and no error)",
    description: back.get("error_description") ?? "",
    navigation,
    exchange,
  };
}

/**
 * Sends a request to the token endpoint (an operation of the contract, judged as anything the provider may answer)
 * and registers the tokens it issues as secrets, so that no output shows them, and as the run's to revoke at its end.
 */
export async function exchangeCode(
  parts: IdentityParts & Trail,
  fields: Record<string, string | undefined>,
  label: string,
  role = "token",
): Promise<Exchange> {
  const { context, send, judge } = parts;
  const model = context.model("exchangeToken");
  const body = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
  const requestCase: RequestCase = { origin: "example", label, path: {}, query: {}, headers: {}, body };
  const exchange = await send.send(model, requestCase);
  // Secret before judged: a failing verdict quotes the body.
  const tokens = jsonObject(exchange.response?.json);
  for (const name of ["access_token", "refresh_token", "id_token"]) {
    const value = tokens?.[name];
    if (typeof value === "string") context.secrets.add(value, `<${name}>`);
  }
  hideSecretClaims(context.secrets, exchange);
  // A token issued to the second client (refresh_token_client_bound on a provider that breaks it) is revoked as it.
  const { secondClientId } = context.options.credentials;
  parts.tokens.noteResponse(tokens, label, body.client_id === secondClientId ? secondClientId : undefined);
  parts.sessions.noteIdToken(tokens);
  judge.exchange(model, exchange, "any", label);
  return addToTrail(parts, role, "exchangeToken", label, exchange);
}

/** The token request for a code, as the client that asked for it sends it; `overrides` change or drop fields. */
export function codeFields(
  context: RunContext,
  grant: CodeGrant,
  overrides: Record<string, string | undefined> = {},
): Record<string, string | undefined> {
  const { credentials } = context.options;
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
export async function tokensFor(parts: IdentityParts & Trail, grant: CodeGrant, label: string): Promise<CodeExchange> {
  const exchange = await exchangeCode(parts, codeFields(parts.context, grant), label);
  const tokens = issuedTokens(exchange);
  return tokens ? { exchange, tokens } : { exchange };
}

/**
 * Reads userinfo with an access token, at the address the discovery names: a request the flow builds itself, judged
 * on arrival as the contract's getUserInfo.
 */
export async function readUserinfo(flow: Flow & Trail, token: string, label: string): Promise<Exchange> {
  const request = {
    method: "GET",
    url: flow.send.urlOf("getUserInfo"),
    headers: { Authorization: `Bearer ${token}` },
  };
  const exchange = await flow.send.sendAsIs(request, { model: flow.context.model("getUserInfo"), label });
  hideSecretClaims(flow.context.secrets, exchange);
  return addToTrail(flow, "userinfo", "getUserInfo", label, exchange);
}

/** A later id_token of the first sign-in's session, beside that sign-in's (nothing to compare without one). */
export const sameSessionAs = (flow: Flow, exchanged: CodeExchange | undefined): SameSession | undefined =>
  flow.session && exchanged?.tokens
    ? { first: flow.session, claims: idTokenPayload(exchanged.tokens.id_token) }
    : undefined;
