// Where each identity operation lives, the one resolver of it. A live provider is followed as an OpenID Connect client
// follows it: the run reads the discovery document once, before anything else, at the issuer's well-known address (the
// contract's getOpenIdConfiguration path under --base-url, OpenID Connect Discovery §4), and from then on every
// request it makes for an identity operation goes to the endpoint the document's member for that operation names
// (DISCOVERY_MEMBERS): the flows' navigations, token exchanges, JWKS, userinfo and logout, and every generated,
// negative and probe case of the plan, since the sender asks IdentityEndpoints for the URL of each. The contract's
// path under --base-url is used only for an operation whose member the document lacks (or names no http(s) URL);
// the judge reports each such operation, and the endpoints advertised elsewhere than the contract's endpoint table,
// as observations (judge/identity-discovery.ts, endpointObservations); where an overlay records an operation's
// advertised endpoint (x-advertised-endpoint), the location carries it, so that the judge tells the known ones from
// the new. This is the one place of the conformance code that asks the bundle for an identity path (through
// lib/contract); nothing else spells an endpoint path.
import type { operations } from "../../generated/types/identity.js";
import { loadContract } from "../../lib/contract/index.js";
import { operationOf } from "../contract/lookup.js";
import {
  ADVERTISED_ENDPOINT,
  type AdvertisedEndpoint,
  type DiscoveryDocument,
  type EndpointLocation,
} from "../model/identity-facts.js";

export type IdentityOperationId = keyof operations;

/**
 * The discovery member naming each operation's endpoint (OpenID Connect Discovery §3, RP-Initiated Logout §2.1): every
 * operation but the discovery document itself, whose address Discovery §4 fixes.
 */
export const DISCOVERY_MEMBERS: Record<Exclude<IdentityOperationId, "getOpenIdConfiguration">, string> = {
  authorize: "authorization_endpoint",
  exchangeToken: "token_endpoint",
  getUserInfo: "userinfo_endpoint",
  getUserInfoByPost: "userinfo_endpoint",
  getJwks: "jwks_uri",
  logout: "end_session_endpoint",
  logoutWithForm: "end_session_endpoint",
};

/** The path template of one identity operation, e.g. the token endpoint's for `exchangeToken`. */
export function identityOperationPath(operationId: IdentityOperationId): string {
  return operationOf("identity", operationId).path;
}

/** The HTTP method (upper case) of one identity operation. */
export function identityOperationMethod(operationId: IdentityOperationId): string {
  return operationOf("identity", operationId).method.toUpperCase();
}

/** The schemas of the identity bundle's components, as plain JSON values. */
export function identitySchema(name: string): unknown {
  return loadContract("identity").document.components?.schemas?.[name];
}

/** The contract's URL of an operation: its path under the base address. */
export const contractUrl = (baseUrl: string, operationId: IdentityOperationId) =>
  `${baseUrl.replace(/\/$/, "")}${identityOperationPath(operationId)}`;

/** An http(s) URL, as a discovery member must name for the run to follow it. */
export const httpUrl = (value: unknown): value is string =>
  typeof value === "string" && URL.canParse(value) && ["http:", "https:"].includes(new URL(value).protocol);

/** The identity operations' endpoints as one discovery document names them (none read: the contract's paths). */
export class IdentityEndpoints {
  readonly locations: EndpointLocation[];

  constructor(
    private readonly baseUrl: string,
    private readonly document: DiscoveryDocument | undefined,
  ) {
    this.locations = Object.entries(DISCOVERY_MEMBERS).map(([id, member]) => {
      const operationId = id as IdentityOperationId;
      const value = document?.[member];
      const location: EndpointLocation = { operationId, member, contractUrl: contractUrl(baseUrl, operationId) };
      if (httpUrl(value)) location.advertised = value;
      else if (value !== undefined) location.unusable = value;
      const recorded = recordedEndpoint(operationId);
      if (recorded) location.recorded = recorded;
      return location;
    });
  }

  /** A member of the discovery document (what the provider advertises beside its endpoints). */
  member(name: string): unknown {
    return this.document?.[name];
  }

  /** The URL an operation is sent to: the advertised endpoint, else the contract's path under the base address. */
  urlOf(operationId: string): string {
    const location = this.locations.find((l) => l.operationId === operationId);
    return location?.advertised ?? contractUrl(this.baseUrl, operationId as IdentityOperationId);
  }
}

/** The advertised endpoint an overlay records on an operation (`x-advertised-endpoint`), when it records one. */
function recordedEndpoint(operationId: IdentityOperationId): AdvertisedEndpoint | undefined {
  const value = (operationOf("identity", operationId).operation as Record<string, unknown>)[ADVERTISED_ENDPOINT];
  if (!value || typeof value !== "object") return undefined;
  const { path, member } = value as Record<string, unknown>;
  return typeof path === "string" && typeof member === "string" ? { path, member } : undefined;
}
