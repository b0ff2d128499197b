// The userinfo flows: the claims released by scope, and the three ways of presenting the access token. Each reads
// userinfo at the address the discovery names (judged on arrival as the contract's operation) and returns what it saw
// as a scenario, which judge/identity-endpoint-scenarios.ts judges.
import type { PreparedRequest } from "../apis.js";
import type { UserinfoWay } from "../model/identity-facts.js";
import { issuedTokens } from "./json.js";
import { hideSecretClaims } from "./secret-claims.js";
import type {
  ScopedUserinfo,
  Trail,
  UserinfoByScopeScenario,
  UserinfoMethodsScenario,
} from "../model/identity-scenarios.js";
import type { Exchange } from "../model/exchange.js";
import { addToTrail, authorize, codeFields, exchangeCode, type Flow, readUserinfo, traced, trailOf } from "./flow.js";

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
