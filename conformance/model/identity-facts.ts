// What the OpenID Connect flows see and their checks read: an authorization's outcome as the redirect_uri received it,
// a token response, a re-authentication, the ways of reading userinfo. The flows (conformance/identity/) produce
// these values inside their scenarios (identity-scenarios.ts); the checks (judge/identity-*.ts) read them.
import type { Exchange } from "./exchange.js";

/** The requests of token_errors, each carrying exactly one fault. */
export type TokenErrorCase = "an unknown code" | "a wrong client_secret" | "an unsupported grant_type";

/** The discovery document's members the checks read; a provider may send anything, so each is checked before use. */
export type DiscoveryDocument = Record<string, unknown>;

/**
 * The extension of an identity operation by which an overlay records where the deployment's discovery document
 * advertises it, elsewhere than the contract's endpoint table: `{ path, member }` (`contracts overlay record`).
 */
export const ADVERTISED_ENDPOINT = "x-advertised-endpoint";

/** An endpoint as a discovery member advertises it: the member, and the path of the URL it names. */
export interface AdvertisedEndpoint {
  member: string;
  path: string;
}

/** An operation's endpoint advertised elsewhere than the contract's endpoint table: what an overlay can record. */
export interface AdvertisedElsewhere extends AdvertisedEndpoint {
  operationId: string;
}

/** Where one operation with a discovery member is sent, and why there. */
export interface EndpointLocation {
  operationId: string;
  member: string;
  /** The contract's path under the base address. */
  contractUrl: string;
  /** The member's value when it is an http(s) URL; the run sends the operation there. */
  advertised?: string;
  /** The member's value when it is there but no http(s) URL (the run falls back on the contract's path). */
  unusable?: unknown;
  /** What the contract as loaded (an overlay applied) records as the operation's advertised endpoint. */
  recorded?: AdvertisedEndpoint;
}

/** A token response, as JSON; each member is checked before use. */
export type TokenResponse = Record<string, unknown> & { access_token: string };

/** An authorization code and what was sent with the request that got it. */
export interface CodeGrant {
  code: string;
  verifier?: string;
  nonce?: string;
  scope: string;
  redirectUri: string;
}

/** What came back to the redirect_uri: a code, an error, or nothing (the navigation failed). */
export type Authorization =
  | ({ kind: "code"; navigation: Navigation; exchange: Exchange } & CodeGrant)
  | { kind: "error"; error: string; description: string; navigation: Navigation; exchange: Exchange }
  | { kind: "failed"; failure: string; navigation: Navigation; exchange: Exchange };

/** A code exchanged at the token endpoint: the exchange, and the tokens when the provider issued them. */
export interface CodeExchange {
  exchange: Exchange;
  tokens?: TokenResponse;
}

/** A sign-in asked to happen again (prompt=login, max_age), with the auth_time of the id_token its code brought. */
export interface Reauthentication {
  attempt: Authorization;
  /** The driver is a person (--manual): whether pages were shown cannot be told. */
  manual: boolean;
  /** When the request was sent, in seconds. */
  sentAt: number;
  /** The code exchanged, when there was a code. */
  exchanged?: CodeExchange;
  authTime?: number;
}

/** The first sign-in's id_token, which a later id_token of its session is compared with. */
export interface SessionStart {
  sub: unknown;
  authTime: unknown;
  /** When the first sign-in's tokens had come back, in seconds (the runner's clock). */
  signedInBy: number;
}

/**
 * A later id_token of the first sign-in's session (prompt=none, max_age=10000), got with no new sign-in: its claims
 * (none when the token response carried no id_token that decodes) and the first sign-in's.
 */
export interface SameSession {
  first: SessionStart;
  claims?: Record<string, unknown>;
}

/** The steps of refresh_token_offline_access, as far as they went. */
export interface RefreshRun {
  /** The authorization asked with offline_access and prompt=consent. */
  attempt: Authorization;
  /** Its code exchanged. */
  exchanged?: CodeExchange;
  /** The refresh grant. */
  refreshed?: Exchange;
  /** userinfo read with the refreshed access token. */
  read?: Exchange;
  /** The latest refresh token presented by the second client (refresh_token_client_bound), after the refresh grant. */
  byOtherClient?: Exchange;
}

/** A way of presenting the access token to userinfo (userinfo_methods). */
export interface UserinfoWay {
  what: string;
  operationId: "getUserInfo" | "getUserInfoByPost";
  /** The section that requires (or, for the form body, allows) this way. */
  section: string;
  /** RFC 6750 §2.2 makes this way optional: the contract marks it x-assumption, so a refusal is a warning. */
  assumed?: true;
}

/** A redirect address that differs from a registered one in one way only, which exact matching must refuse. */
export interface NearMiss {
  /** How it differs, for messages. */
  how: string;
  uri: string;
}

export interface Navigation {
  /** Where the provider sent the browser, when it reached an address `until` accepts. */
  arrived?: URL;
  /** Why it did not get there: the real cause (wrong credentials, no form, needs JavaScript...). */
  failure?: string;
  /** Pages the driver had to act on (sign-in, consent, confirmation) before arriving. */
  pages: number;
  /**
   * A form with a password input took a --sign-in value and was submitted on the way: the provider asked for the
   * credentials (prompt_login's evidence of a re-authentication; a one-click "continue" page is not one).
   */
  passwordSubmitted?: boolean;
  /** The address and a text excerpt of the last page, for reports. */
  lastPage?: { url: string; status?: number; text: string; screenshot?: string };
}
