// The claims judged by what was granted, and no_secret_claims. The granted scope is the token response's `scope`
// when it has one (RFC 6749 §3.3, §5.1: the provider may grant more or less than asked and then says so), else the
// one requested. A claim's scope is the seed's claim table (the contract's UserInfo descriptions), else OpenID
// Connect Core §5.4's; a claim neither names is not judged by scope (Core §5.1.2 allows other claims, and the
// contract leaves them undocumented), and one named like a secret fails no_secret_claims wherever it is. Pure.
import { identitySchema } from "../identity/paths.js";
import { jsonObject } from "../identity/json.js";
import { secretMembers } from "../identity/secret-claims.js";
import type { TokenResponse } from "../model/identity-facts.js";

/** The scope of each claim of the seed's claim table, from the contract's UserInfo descriptions ("Scope `profile`"). */
export function seedClaimScopes(): Map<string, string> {
  const properties = jsonObject(jsonObject(identitySchema("UserInfo"))?.properties) ?? {};
  const result = new Map<string, string>();
  for (const [claim, schema] of Object.entries(properties)) {
    const description = jsonObject(schema)?.description;
    const scope = /^Scope `([a-z_]+)`/.exec(typeof description === "string" ? description : "")?.[1];
    if (scope) result.set(claim, scope);
  }
  return result;
}

/** The standard claims each scope requests (OpenID Connect Core §5.4). */
const CORE_SCOPE_CLAIMS: Record<string, string[]> = {
  profile: [
    ...["name", "family_name", "given_name", "middle_name", "nickname", "preferred_username", "profile", "picture"],
    ...["website", "gender", "birthdate", "zoneinfo", "locale", "updated_at"],
  ],
  email: ["email", "email_verified"],
  address: ["address"],
  phone: ["phone_number", "phone_number_verified"],
};

/**
 * Claims no scope governs: the id_token's (OpenID Connect Core §2, §3.1.3.6 and §3.3.2.11, Front-Channel Logout's
 * sid, the JWT claims of RFC 7519 §4.1) and the seed's "always" iss and aud.
 */
const ALWAYS_ALLOWED = new Set([
  ...["iss", "sub", "aud", "exp", "iat", "auth_time", "nonce", "acr", "amr", "azp"],
  ...["at_hash", "c_hash", "s_hash", "sid", "jti", "nbf"],
]);

/** The scope that releases `claim`, when the seed's claim table or OpenID Connect Core §5.4 names one. */
function scopeOfClaim(claim: string, seed: Map<string, string>): string | undefined {
  return seed.get(claim) ?? Object.entries(CORE_SCOPE_CLAIMS).find(([, claims]) => claims.includes(claim))?.[0];
}

/** The scope a token was granted, and in words which one that is (the report says which it used). */
export interface GrantedScope {
  scopes: Set<string>;
  /** `scope "openid email" (the token response's scope)`. */
  described: string;
}

export function grantedScope(tokens: TokenResponse | undefined, requested: string): GrantedScope {
  const said = typeof tokens?.scope === "string" ? tokens.scope : undefined;
  const scope = said ?? requested;
  const source =
    said === undefined ? "as requested: the token response has no scope, RFC 6749 §5.1" : "the token response's scope";
  return { scopes: new Set(scope.split(" ").filter(Boolean)), described: `scope "${scope}" (${source})` };
}

/** The claims present in `claims` whose scope was not granted, each with its scope: `email (scope email)`. */
export function claimsBeyondScope(claims: Record<string, unknown>, granted: GrantedScope): string[] {
  const seed = seedClaimScopes();
  return Object.keys(claims).flatMap((claim) => {
    const scope = ALWAYS_ALLOWED.has(claim) ? undefined : scopeOfClaim(claim, seed);
    return scope && !granted.scopes.has(scope) ? [`${claim} (scope ${scope})`] : [];
  });
}

/** id_token_by_scope on one id_token's payload. */
export function idTokenBeyondScope(payload: Record<string, unknown>, granted: GrantedScope): string {
  const beyond = claimsBeyondScope(payload, granted);
  return beyond.length
    ? `the id_token for ${granted.described} carries ${beyond.join(", ")} (OpenID Connect Core §5.4, the seed's claim table: claims by granted scope)`
    : "";
}

/** no_secret_claims on one JSON document of an answer (`where`: the token response, the id_token, userinfo's). */
export function secretClaims(where: string, json: Record<string, unknown>): string {
  const paths = secretMembers(json).map((member) => member.path);
  return paths.length
    ? `${where} carries ${paths.join(", ")}, named like secrets of the user (values redacted): a credential must never leave the provider, and a token or userinfo answer is read by the client and whoever holds it`
    : "";
}
