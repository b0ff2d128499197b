// The scenarios of the OpenID Connect flows (conformance/identity/), one type each, discriminated by `name`. A flow
// sends and returns one of these: every exchange it made with its role, every authorization request it sent (each
// judged by state_echoed), and the facts its checks read (judge/identity-scenarios.ts). The data shapes the checks
// take (an authorization's outcome, a token response...) are the checks' own, in judge/identity-*.ts.
import type { JWTPayload } from "jose";
import type { NearMiss } from "./identity-facts.js";
import type { Reauthentication } from "./identity-facts.js";
import type { RefreshRun, SameSession, TokenErrorCase } from "./identity-facts.js";
import type { UserinfoWay } from "./identity-facts.js";
import type { Authorization, CodeExchange, DiscoveryDocument, EndpointLocation } from "./identity-facts.js";
import type { TokenResponse } from "./identity-facts.js";
import type { Navigation } from "./identity-facts.js";
import type { CheckName } from "./check-registry.js";
import type { Exchange } from "./exchange.js";
import type { RoleExchange } from "./scenario.js";

/** An authorization request a flow sent through the browser, and what came back to the redirect_uri. */
export interface AuthorizationAttempt {
  /** What the request was for: the case of its state_echoed verdict. */
  purpose: string;
  /** The state the request carried. */
  state: string;
  outcome: Authorization;
  /** The discovery document's issuer, and whether it advertises authorization_response_iss_parameter_supported. */
  iss: { issuer: unknown; advertised: boolean };
}

/** What a scenario sent, in order, as its flow went. */
export interface Trail {
  exchanges: RoleExchange[];
  authorizations: AuthorizationAttempt[];
}

interface Identity<N extends string> extends Trail {
  family: "identity";
  name: N;
}

/** The discovery document, read as a client finds it; `document` when it is a JSON object. */
export interface DiscoveryScenario extends Identity<"discovery"> {
  exchange: Exchange;
  document?: DiscoveryDocument;
}

/**
 * The discovery document read first for the endpoints (identity/paths.ts): where each operation with a discovery
 * member was sent from then on.
 */
export interface EndpointsScenario extends Identity<"endpoints"> {
  exchange: Exchange;
  locations: EndpointLocation[];
}

/** The JWKS; `keys` when it has a keys array. */
export interface JwksScenario extends Identity<"jwks"> {
  exchange: Exchange;
  keys?: unknown[];
}

/** The flow checks were selected, but the client's credentials they need were not given: nothing was sent. */
export interface NoClientScenario extends Identity<"no client"> {
  missing: Array<"clientId" | "clientSecret" | "redirectUri">;
}

/** token_errors before any sign-in: requests each with one fault and no code of their own. */
export interface TokenErrorsScenario extends Identity<"token errors"> {
  requests: Array<{ what: TokenErrorCase; exchange: Exchange }>;
}

/** The sign-in every flow starts from, and its fresh code exchanged. */
export interface SignInScenario extends Identity<"sign in"> {
  first: Authorization;
  /** The first code exchanged with its verifier, when there was a code. */
  fresh?: CodeExchange;
  /** Flow checks that scenarios before the sign-in judged: a failed sign-in leaves them as they are. */
  judgedBefore: string[];
}

/** The first sign-in's id_token, verified with the JWKS the discovery names. */
export interface IdTokenScenario extends Identity<"id token"> {
  /** The token response that carried it. */
  exchange: Exchange;
  tokens: TokenResponse;
  /** The nonce the authorization request sent. */
  nonce?: string;
  /** The scope the authorization request asked for (judged by when the token response names none). */
  requested: string;
  /** Its claims, when it verified. */
  verified?: JWTPayload;
  /** Why it did not verify. */
  unverified?: Error;
}

/** The first sign-in's id_token, decoded for its at_hash. */
export interface AtHashScenario extends Identity<"at hash"> {
  exchange: Exchange;
  tokens: TokenResponse;
  /** Its claims, decoded without verifying the signature; undefined without an id_token. */
  claims?: JWTPayload;
}

/** userinfo read with the access token of one token response, and the scope its authorization request asked for. */
export interface ScopedUserinfo {
  requested: string;
  /** The token exchange that issued the access token. */
  issued: Exchange;
  tokens: TokenResponse;
  userinfo: Exchange;
}

/** userinfo read with the first sign-in's token, then with a token of scope openid only. */
export interface UserinfoByScopeScenario extends Identity<"userinfo by scope"> {
  first: ScopedUserinfo;
  /** The sub of the first sign-in's verified id_token. */
  idTokenSub: unknown;
  /** userinfo read with a token of scope openid, when one was issued. */
  openidOnly?: ScopedUserinfo;
}

/** userinfo read each way a client may present the access token. */
export interface UserinfoMethodsScenario extends Identity<"userinfo methods"> {
  ways: Array<{ way: UserinfoWay; exchange: Exchange }>;
}

/** The first code exchanged again, and userinfo read with its token after that. */
export interface CodeReuseScenario extends Identity<"code reuse"> {
  again: Exchange;
  /** code_reuse_revokes_tokens was to run. */
  revocationAsked: boolean;
  /** userinfo with the first code's access token after the replay, when the replay brought no tokens. */
  after?: Exchange;
}

/**
 * oidcc-codereuse-30seconds: a code of its own exchanged once early in the run and replayed at its end, once 30
 * seconds had passed since that exchange.
 */
export interface CodeReuseLaterScenario extends Identity<"code reuse after 30 seconds"> {
  grant: Authorization;
  /** The code's first exchange, when there was a code. */
  first?: CodeExchange;
  /** The replay, when the first exchange issued tokens. */
  again?: Exchange;
  /** How long after the first exchange the replay was sent, in milliseconds. */
  afterMs?: number;
}

/** token_errors on a fresh code with a wrong client_secret. */
export interface WrongClientSecretScenario extends Identity<"wrong client secret"> {
  grant: Authorization;
  exchange?: Exchange;
}

/** A fresh code with its verifier and no client_secret. */
export interface ClientAuthenticationScenario extends Identity<"client authentication"> {
  grant: Authorization;
  exchange?: Exchange;
}

/** Codes of S256 challenges exchanged without their verifier and with a wrong one; stops at a grant without code. */
export interface PkceEnforcementScenario extends Identity<"pkce enforcement"> {
  attempts: Array<{ what: string; grant: Authorization; exchange?: Exchange }>;
}

/** An authorization request with code_challenge_method=plain. */
export interface PlainPkceScenario extends Identity<"plain pkce"> {
  attempt: Authorization;
}

/** An unregistered redirect_uri, and a code exchanged with it. */
export interface RedirectUriMismatchScenario extends Identity<"redirect uri mismatch"> {
  unregistered: string;
  toUnregistered: Authorization;
  exchangedElsewhere?: Exchange;
}

/** Near misses of the registered redirect_uri. */
export interface RedirectUriExactMatchScenario extends Identity<"redirect uri exact match"> {
  attempts: Array<{ nearMiss: NearMiss; attempt: Authorization }>;
}

/** An authorization request without nonce, its code exchanged. */
export interface NonceOptionalScenario extends Identity<"nonce optional"> {
  attempt: Authorization;
  exchanged?: CodeExchange;
  /** The nonce of the id_token it brought (decoded). */
  idTokenNonce: unknown;
}

/** An authorization request with a parameter no provider knows. */
export interface UnknownParametersScenario extends Identity<"unknown parameters"> {
  attempt: Authorization;
}

/**
 * An authorization request a provider must take as it takes a plain one (with one parameter that must not cause an
 * error), its code exchanged; or why it was not sent.
 */
export interface MustSucceedScenario extends Identity<"must succeed"> {
  check: CheckName;
  /** The request, for messages: "an authorization request with display=page". */
  what: string;
  /** The section that requires it to succeed. */
  section: string;
  /** Why it was not sent: the provider does not advertise the feature. */
  skipped?: string;
  attempt?: Authorization;
  exchanged?: CodeExchange;
  /** An id_token claim the request makes REQUIRED, and its value in the id_token the code brought. */
  requiredClaim?: { name: string; section: string; value: unknown };
  /** Its id_token beside the first sign-in's, when the request is sent on that session with no new sign-in. */
  sameSession?: SameSession;
}

/** An authorization request sent by POST as a form, its code exchanged; or why it was not sent. */
export interface AuthorizationByPostScenario extends Identity<"authorization by post"> {
  /** Why it was not sent: the driver cannot send a form (--manual). */
  skipped?: string;
  attempt?: Authorization;
  exchanged?: CodeExchange;
}

/** An authorization request with its scopes and parameters in another order, its code exchanged, userinfo read. */
export interface AlternateHappyFlowScenario extends Identity<"alternate happy flow"> {
  /** The scope it asked for. */
  scope: string;
  attempt: Authorization;
  exchanged?: CodeExchange;
  /** userinfo read with the access token its code brought. */
  read?: ScopedUserinfo;
}

/** An authorization request without response_type. */
export interface ResponseTypeMissingScenario extends Identity<"response type missing"> {
  attempt: Authorization;
}

/** prompt=none with the live session of the first sign-in. */
export interface PromptNoneSignedInScenario extends Identity<"prompt none signed in"> {
  attempt: Authorization;
  /** Sent with the first sign-in's id_token as id_token_hint. */
  hinted: boolean;
  /** Its code exchanged, when there was a code. */
  exchanged?: CodeExchange;
  /** Its id_token beside the first sign-in's. */
  sameSession?: SameSession;
}

/** prompt=none after the browser forgot its session. */
export interface PromptNoneSignedOutScenario extends Identity<"prompt none signed out"> {
  attempt: Authorization;
}

/** prompt=login, its code exchanged for the id_token's auth_time. */
export interface PromptLoginScenario extends Identity<"prompt login"> {
  run: Reauthentication;
  /** When the first sign-in started, in seconds. */
  firstSignIn: number;
}

/** max_age=1 on an older session, its code exchanged for the id_token's auth_time. */
export interface MaxAgeScenario extends Identity<"max age"> {
  run: Reauthentication;
}

/** offline_access with prompt=consent, the refresh grant and userinfo with the refreshed token. */
export interface RefreshScenario extends Identity<"refresh tokens"> {
  run: RefreshRun;
  /** The discovery document's scopes_supported, for what it advertises and the run saw not granted. */
  scopesSupported?: unknown;
  /** A second client was given (--second-client-id, --second-client-secret): refresh_token_client_bound's. */
  secondClient: boolean;
}

/** A logout navigation and where the browser arrived. */
export interface LogoutNavigation {
  navigation: Navigation;
  exchange: Exchange;
}

/** RP-initiated logout, as far as it went. */
export interface LogoutScenario extends Identity<"logout"> {
  /** The registered post_logout_redirect_uri (--post-logout-redirect-uri); nothing is sent without it. */
  registered?: string;
  /** A sign-in brought an id_token to sign out with. */
  signedIn: boolean;
  /** Logouts to post_logout_redirect_uri values not registered, when logout_open_redirect ran. */
  openRedirects?: Array<LogoutNavigation & { target: NearMiss }>;
  /**
   * prompt=none just before the logout, in the same browser, when logout_ends_session ran: a code proves there was a
   * session to end.
   */
  beforeLogout?: Authorization;
  /** The logout to the registered address, with the state it sent. */
  postRedirect?: LogoutNavigation & { state: string };
  /** prompt=none after the logout, when the logout arrived, logout_ends_session ran and there was a session. */
  afterLogout?: Authorization;
}

/**
 * What an RP-Initiated Logout module's request (identity/logout-modules.ts) must get: `refused` no redirect to the
 * post_logout_redirect_uri, no 5xx, and the session kept (the user was not asked, so did not confirm); `signed out` a
 * page (a confirmation or logged-out page, or an error page), no 5xx and no redirect the request did not ask for;
 * `redirected without state` the registered post_logout_redirect_uri with no state added.
 */
export type LogoutModuleExpectation = "refused" | "signed out" | "redirected without state";

/** One module's logout request, one fault each, and what came of it. */
export interface LogoutModuleAttempt extends LogoutNavigation {
  check: CheckName;
  /** The request's one difference from a complete logout request, in words. */
  sent: string;
  expect: LogoutModuleExpectation;
  /** refused: prompt=none right after, which still signs in when the session survived. */
  sessionAfter?: Authorization;
}

/** The RP-Initiated Logout modules' requests, as far as they went. */
export interface LogoutModulesScenario extends Identity<"logout modules"> {
  /** The registered post_logout_redirect_uri (--post-logout-redirect-uri); nothing is sent without it. */
  registered?: string;
  attempts: LogoutModuleAttempt[];
  /** The checks that got no attempt because the sign-in before them brought no id_token. */
  notSignedIn: CheckName[];
}

export type IdentityScenario =
  | DiscoveryScenario
  | EndpointsScenario
  | JwksScenario
  | NoClientScenario
  | TokenErrorsScenario
  | SignInScenario
  | IdTokenScenario
  | AtHashScenario
  | UserinfoByScopeScenario
  | UserinfoMethodsScenario
  | CodeReuseScenario
  | CodeReuseLaterScenario
  | WrongClientSecretScenario
  | ClientAuthenticationScenario
  | PkceEnforcementScenario
  | PlainPkceScenario
  | RedirectUriMismatchScenario
  | RedirectUriExactMatchScenario
  | NonceOptionalScenario
  | UnknownParametersScenario
  | MustSucceedScenario
  | AuthorizationByPostScenario
  | AlternateHappyFlowScenario
  | ResponseTypeMissingScenario
  | PromptNoneSignedInScenario
  | PromptNoneSignedOutScenario
  | PromptLoginScenario
  | MaxAgeScenario
  | RefreshScenario
  | LogoutScenario
  | LogoutModulesScenario;
