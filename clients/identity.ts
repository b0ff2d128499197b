// Client of the identity provider, built on openid-client (a certified OpenID Connect relying party): discovery,
// PKCE (S256), the authorize URL with state and nonce, the code exchange with client_secret_post, refresh, userinfo,
// logout URL, and id_token verification against the JWKS with jose.
import { createRemoteJWKSet, customFetch as joseCustomFetch, jwtVerify, type JWTPayload } from "jose";
import * as oidc from "openid-client";
import type { components } from "../generated/types/identity.js";
import { namedNetworkError } from "./envelope.js";

export type { components, operations, paths } from "../generated/types/identity.js";

export type UserInfo = components["schemas"]["UserInfo"];
export type IdTokenClaims = components["schemas"]["IdTokenClaims"];
export type Scope = "openid" | "profile" | "email" | "wallets" | "offline_access" | "quests";

/** How the client sends a request: fetch's own signature. */
type Send = (url: string, init: RequestInit) => Promise<Response>;

export interface IdentityClientOptions {
  /** The provider's base address {id_url}, which is also its issuer, e.g. http://127.0.0.1:4020. */
  issuer: string;
  clientId: string;
  clientSecret: string;
  redirectUri: string;
  /** Plain-HTTP providers are refused unless this is set (local mocks and sandboxes). */
  allowInsecureRequests?: boolean | undefined;
  /**
   * Seconds each request after discovery may take; none by default, as with fetch and the other clients.
   * (openid-client's own default of 30 s arms an AbortSignal.timeout for every call, measured at about a fifth of a
   * local userinfo call.)
   */
  timeout?: number | undefined;
  /** Sends every request of the client (discovery, token, userinfo, JWKS); defaults to the global fetch. */
  fetch?: Send | undefined;
}

/** What to keep (server-side, e.g. in the session) between the redirect to the provider and the callback. */
export interface AuthorizationRequest {
  url: URL;
  state: string;
  nonce: string;
  codeVerifier: string;
}

export interface Tokens {
  accessToken: string;
  tokenType: string;
  idToken: string | undefined;
  refreshToken: string | undefined;
  expiresIn: number | undefined;
  scope: string | undefined;
  /** The verified claims of the id_token, when one was issued. */
  claims: IdTokenClaims | undefined;
}

export interface IdentityClient {
  readonly configuration: oidc.Configuration;
  /** Builds the authorize URL with a fresh state, nonce and PKCE (S256) pair. */
  createAuthorizationRequest(scopes?: Scope[]): Promise<AuthorizationRequest>;
  /**
   * Exchanges the code on the callback URL; checks state, PKCE, and the id_token's signature, iss, aud, exp and nonce.
   */
  handleCallback(callbackUrl: string | URL, request: Omit<AuthorizationRequest, "url">): Promise<Tokens>;
  refresh(refreshToken: string): Promise<Tokens>;
  userInfo(accessToken: string, expectedSubject: string): Promise<UserInfo>;
  /** Verifies an id_token against the provider's JWKS (signature, iss, aud, exp and, if given, nonce). */
  verifyIdToken(idToken: string, expectedNonce?: string): Promise<IdTokenClaims>;
  logoutUrl(parameters?: {
    idTokenHint?: string | undefined;
    postLogoutRedirectUri?: string | undefined;
    state?: string | undefined;
  }): URL;
}

/**
 * The provider refused a request: `code` is the OAuth / OpenID Connect `error` code (invalid_grant, invalid_client,
 * invalid_token, access_denied, ...), also at the start of the message. The openid-client error is the `cause`.
 */
export class IdentityApiError extends Error {
  override readonly name = "IdentityApiError";
  constructor(
    readonly code: string,
    readonly description: string | undefined,
    readonly status: number | undefined,
    readonly operation: string,
    cause: unknown,
  ) {
    super(`${code}${description ? `: ${description}` : ""} (${operation}${status ? `, HTTP ${status}` : ""})`, {
      cause,
    });
  }
}

/** Rethrows an OAuth error answer of the provider as IdentityApiError; anything else unchanged. */
function oauthError(operation: string): (error: unknown) => never {
  return (error) => {
    if (error instanceof oidc.ResponseBodyError || error instanceof oidc.AuthorizationResponseError) {
      throw new IdentityApiError(
        error.error,
        error.error_description,
        error instanceof oidc.ResponseBodyError ? error.status : undefined,
        operation,
        error,
      );
    }
    if (error instanceof oidc.WWWAuthenticateChallengeError) {
      const parameters = error.cause.find((challenge) => challenge.parameters.error)?.parameters;
      if (parameters?.error)
        throw new IdentityApiError(parameters.error, parameters.error_description, error.status, operation, error);
    }
    throw error;
  };
}

export async function createPkcePair(): Promise<{ codeVerifier: string; codeChallenge: string; method: "S256" }> {
  const codeVerifier = oidc.randomPKCECodeVerifier();
  return { codeVerifier, codeChallenge: await oidc.calculatePKCECodeChallenge(codeVerifier), method: "S256" };
}

/** The caller's fetch or the global one; its network failures name the call and the URL, not a bare "fetch failed". */
function namingFetch(send: Send | undefined): Send {
  return (url, init) =>
    (send ?? fetch)(url, init).catch((error: unknown) => {
      throw namedNetworkError(`${init.method ?? "GET"} ${new URL(url).pathname}`, url, error) ?? error;
    });
}

/** openid-client's configuration from the provider's discovery document, with client_secret_post. */
async function discover(options: IdentityClientOptions): Promise<oidc.Configuration> {
  const send = namingFetch(options.fetch);
  const configuration = await oidc.discovery(
    new URL(options.issuer),
    options.clientId,
    { client_secret: options.clientSecret, redirect_uris: [options.redirectUri] },
    oidc.ClientSecretPost(options.clientSecret),
    {
      ...(options.allowInsecureRequests ? { execute: [oidc.allowInsecureRequests] } : {}),
      [oidc.customFetch]: (url: string, init: oidc.CustomFetchOptions) => send(url, init as RequestInit),
    },
  );
  configuration.timeout = options.timeout;
  return configuration;
}

export async function createIdentityClient(options: IdentityClientOptions): Promise<IdentityClient> {
  const configuration = await discover(options);
  const metadata = configuration.serverMetadata();
  if (!metadata.jwks_uri) throw new Error(`the discovery document of ${options.issuer} has no jwks_uri`);
  const jwks = createRemoteJWKSet(new URL(metadata.jwks_uri), { [joseCustomFetch]: namingFetch(options.fetch) });

  async function verifyIdToken(idToken: string, expectedNonce?: string): Promise<IdTokenClaims> {
    const { payload } = await jwtVerify(idToken, jwks, { issuer: metadata.issuer, audience: options.clientId });
    if (expectedNonce !== undefined && payload.nonce !== expectedNonce)
      throw new Error("the id_token nonce does not match the authorization request");
    return payload as JWTPayload & IdTokenClaims;
  }

  async function toTokens(response: oidc.TokenEndpointResponse, expectedNonce?: string): Promise<Tokens> {
    return {
      accessToken: response.access_token,
      tokenType: response.token_type,
      idToken: response.id_token,
      refreshToken: response.refresh_token,
      expiresIn: response.expires_in,
      scope: response.scope,
      claims: response.id_token ? await verifyIdToken(response.id_token, expectedNonce) : undefined,
    };
  }

  const codeExchangeError = oauthError("code exchange");
  const refreshError = oauthError("refresh");
  const userInfoError = oauthError("userinfo");

  return {
    configuration,
    async createAuthorizationRequest(scopes = ["openid", "profile", "email"]) {
      const { codeVerifier, codeChallenge, method } = await createPkcePair();
      const state = oidc.randomState();
      const nonce = oidc.randomNonce();
      const url = oidc.buildAuthorizationUrl(configuration, {
        response_type: "code",
        redirect_uri: options.redirectUri,
        scope: scopes.join(" "),
        state,
        nonce,
        code_challenge: codeChallenge,
        code_challenge_method: method,
      });
      return { url, state, nonce, codeVerifier };
    },
    async handleCallback(callbackUrl, request) {
      const response = await oidc
        .authorizationCodeGrant(configuration, new URL(callbackUrl), {
          pkceCodeVerifier: request.codeVerifier,
          expectedState: request.state,
          expectedNonce: request.nonce,
          idTokenExpected: true,
        })
        .catch(codeExchangeError);
      return toTokens(response, request.nonce);
    },
    async refresh(refreshToken) {
      return toTokens(await oidc.refreshTokenGrant(configuration, refreshToken).catch(refreshError));
    },
    async userInfo(accessToken, expectedSubject) {
      return (await oidc
        .fetchUserInfo(configuration, accessToken, expectedSubject)
        .catch(userInfoError)) as unknown as UserInfo;
    },
    verifyIdToken,
    logoutUrl(parameters = {}) {
      const query: Record<string, string> = { client_id: options.clientId };
      if (parameters.idTokenHint) query.id_token_hint = parameters.idTokenHint;
      if (parameters.postLogoutRedirectUri) query.post_logout_redirect_uri = parameters.postLogoutRedirectUri;
      if (parameters.state) query.state = parameters.state;
      return oidc.buildEndSessionUrl(configuration, query);
    },
  };
}
