// The Config OP checks of the discovery document's optional members (discovery_https_endpoints,
// discovery_grant_types_and_claims) and the RECOMMENDED members whose absence only warns. Pure: a document in, the
// problem ("" when there is none) out; what only warns is returned apart, for the judge to report as a warning.
import type { DiscoveryDocument } from "../model/identity-facts.js";
import { seedClaimScopes } from "./identity-claims.js";

/** Why a RECOMMENDED member's absence or a short claims_supported warns: Discovery §3 does not require more. */
export const RECOMMENDED_ONLY =
  "OpenID Connect Discovery §3 makes scopes_supported and claims_supported RECOMMENDED (not REQUIRED), and says claims_supported might not be an exhaustive list.";

/** Whether a host is this machine: TLS guards the network, and a loopback address never leaves the machine. */
function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, "").toLowerCase();
  return host === "localhost" || host.endsWith(".localhost") || host === "::1" || /^127(\.\d{1,3}){3}$/.test(host);
}

/** The members that name an address of the provider: the issuer, jwks_uri and every *_endpoint. */
const addressMembers = (document: DiscoveryDocument) =>
  Object.keys(document).filter((member) => ["issuer", "jwks_uri"].includes(member) || member.endsWith("_endpoint"));

/**
 * discovery_https_endpoints: every address the document advertises uses https unless its host is loopback (Discovery
 * §3: the issuer and each endpoint MUST use the https scheme; RFC 6749 §3.1, §3.2: TLS at the authorization and
 * token endpoints). A value that is no URL is discovery_fields_and_issuer's or the run's to report, not this one's.
 */
export function plainHttpEndpoints(document: DiscoveryDocument): string {
  const plain = addressMembers(document).flatMap((member) => {
    const value = document[member];
    if (typeof value !== "string" || !URL.canParse(value)) return [];
    const url = new URL(value);
    return url.protocol === "http:" && !isLoopback(url.hostname) ? [`${member} ${value}`] : [];
  });
  return plain.length
    ? `not https, on a host other than loopback: ${plain.join(", ")} (OpenID Connect Discovery §3: these URLs MUST use the https scheme; RFC 6749 §3.1, §3.2: TLS)`
    : "";
}

const isStringArray = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((item) => typeof item === "string");

/**
 * discovery_grant_types_and_claims, when the members are there: grant_types_supported lists authorization_code (the
 * contract's flow, the seed's Authorization Code with PKCE; Discovery §3: absent means authorization_code and
 * implicit), and claims_supported is an array of claim names. `unlisted` names the seed's scope claims it lacks: a
 * warning only (RECOMMENDED_ONLY).
 */
export function grantTypesAndClaims(document: DiscoveryDocument): { problem: string; unlisted: string } {
  const { grant_types_supported: grantTypes, claims_supported: claims } = document;
  const problems: string[] = [];
  if (grantTypes !== undefined && !(isStringArray(grantTypes) && grantTypes.includes("authorization_code")))
    problems.push(
      `grant_types_supported (${JSON.stringify(grantTypes)}) lacks authorization_code, the contract's flow (the seed: Authorization Code with PKCE; OpenID Connect Discovery §3)`,
    );
  if (claims !== undefined && !isStringArray(claims))
    problems.push(
      `claims_supported is ${JSON.stringify(claims)}, not an array of claim names (OpenID Connect Discovery §3)`,
    );
  const missing = isStringArray(claims) ? [...seedClaimScopes().keys()].filter((claim) => !claims.includes(claim)) : [];
  const unlisted = missing.length
    ? `claims_supported does not list ${missing.join(", ")}, which the seed's claim table returns by scope`
    : "";
  return { problem: problems.join("; "), unlisted };
}

/** scopes_supported absent: a warning (Discovery §3: RECOMMENDED). */
export const scopesNotListed = (document: DiscoveryDocument) =>
  document.scopes_supported === undefined
    ? "the discovery document has no scopes_supported (OpenID Connect Discovery §3: RECOMMENDED)"
    : "";
