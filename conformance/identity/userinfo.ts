// Userinfo checks: the claims released by scope, and the three ways of presenting the access token.
import { assumptionBroken } from "../judge/assumptions.js";
import { propertiesWith } from "../contract/lookup.js";
import type { Session } from "../send/session.js";
import type { Exchange } from "../send/transport.js";
import { authorize, codeFields, endpointOf, exchangeCode, type Flow, jsonObject, shown } from "./flow.js";
import { identitySchema } from "./paths.js";
import { verdictOf } from "../judge/verdict.js";

/** Scope of each claim, read from the contract's UserInfo descriptions ("Scope `profile`: ..."). */
function claimScopes(): Map<string, string> {
  const properties = jsonObject(jsonObject(identitySchema("UserInfo"))?.properties) ?? {};
  const result = new Map<string, string>();
  for (const [claim, schema] of Object.entries(properties)) {
    const description = jsonObject(schema)?.description;
    const scope = /^Scope `([a-z_]+)`/.exec(typeof description === "string" ? description : "")?.[1];
    if (scope) result.set(claim, scope);
  }
  return result;
}

function userinfoUrl(flow: Flow): string {
  return endpointOf(flow.session, flow.document, "userinfo_endpoint", "getUserInfo");
}

export async function readUserinfo(flow: Flow, token: string): Promise<Exchange> {
  return flow.session.transport.send({
    method: "GET",
    url: userinfoUrl(flow),
    headers: { Authorization: `Bearer ${token}` },
  });
}

/** What one userinfo read for a scope showed: the problems, and the granted scopes whose claims are all missing. */
interface ScopeReading {
  problems: string[];
  missingScopes: string[];
  last?: Exchange;
}

function claimProblems(
  claims: Record<string, unknown>,
  scope: string,
  scopesOf: Map<string, string>,
  reading: ScopeReading,
): void {
  const granted = new Set(scope.split(" "));
  const leaked = Object.keys(claims).filter((claim) => scopesOf.has(claim) && !granted.has(scopesOf.get(claim) ?? ""));
  if (leaked.length)
    reading.problems.push(
      `scope "${scope}" released ${leaked.join(", ")} (OpenID Connect Core §5.4, the seed's scope table: claims by granted scope)`,
    );
  for (const claim of ["sub", "iss", "aud"])
    if (claims[claim] === undefined)
      reading.problems.push(
        `userinfo for scope "${scope}" lacks ${claim} (${claim === "sub" ? "OpenID Connect Core §5.3.2" : "the seed's claim table: always"})`,
      );
  for (const grantedScope of granted) {
    const ofScope = [...scopesOf].filter(([, s]) => s === grantedScope).map(([claim]) => claim);
    if (ofScope.length > 0 && !ofScope.some((claim) => claims[claim] !== undefined))
      reading.missingScopes.push(
        `scope "${grantedScope}" was granted but userinfo returns none of ${ofScope.join(", ")} (OpenID Connect Core §5.4, the seed's scope table)`,
      );
  }
}

async function readForScope(
  flow: Flow,
  token: string,
  scope: string,
  reading: ScopeReading,
): Promise<Record<string, unknown> | undefined> {
  const { session } = flow;
  const model = session.model("getUserInfo");
  const exchange = await readUserinfo(flow, token);
  session.observations.observe(model, exchange);
  session.judge.exchange(model, exchange, "valid", `userinfo for scope ${scope}`);
  reading.last = exchange;
  const claims = jsonObject(exchange.response?.json);
  if (exchange.response?.status !== 200 || !claims) {
    reading.problems.push(
      `userinfo for scope "${scope}" answered ${exchange.response?.status ?? exchange.error} (OpenID Connect Core §5.3.2)`,
    );
    return undefined;
  }
  claimProblems(claims, scope, claimScopes(), reading);
  return claims;
}

export async function userinfoByScope(
  flow: Flow,
  accessToken: string,
  grantedScope: string,
  idTokenSub: unknown,
): Promise<void> {
  const { session } = flow;
  const reading: ScopeReading = { problems: [], missingScopes: [] };
  const claims = await readForScope(flow, accessToken, grantedScope, reading);
  if (claims && idTokenSub !== undefined && claims.sub !== idTokenSub)
    reading.problems.push(
      `userinfo sub ${shown(claims.sub)} differs from the id_token's ${shown(idTokenSub)} (OpenID Connect Core §5.3.2: it MUST match)`,
    );
  session.ledger.add(
    verdictOf(
      "granted_scope_claims",
      "getUserInfo",
      reading.missingScopes.join("; "),
      reading.last,
      `userinfo for scope ${grantedScope}`,
    ),
  );
  const narrow = await authorize(flow, { scope: "openid", purpose: "authorize with scope openid only" });
  if (narrow.kind === "code") {
    const exchange = await exchangeCode(session, codeFields(session, narrow), "exchange a code for scope openid");
    const token = jsonObject(exchange.response?.json)?.access_token;
    if (typeof token === "string") await readForScope(flow, token, "openid", reading);
  }
  session.ledger.add(
    verdictOf("userinfo_by_scope", "getUserInfo", reading.problems.join("; "), reading.last, "userinfo by scope"),
  );
}

/** The contract's x-assumption on the token in a POST's form body, which RFC 6750 §2.2 leaves optional ("MAY"). */
function bodyTokenAssumption(session: Session): string | undefined {
  const body = session.model("getUserInfoByPost").body;
  return body ? propertiesWith("identity", body.pointer, "x-assumption").get("access_token") : undefined;
}

interface UserinfoWay {
  what: string;
  operationId: "getUserInfo" | "getUserInfoByPost";
  /** The section that requires (or, for the form body, allows) this way. */
  section: string;
  request: Parameters<Session["transport"]["send"]>[0];
  /** RFC 6750 §2.2 makes this way optional: the contract marks it x-assumption, so a refusal is a warning. */
  assumed?: true;
}

/**
 * GET and POST with the token in the header (OpenID Connect Core §5.3.1: the provider MUST support both) and POST
 * with it in the form body (RFC 6750 §2.2: MAY, so an x-assumption of the contract), all with the same claims.
 */
export async function userinfoMethods(flow: Flow, accessToken: string): Promise<void> {
  const { session } = flow;
  const url = userinfoUrl(flow);
  const ways: UserinfoWay[] = [
    {
      what: "GET with the Authorization header",
      operationId: "getUserInfo",
      section: "OpenID Connect Core §5.3.1, RFC 6750 §2.1",
      request: { method: "GET", url, headers: { Authorization: `Bearer ${accessToken}` } },
    },
    {
      what: "POST with the Authorization header",
      operationId: "getUserInfoByPost",
      section: "OpenID Connect Core §5.3.1, RFC 6750 §2.1",
      request: { method: "POST", url, headers: { Authorization: `Bearer ${accessToken}` } },
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
  const problems: string[] = [];
  let subject: unknown;
  let last: Exchange | undefined;
  let failedOn: UserinfoWay["operationId"] | undefined;
  for (const way of ways) {
    const exchange = await session.transport.send(way.request);
    const claims = exchange.response?.status === 200 ? jsonObject(exchange.response.json) : undefined;
    let failure = "";
    if (!claims) {
      const refused = `userinfo by ${way.what} answered ${exchange.response?.status ?? exchange.error} (${way.section})`;
      failure = way.assumed && exchange.response ? brokenAssumption(session, way, refused) : refused;
    } else if (subject === undefined) subject = claims.sub;
    else if (claims.sub !== subject)
      failure = `userinfo by ${way.what} returned sub ${shown(claims.sub)}, not ${shown(subject)} (OpenID Connect Core §5.3.2)`;
    if (failure) {
      problems.push(failure);
      last = exchange;
      failedOn ??= way.operationId;
    } else last ??= exchange;
  }
  session.ledger.add(
    verdictOf(
      "userinfo_methods",
      failedOn ?? "getUserInfoByPost",
      problems.join("; "),
      last,
      "userinfo by GET and POST",
    ),
  );
}

/**
 * A refused optional way: a warning, or under --strict a failure (the message, then); a failure if the contract drops
 * the assumption.
 */
function brokenAssumption(session: Session, way: UserinfoWay, problem: string): string {
  const assumption = bodyTokenAssumption(session);
  if (assumption === undefined) return problem;
  return assumptionBroken(
    session.judge.assumption("userinfo_methods", way.operationId, `userinfo by ${way.what}`),
    problem,
    assumption,
  );
}
