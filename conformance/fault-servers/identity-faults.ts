// The OpenID Connect faults added with the Basic OP / Config OP level checks: each entry is the fault provider
// (identity.ts) breaking one rule, the one check that must catch it and the smallest run that reaches it. The
// self-test (test/conformance/identity-faults.test.ts) runs the real CLI against every entry; the first identity faults
// stay in faults.ts's table with the other APIs', and the RP-Initiated Logout ones are in identity-logout-faults.ts.
import type { Fault } from "./faults.js";
import { startIdentityServer } from "./identity.js";
import { FLOWS, identity, variant } from "./identity-fault-runs.js";
import { IDENTITY_LOGOUT_FAULT_CASES } from "./identity-logout-faults.js";

/** A client whose application has a host name (not a loopback IP literal, which has no subdomains). */
const NAMED_APP = "https://app.example.org";
const onApp = (origin: string) => [
  ...["--redirect-uri", `${origin}/callback`],
  ...["--post-logout-redirect-uri", `${origin}/`],
];

export const IDENTITY_FAULT_CASES: Fault[] = [
  {
    name: "identity-openid-not-in-scopes-supported",
    api: "identity",
    check: "discovery_rs256_and_openid",
    breaks: "scopes_supported does not list openid",
    args: ["--operation", "getOpenIdConfiguration"],
    start: identity("openid-not-in-scopes-supported"),
  },
  {
    name: "identity-endpoint-not-https",
    api: "identity",
    check: "discovery_https_endpoints",
    breaks: "the discovery document advertises an endpoint as plain http on a host other than loopback",
    args: ["--operation", "getOpenIdConfiguration"],
    start: identity("endpoint-not-https"),
  },
  {
    name: "identity-grant-types-without-authorization-code",
    api: "identity",
    check: "discovery_grant_types_and_claims",
    breaks: "grant_types_supported lists implicit only, not the contract's authorization_code",
    args: ["--operation", "getOpenIdConfiguration"],
    start: identity("grant-types-without-authorization-code"),
  },
  {
    name: "identity-code-challenge-methods-without-s256",
    api: "identity",
    check: "pkce_s256_only",
    // Leaving the member out is allowed (RFC 8414 §2: OPTIONAL); advertising it without S256 is not (RFC 7636 §4.2).
    breaks: "the discovery document's code_challenge_methods_supported lists plain only, without S256",
    args: ["--operation", "getOpenIdConfiguration"],
    start: identity("code-challenge-methods-without-s256"),
  },
  {
    name: "identity-pkce-plain-accepted",
    api: "identity",
    check: "pkce_s256_only",
    // RFC 7636 allows plain: only the contract's S256-only x-assumption forbids it, so it fails under --strict (and
    // warns without it, test/conformance/identity-faults.test.ts).
    breaks: "an authorization request with code_challenge_method=plain gets a code",
    args: [...FLOWS, "--strict"],
    start: identity("pkce-plain-accepted"),
  },
  {
    name: "identity-duplicate-kids",
    api: "identity",
    check: "jwks_unique_kids",
    breaks: "the JWKS has two different keys with the same kid",
    args: ["--operation", "getJwks"],
    start: identity("duplicate-kids"),
  },
  {
    name: "identity-javascript-sign-in-without-browser",
    api: "identity",
    check: "sign_in",
    breaks:
      "the sign-in page builds its form with JavaScript and the run has no --browser: the runner cannot sign in, which fails the run",
    args: FLOWS,
    start: variant("javascript-sign-in"),
  },
  {
    name: "identity-state-not-echoed",
    api: "identity",
    check: "state_echoed",
    breaks: "the authorization response does not carry the state sent",
    args: FLOWS,
    start: identity("state-not-echoed"),
  },
  {
    name: "identity-nonce-required",
    api: "identity",
    check: "nonce_optional",
    breaks: "an authorization request without nonce is refused",
    args: FLOWS,
    start: identity("nonce-required"),
  },
  {
    name: "identity-unknown-parameter-refused",
    api: "identity",
    check: "unknown_parameters_ignored",
    breaks: "an authorization request with an unknown parameter is refused with invalid_request",
    args: FLOWS,
    start: identity("unknown-parameter-refused"),
  },
  {
    name: "identity-userinfo-omits-granted-claims",
    api: "identity",
    check: "granted_scope_claims",
    breaks: "userinfo leaves out the e-mail claims though the email scope was granted",
    args: FLOWS,
    start: identity("userinfo-omits-granted-claims"),
  },
  {
    name: "identity-userinfo-post-refused",
    api: "identity",
    check: "userinfo_methods",
    breaks: "userinfo answers a POST with 405, though OpenID Connect Core §5.3.1 requires POST",
    args: FLOWS,
    start: identity("userinfo-post-refused"),
  },
  {
    name: "identity-wrong-at-hash",
    api: "identity",
    check: "id_token_at_hash",
    breaks: "the id_token's at_hash is not that of the access token",
    args: FLOWS,
    start: identity("wrong-at-hash"),
  },
  {
    name: "identity-prompt-none-shows-page",
    api: "identity",
    check: "prompt_none",
    breaks: "prompt=none without a session shows the sign-in page instead of redirecting login_required",
    args: FLOWS,
    start: identity("prompt-none-shows-page"),
  },
  {
    name: "identity-prompt-login-ignored",
    api: "identity",
    check: "prompt_login",
    breaks: "prompt=login signs the user in from the existing session",
    args: FLOWS,
    start: identity("prompt-login-ignored"),
  },
  {
    name: "identity-max-age-ignored",
    api: "identity",
    check: "max_age",
    breaks: "max_age is ignored: an older session signs the user in",
    args: FLOWS,
    start: identity("max-age-ignored"),
  },
  {
    name: "identity-code-reuse-keeps-tokens",
    api: "identity",
    check: "code_reuse_revokes_tokens",
    // RFC 6749 §4.1.2 only recommends revoking them (SHOULD): a warning, a failure under --strict.
    breaks: "a replayed code is refused but the tokens issued for it keep working",
    args: [...FLOWS, "--strict"],
    start: identity("code-reuse-keeps-tokens"),
  },
  {
    name: "identity-prompt-none-new-auth-time",
    api: "identity",
    check: "prompt_none",
    breaks: "prompt=none with the live session returns an id_token whose auth_time is now, not the first sign-in's",
    args: FLOWS,
    start: identity("prompt-none-new-auth-time"),
  },
  {
    name: "identity-max-age-resets-auth-time",
    api: "identity",
    check: "max_age_10000",
    breaks: "max_age=10000 with the live session returns an id_token whose auth_time is now, not the first sign-in's",
    args: FLOWS,
    start: identity("max-age-resets-auth-time"),
  },
  {
    name: "identity-code-low-entropy",
    api: "identity",
    check: "authorization_code_entropy",
    breaks: "authorization codes are 12 random lowercase letters (96 bits long, about 56 bits of entropy)",
    args: FLOWS,
    start: identity("code-low-entropy"),
  },
  {
    name: "identity-iss-advertised-not-sent",
    api: "identity",
    check: "authorization_response_iss",
    breaks: "authorization_response_iss_parameter_supported: true is advertised, but no authorization response has iss",
    args: FLOWS,
    start: identity("iss-advertised-not-sent"),
  },
  {
    name: "identity-token-without-expires-in",
    api: "identity",
    check: "token_expires_in",
    // RFC 6749 §5.1 only recommends expires_in: a warning, a failure under --strict.
    breaks: "the token response carries no expires_in",
    args: [...FLOWS, "--strict"],
    start: identity("token-without-expires-in"),
  },
  {
    name: "identity-code-reuse-forgotten",
    api: "identity",
    check: "code_reuse_30_seconds",
    breaks: "a used code is remembered for 10 seconds only: replayed at once it is refused, 30 seconds later accepted",
    args: ["--operation", "exchangeToken"],
    start: identity("code-reuse-forgotten"),
  },
  {
    name: "identity-redirect-uri-query-ignored",
    api: "identity",
    check: "redirect_uri_exact_match",
    breaks: "the redirect_uri is matched without its query, so an altered query is redirected to",
    args: FLOWS,
    start: identity("redirect-uri-query-ignored"),
  },
  {
    name: "identity-redirect-uri-any-path",
    api: "identity",
    check: "redirect_uri_exact_match",
    breaks:
      "any path on the registered loopback origin is taken as the registered redirect_uri (RFC 8252 §7.3 lets only the port vary)",
    args: FLOWS,
    start: identity("redirect-uri-any-path"),
  },
  {
    name: "identity-redirect-uri-any-subdomain",
    api: "identity",
    check: "redirect_uri_exact_match",
    breaks: "a subdomain of the registered host (https://app.example.org) is taken as the registered redirect_uri",
    args: [...FLOWS, ...onApp(NAMED_APP)],
    start: (port) => startIdentityServer({ fault: "redirect-uri-any-subdomain", port, appOrigin: NAMED_APP }),
  },
  {
    name: "identity-pkce-without-client-secret",
    api: "identity",
    check: "client_authentication_required",
    breaks: "a confidential client's code is redeemed with its code_verifier and no client_secret",
    args: FLOWS,
    start: identity("pkce-without-client-secret"),
  },
  {
    name: "identity-id-token-audience-array-without-client",
    api: "identity",
    check: "id_token_signature_and_claims",
    breaks: 'the id_token\'s aud is ["another-app"], an array without the client_id',
    args: FLOWS,
    start: identity("id-token-audience-array-without-client"),
  },
  {
    name: "identity-id-token-ignores-scope",
    api: "identity",
    check: "id_token_by_scope",
    breaks:
      "the id_token carries the user's claims of every scope (wallets, phone_number) whatever was granted, e-mail and name for scope openid",
    args: FLOWS,
    start: identity("id-token-ignores-scope"),
  },
  {
    name: "identity-userinfo-secret-claims",
    api: "identity",
    check: "no_secret_claims",
    breaks: "userinfo carries the user's TOTP secret and recovery codes, nested under security",
    args: FLOWS,
    start: identity("userinfo-secret-claims"),
  },
  {
    name: "identity-userinfo-without-iss",
    api: "identity",
    check: "response_schema_conformance",
    // The contract's UserInfo requires iss: the schema check reports it, userinfo_by_scope does not repeat it.
    breaks: "userinfo leaves out iss, which the seed's claim table returns always",
    args: FLOWS,
    start: identity("userinfo-without-iss"),
  },
  {
    name: "identity-offline-access-without-refresh-token",
    api: "identity",
    check: "refresh_token_offline_access",
    breaks: "offline_access is granted (the token response's scope lists it) but no refresh token is issued",
    args: FLOWS,
    start: identity("offline-access-without-refresh-token"),
  },
  {
    name: "identity-prompt-ignored-one-click",
    api: "identity",
    check: "prompt_login",
    // Core §3.1.2.1 says SHOULD prompt: a warning without --strict (identity-session-evidence.test.ts).
    breaks: 'prompt=login with a session answers with a one-click "Continue with alice" page, no credentials asked',
    args: [...FLOWS, "--strict"],
    start: identity("prompt-ignored-one-click"),
  },
  ...IDENTITY_LOGOUT_FAULT_CASES,
  {
    name: "identity-response-type-missing-accepted",
    api: "identity",
    check: "response_type_missing",
    breaks: "an authorization request without response_type gets a code",
    args: FLOWS,
    start: identity("response-type-missing-accepted"),
  },
  {
    name: "identity-authorize-post-refused",
    api: "identity",
    check: "authorization_by_post",
    // OpenID Connect Core §3.1.2.1's MUST; the contract describes GET only, so a warning unless --strict (and a warning
    // without it, test/conformance/identity-faults.test.ts).
    breaks: "the authorization request by POST is answered 405 where the same request by GET signs in",
    args: [...FLOWS, "--strict"],
    start: identity("authorize-post-refused"),
  },
  {
    name: "identity-authorize-post-error-redirect",
    api: "identity",
    check: "authorization_by_post",
    breaks: "the authorization request by POST is taken and answered with an error redirect (invalid_request)",
    args: FLOWS,
    start: identity("authorize-post-error-redirect"),
  },
  {
    name: "identity-scope-openid-first",
    api: "identity",
    check: "alternate_happy_flow",
    breaks: "a scope whose values do not start with openid is refused with invalid_scope (RFC 6749 §3.3: no order)",
    args: FLOWS,
    start: identity("scope-openid-first"),
  },
  {
    name: "identity-refresh-token-any-client",
    api: "identity",
    check: "refresh_token_client_bound",
    breaks: "a refresh token issued to the client is accepted from the second registered client",
    args: FLOWS,
    start: identity("refresh-token-any-client"),
  },
  ...(
    [
      ["display_page", "display-page-refused", "display=page"],
      ["display_popup", "display-popup-refused", "display=popup"],
      ["max_age_10000", "max-age-long-refused", "max_age=10000"],
      ["login_hint", "login-hint-refused", "a login_hint"],
      ["ui_locales", "ui-locales-refused", "ui_locales"],
      ["claims_locales", "claims-locales-refused", "claims_locales"],
      ["acr_values", "acr-values-refused", "acr_values"],
      ["claims_essential", "claims-parameter-refused", "the claims parameter it advertises"],
    ] as const
  ).map(([check, fault, what]) => ({
    name: `identity-${fault}`,
    api: "identity" as const,
    check,
    breaks: `an authorization request with ${what} is refused with invalid_request`,
    args: FLOWS,
    start: identity(fault),
  })),
];
