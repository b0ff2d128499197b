// The discovery and JWKS checks (discovery_fields_and_issuer, discovery_rs256_and_openid, pkce_s256_only on the
// discovery document, jwks_shape, jwks_unique_kids): what the documents a provider publishes must say. Pure: a
// document in, the problem ("" when there is none) out. Where the endpoints are is no check's: the run follows them
// (identity/paths.ts), and endpointObservations says where they are not the contract's.
import type { Exchange } from "../model/exchange.js";
import { shown } from "./identity-words.js";
import { jsonObject } from "../identity/json.js";
import {
  ADVERTISED_ENDPOINT,
  type AdvertisedElsewhere,
  type DiscoveryDocument,
  type EndpointLocation,
} from "../model/identity-facts.js";

const REQUIRED_DISCOVERY_FIELDS = [
  "issuer",
  "authorization_endpoint",
  "token_endpoint",
  "jwks_uri",
  "response_types_supported",
  "subject_types_supported",
  "id_token_signing_alg_values_supported",
];

/** Every discovery check fails alike when there is no JSON document. */
export const noDiscoveryDocument = (exchange: Exchange) =>
  `no JSON discovery document (status ${exchange.response?.status ?? exchange.error}; OpenID Connect Discovery §4.2)`;

/**
 * discovery_fields_and_issuer: the required members, and the issuer is the base address. Endpoints at other paths than
 * the contract's are no failure: a client follows the document (Discovery §3), and so does the run.
 */
export function discoveryFields(document: DiscoveryDocument, baseUrl: string): string {
  const problems: string[] = [];
  const missing = REQUIRED_DISCOVERY_FIELDS.filter((field) => document[field] === undefined);
  if (missing.length) problems.push(`missing ${missing.join(", ")} (OpenID Connect Discovery §3)`);
  const issuer = baseUrl.replace(/\/$/, "");
  if (typeof document.issuer === "string" && document.issuer.replace(/\/$/, "") !== issuer)
    problems.push(
      `issuer is ${document.issuer}, not the base address ${issuer} (the seed; OpenID Connect Discovery §4.3)`,
    );
  if (Array.isArray(document.response_types_supported) && !document.response_types_supported.includes("code"))
    problems.push(
      "response_types_supported lacks code (the seed: Authorization Code flow; OpenID Connect Discovery §3)",
    );
  return problems.join("; ");
}

/** The operations of each member, in the order of the locations: `getUserInfo and getUserInfoByPost`. */
function byMember(locations: EndpointLocation[]): Map<string, EndpointLocation[]> {
  const members = new Map<string, EndpointLocation[]>();
  for (const location of locations) members.set(location.member, [...(members.get(location.member) ?? []), location]);
  return members;
}

const operationsOf = (locations: EndpointLocation[]) => locations.map((l) => l.operationId).join(" and ");

/** A fact about where the identity operations went; `known` when the overlay records every endpoint it names. */
export interface EndpointObservation {
  message: string;
  known?: true;
  advertised?: AdvertisedElsewhere[];
}

/** The path of an advertised URL, as an overlay records it. */
const pathOf = (url: string) => new URL(url).pathname;

/** The overlay records this operation's advertised endpoint as the document advertises it now. */
const recordedAsIs = (location: EndpointLocation) =>
  location.recorded !== undefined &&
  location.recorded.member === location.member &&
  location.recorded.path === pathOf(location.advertised!);

/**
 * Where the run sent the identity operations, as facts about the deployment (never failures): one block for the
 * endpoints the discovery document advertises elsewhere than the contract's endpoint table (the seed's), another for
 * those of them the overlay records as they are (`x-advertised-endpoint`: known), and one for each member it lacks
 * or names no http(s) URL with, whose operations went to the contract's path.
 */
export function endpointObservations(locations: EndpointLocation[]): EndpointObservation[] {
  const members = [...byMember(locations)];
  const elsewhere = members.filter(
    ([, of]) => of[0]!.advertised !== undefined && of[0]!.advertised !== of[0]!.contractUrl,
  );
  const block = (entries: typeof elsewhere) => ({
    text: entries
      .map(
        ([member, of]) =>
          `${member} ${of[0]!.advertised} (the contract's ${of[0]!.contractUrl}, for ${operationsOf(of)})`,
      )
      .join("; "),
    advertised: entries.flatMap(([member, of]) =>
      of.map(({ operationId, advertised }) => ({ operationId, member, path: pathOf(advertised!) })),
    ),
  });
  const known = block(elsewhere.filter(([, of]) => of.every(recordedAsIs)));
  const fresh = block(elsewhere.filter(([, of]) => !of.every(recordedAsIs)));
  const notAdvertised = members.flatMap(([member, of]) => {
    const first = of[0]!;
    if (first.advertised !== undefined) return [];
    const why =
      first.unusable === undefined
        ? `has no ${member}`
        : `names no http(s) URL as ${member} (${shown(first.unusable)})`;
    return [
      {
        message: `the discovery document ${why}: ${operationsOf(of)} went to the contract's path, ${first.contractUrl}`,
      },
    ];
  });
  return [
    ...(fresh.text
      ? [
          {
            message: `the discovery document advertises endpoints other than the contract's endpoint table (the seed's), and the run followed them: ${fresh.text}`,
            advertised: fresh.advertised,
          },
        ]
      : []),
    ...(known.text
      ? [
          {
            message: `known, in the overlay (${ADVERTISED_ENDPOINT}): the discovery document advertises endpoints other than the contract's endpoint table, and the run followed them: ${known.text}`,
            known: true as const,
            advertised: known.advertised,
          },
        ]
      : []),
    ...notAdvertised,
  ];
}

const lacks = (list: unknown, value: string) => !Array.isArray(list) || !list.includes(value);

/**
 * discovery_rs256_and_openid: RS256 among the signing algorithms and openid among the scopes when they are listed.
 * Without scopes_supported the document breaks a RECOMMENDED only: scopesNotListed is the warning then.
 */
export function discoveryAlgorithms(document: DiscoveryDocument): string {
  const problems: string[] = [];
  if (lacks(document.id_token_signing_alg_values_supported, "RS256"))
    problems.push(
      `id_token_signing_alg_values_supported (${JSON.stringify(document.id_token_signing_alg_values_supported)}) lacks RS256 (OpenID Connect Discovery §3: RS256 MUST be included)`,
    );
  if (document.scopes_supported !== undefined && lacks(document.scopes_supported, "openid"))
    problems.push(
      `scopes_supported (${JSON.stringify(document.scopes_supported)}) lacks openid (OpenID Connect Discovery §3: it MUST)`,
    );
  return problems.join("; ");
}

/**
 * pkce_s256_only on the discovery document. Absent is allowed: OpenID Connect Discovery 1.0 does not define the member
 * and RFC 8414 §2 makes it OPTIONAL; PKCE is proven by the flow (pkce_enforcement), not by the document. Advertised,
 * it must list S256 (RFC 7636 §4.2: mandatory to implement on the server). Any other method beside it breaks only the
 * contract's S256-only assumption: `assumed` says so.
 */
export function discoveryPkceMethods(methods: unknown): { problem: string; assumed: boolean } {
  if (methods === undefined) return { problem: "", assumed: false };
  if (!Array.isArray(methods))
    return {
      problem: `code_challenge_methods_supported is ${JSON.stringify(methods)}, not an array (RFC 8414 §2)`,
      assumed: false,
    };
  if (!methods.includes("S256"))
    return {
      problem: `code_challenge_methods_supported is ${JSON.stringify(methods)}, without S256, which RFC 7636 §4.2 makes mandatory to implement`,
      assumed: false,
    };
  if (methods.length === 1) return { problem: "", assumed: false };
  return {
    problem: `code_challenge_methods_supported is ${JSON.stringify(methods)}, not ["S256"] (the contract allows S256 only, RFC 9700 §2.1.1)`,
    assumed: true,
  };
}

/** jwks_shape fails so when the JWKS has no keys array. */
export const noJwksKeys = (exchange: Exchange) =>
  `no keys array in the JWKS (status ${exchange.response?.status ?? exchange.error}; RFC 7517 §5)`;

const KEY_MEMBERS: Record<string, string[]> = { RSA: ["n", "e"], EC: ["crv", "x", "y"], OKP: ["crv", "x"] };

/** The problems of one key of a JWK Set, if any. */
function keyProblems(value: unknown, index: number): string[] {
  const key = jsonObject(value);
  const where = `key ${index}${key?.kid ? ` (kid ${shown(key.kid)})` : ""}`;
  if (!key) return [`${where} is not an object (RFC 7517 §5)`];
  if (typeof key.kty !== "string") return [`${where} has no kty (RFC 7517 §4.1)`];
  const problems: string[] = [];
  const absent = (KEY_MEMBERS[key.kty] ?? []).filter((m) => typeof key[m] !== "string");
  if (absent.length) problems.push(`${where} (${key.kty}) lacks ${absent.join(", ")} (RFC 7518 §6)`);
  if (key.d !== undefined || key.p !== undefined)
    problems.push(`${where} publishes private key members (RFC 7517 §5: a public JWK Set)`);
  return problems;
}

/** jwks_shape: every key has its type's members and no private ones, and one key may sign. */
export function jwksShape(keys: unknown[]): string {
  const problems = keys.flatMap(keyProblems);
  const signs = (value: unknown) => {
    const key = jsonObject(value);
    return key !== undefined && (key.use === undefined || key.use === "sig");
  };
  if (!keys.some(signs))
    problems.push("no key may be used for signatures (OpenID Connect Core §10.1: the id_token's key is in the JWKS)");
  return problems.join("; ");
}

/** jwks_unique_kids: no kid names two keys, and with several keys each has one. */
export function jwksUniqueKids(keys: unknown[]): string {
  const kids = keys.map((key) => jsonObject(key)?.kid).filter((kid): kid is string => typeof kid === "string");
  const repeated = [...new Set(kids.filter((kid, index) => kids.indexOf(kid) !== index))];
  const problems: string[] = [];
  if (repeated.length)
    problems.push(
      `kid ${repeated.join(", ")} is used by more than one key (RFC 7517 §4.5: kids are distinct within a set)`,
    );
  if (keys.length > 1 && kids.length < keys.length)
    problems.push(
      "several keys and not every one has a kid (OpenID Connect Core §10.1: kid is required with several keys)",
    );
  return problems.join("; ");
}
