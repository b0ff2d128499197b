// The userinfo flows: the claims released by scope, and the three ways of presenting the access token. Each reads
// userinfo at the address the discovery names (judged on arrival as the contract's operation) and adds the verdicts of
// its checks (judge/identity-userinfo.ts).
import type { PreparedRequest } from "../apis.js";
import type { RunContext } from "../context.js";
import { propertiesWith } from "../contract/lookup.js";
import {
  readingForScope,
  type ScopeReading,
  subjectDiffers,
  userinfoWay,
  type UserinfoWay,
} from "../judge/identity-userinfo.js";
import { assumedMessage, jsonObject } from "../judge/identity-words.js";
import { verdictOf } from "../judge/verdict.js";
import type { Exchange } from "../send/transport.js";
import { authorize, codeFields, endpointOf, exchangeCode, type Flow, readUserinfo } from "./flow.js";

/** Reads userinfo with the token of `scope`; the response is judged as the contract's getUserInfo. */
async function readForScope(flow: Flow, token: string, scope: string): Promise<{ exchange: Exchange } & ScopeReading> {
  const { context, judge } = flow;
  const label = `userinfo for scope ${scope}`;
  const exchange = await readUserinfo(flow, token, label);
  judge.exchange(context.model("getUserInfo"), exchange, "valid", label);
  return { exchange, ...readingForScope(exchange, scope) };
}

export async function userinfoByScope(
  flow: Flow,
  accessToken: string,
  grantedScope: string,
  idTokenSub: unknown,
): Promise<void> {
  const { context, ledger } = flow;
  const granted = await readForScope(flow, accessToken, grantedScope);
  const problems = [...granted.problems, subjectDiffers(granted.claims, idTokenSub)].filter(Boolean);
  ledger.add(
    verdictOf(
      "granted_scope_claims",
      "getUserInfo",
      granted.missingScopes.join("; "),
      granted.exchange,
      `userinfo for scope ${grantedScope}`,
    ),
  );
  let last = granted.exchange;
  const narrow = await authorize(flow, { scope: "openid", purpose: "authorize with scope openid only" });
  if (narrow.kind === "code") {
    const exchange = await exchangeCode(flow, codeFields(context, narrow), "exchange a code for scope openid");
    const token = jsonObject(exchange.response?.json)?.access_token;
    if (typeof token === "string") {
      const openidOnly = await readForScope(flow, token, "openid");
      problems.push(...openidOnly.problems);
      last = openidOnly.exchange;
    }
  }
  ledger.add(verdictOf("userinfo_by_scope", "getUserInfo", problems.join("; "), last, "userinfo by scope"));
}

/** The contract's x-assumption on the token in a POST's form body, which RFC 6750 §2.2 leaves optional ("MAY"). */
function bodyTokenAssumption(context: RunContext): string | undefined {
  const body = context.model("getUserInfoByPost").body;
  return body ? propertiesWith("identity", body.pointer, "x-assumption").get("access_token") : undefined;
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
export async function userinfoMethods(flow: Flow, accessToken: string): Promise<void> {
  const { context, send, judge, ledger } = flow;
  const problems: string[] = [];
  let subject: unknown;
  let last: Exchange | undefined;
  let failedOn: UserinfoWay["operationId"] | undefined;
  for (const way of userinfoWays(endpointOf(flow, "userinfo_endpoint", "getUserInfo"), accessToken)) {
    const label = `userinfo by ${way.what}`;
    const exchange = await send.sendAsIs(way.request, { model: context.model(way.operationId), label });
    const found = userinfoWay(way, exchange, subject);
    const failure = found.assumed
      ? assumedMessage(judge, {
          check: "userinfo_methods",
          operationId: way.operationId,
          caseLabel: label,
          problem: found.problem,
          assumption: bodyTokenAssumption(context),
        })
      : found.problem;
    if (!found.problem) subject ??= jsonObject(exchange.response?.json)?.sub;
    if (failure) {
      problems.push(failure);
      last = exchange;
      failedOn ??= way.operationId;
    } else last ??= exchange;
  }
  const operationId = failedOn ?? "getUserInfoByPost";
  ledger.add(verdictOf("userinfo_methods", operationId, problems.join("; "), last, "userinfo by GET and POST"));
}
