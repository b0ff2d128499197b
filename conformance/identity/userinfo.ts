// The userinfo flows: the claims released by scope (also for the scopes reordered, oidcc-alternate-happy-flow), and
// the three ways of presenting the access token. Each reads
// userinfo at the address the discovery names (judged on arrival as the contract's operation) and returns what it saw
// as a scenario, which judge/identity-endpoint-scenarios.ts judges.
import type { PreparedRequest } from "../apis.js";
import type { UserinfoWay } from "../model/identity-facts.js";
import { issuedTokens } from "./json.js";
import { hideSecretClaims } from "./secret-claims.js";
import type {
  AlternateHappyFlowScenario,
  ScopedUserinfo,
  Trail,
  UserinfoByScopeScenario,
  UserinfoMethodsScenario,
} from "../model/identity-scenarios.js";
import type { Exchange } from "../model/exchange.js";
import {
  addToTrail,
  authorize,
  codeFields,
  exchangeCode,
  type Flow,
  readUserinfo,
  tokensFor,
  traced,
  trailOf,
} from "./flow.js";

/** Reads userinfo with the token of `scope`; the response is judged as the contract's getUserInfo. */
async function readForScope(flow: Flow & Trail, token: string, scope: string): Promise<Exchange> {
  const { context, judge } = flow;
  const label = `userinfo for scope ${scope}`;
  const exchange = await readUserinfo(flow, token, label);
  judge.exchange(context.model("getUserInfo"), exchange, "valid", label);
  return exchange;
}

/** userinfo with the first sign-in's token (the tokens it was issued), then with a token of scope openid only. */
export async function userinfoByScope(
  parent: Flow,
  first: Omit<ScopedUserinfo, "userinfo">,
  idTokenSub: unknown,
): Promise<UserinfoByScopeScenario> {
  const flow = traced(parent);
  const read = { ...first, userinfo: await readForScope(flow, first.tokens.access_token, first.requested) };
  let openidOnly: ScopedUserinfo | undefined;
  const narrow = await authorize(flow, { scope: "openid", purpose: "authorize with scope openid only" });
  if (narrow.kind === "code") {
    const issued = await exchangeCode(flow, codeFields(flow.context, narrow), "exchange a code for scope openid");
    const tokens = issuedTokens(issued);
    if (tokens)
      openidOnly = {
        requested: "openid",
        issued,
        tokens,
        userinfo: await readForScope(flow, tokens.access_token, "openid"),
      };
  }
  return { family: "identity", name: "userinfo by scope", ...trailOf(flow), first: read, idTokenSub, openidOnly };
}

/** The scope oidcc-alternate-happy-flow asks for: the first sign-in's scopes, reversed (RFC 6749 §3.3). */
export const REORDERED_SCOPE = "email profile openid";

/**
 * oidcc-alternate-happy-flow: the first sign-in's scopes in the reverse order and the parameters too, its code
 * exchanged and userinfo read with its token (judged by the granted scope, as the first sign-in's).
 */
export async function alternateHappyFlow(parent: Flow): Promise<AlternateHappyFlowScenario> {
  const flow = traced(parent);
  const purpose = `authorize with scope "${REORDERED_SCOPE}" and the parameters in the reverse order`;
  const attempt = await authorize(flow, { scope: REORDERED_SCOPE, reversed: true, purpose });
  const scope = REORDERED_SCOPE;
  const scenario = { family: "identity", name: "alternate happy flow", ...trailOf(flow), scope, attempt } as const;
  if (attempt.kind !== "code") return scenario;
  const exchanged = await tokensFor(flow, attempt, "exchange the code of the reordered request");
  if (!exchanged.tokens) return { ...scenario, exchanged };
  const { exchange: issued, tokens } = exchanged;
  const userinfo = await readForScope(flow, tokens.access_token, REORDERED_SCOPE);
  return { ...scenario, exchanged, read: { requested: REORDERED_SCOPE, issued, tokens, userinfo } };
}

/** The ways of presenting the access token, each with its request. */
function userinfoWays(url: string, accessToken: string): Array<UserinfoWay & { request: PreparedRequest }> {
  const bearer = { Authorization: `Bearer ${accessToken}` };
  return [
    {
      what: "GET with the Authorization header",
      operationId: "getUserInfo",
      section: "OpenID Connect Core §5.3.1, RFC 6750 §2.1",
      request: { method: "GET", url, headers: bearer },
    },
    {
      what: "POST with the Authorization header",
      operationId: "getUserInfoByPost",
      section: "OpenID Connect Core §5.3.1, RFC 6750 §2.1",
      request: { method: "POST", url, headers: bearer },
    },
    {
      what: "POST with access_token in the form body",
      operationId: "getUserInfoByPost",
      section: "RFC 6750 §2.2, a MAY",
      request: {
        method: "POST",
        url,
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ access_token: accessToken }).toString(),
      },
      assumed: true,
    },
  ];
}

/**
 * GET and POST with the token in the header (OpenID Connect Core §5.3.1: the provider MUST support both) and POST
 * with it in the form body (RFC 6750 §2.2: MAY, so an x-assumption of the contract), all with the same claims.
 */
export async function userinfoMethods(parent: Flow, accessToken: string): Promise<UserinfoMethodsScenario> {
  const flow = traced(parent);
  const ways: UserinfoMethodsScenario["ways"] = [];
  for (const { request, ...way } of userinfoWays(flow.send.urlOf("getUserInfo"), accessToken)) {
    const label = `userinfo by ${way.what}`;
    const model = flow.context.model(way.operationId);
    const exchange = await flow.send.sendAsIs(request, { model, label });
    hideSecretClaims(flow.context.secrets, exchange);
    ways.push({ way, exchange: addToTrail(flow, "userinfo", way.operationId, label, exchange) });
  }
  return { family: "identity", name: "userinfo methods", ...trailOf(flow), ways };
}
