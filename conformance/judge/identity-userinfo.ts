// The userinfo checks: userinfo_by_scope, granted_scope_claims (the claims released by the granted scopes, read from
// the contract's UserInfo descriptions, identity-claims.ts) and userinfo_methods (the ways of presenting the access
// token). Pure: what was asked and what came back in, the problems out.
import type { Exchange } from "../model/exchange.js";
import { shown } from "./identity-words.js";
import { jsonObject } from "../identity/json.js";
import type { UserinfoWay } from "../model/identity-facts.js";
import { claimsBeyondScope, type GrantedScope, seedClaimScopes } from "./identity-claims.js";

/** What userinfo read with the token of one scope showed. */
export interface ScopeReading {
  /** userinfo_by_scope's problems. */
  problems: string[];
  /** granted_scope_claims' problems: the granted scopes whose claims are all missing. */
  missingScopes: string[];
  /** The claims, when userinfo answered 200 with an object. */
  claims?: Record<string, unknown>;
}

/**
 * The claims userinfo returned for a token of the `granted` scope: none of a scope not granted, some of each granted
 * one. A missing sub, iss or aud is response_schema_conformance's (the contract's UserInfo requires them), not
 * repeated here.
 */
export function readingForScope(exchange: Exchange, granted: GrantedScope): ScopeReading {
  const claims = jsonObject(exchange.response?.json);
  if (exchange.response?.status !== 200 || !claims) {
    const status = exchange.response?.status ?? exchange.error;
    return {
      problems: [`userinfo for ${granted.described} answered ${status} (OpenID Connect Core §5.3.2)`],
      missingScopes: [],
    };
  }
  const reading: ScopeReading = { problems: [], missingScopes: [], claims };
  const leaked = claimsBeyondScope(claims, granted);
  if (leaked.length)
    reading.problems.push(
      `userinfo for ${granted.described} released ${leaked.join(", ")} (OpenID Connect Core §5.4, the seed's scope table: claims by granted scope)`,
    );
  const scopesOf = seedClaimScopes();
  for (const grantedScope of granted.scopes) {
    const ofScope = [...scopesOf].filter(([, s]) => s === grantedScope).map(([claim]) => claim);
    if (ofScope.length > 0 && !ofScope.some((claim) => claims[claim] !== undefined))
      reading.missingScopes.push(
        `scope "${grantedScope}" was granted (${granted.described}) but userinfo returns none of ${ofScope.join(", ")} (OpenID Connect Core §5.4, the seed's scope table)`,
      );
  }
  return reading;
}

/** userinfo_by_scope: userinfo's sub is the id_token's. */
export const subjectDiffers = (claims: Record<string, unknown> | undefined, idTokenSub: unknown) =>
  claims && idTokenSub !== undefined && claims.sub !== idTokenSub
    ? `userinfo sub ${shown(claims.sub)} differs from the id_token's ${shown(idTokenSub)} (OpenID Connect Core §5.3.2: it MUST match)`
    : "";

/**
 * userinfo_methods on one way: claims came back, with the sub of the first way (`subject`, undefined for the first).
 * `assumed`: the problem is a refusal of an optional way, which breaks only the contract's assumption.
 */
export function userinfoWay(
  way: UserinfoWay,
  exchange: Exchange,
  subject: unknown,
): { problem: string; assumed: boolean } {
  const claims = exchange.response?.status === 200 ? jsonObject(exchange.response.json) : undefined;
  if (!claims)
    return {
      problem: `userinfo by ${way.what} answered ${exchange.response?.status ?? exchange.error} (${way.section})`,
      assumed: Boolean(way.assumed && exchange.response),
    };
  if (subject !== undefined && claims.sub !== subject)
    return {
      problem: `userinfo by ${way.what} returned sub ${shown(claims.sub)}, not ${shown(subject)} (OpenID Connect Core §5.3.2)`,
      assumed: false,
    };
  return { problem: "", assumed: false };
}
