// The faults the identity fault provider (identity.ts) can switch on, one rule broken each; identity-faults.ts and
// faults.ts pair each with the check that must catch it.
import { CLAIM_FAULTS } from "./identity-endpoints.js";

export const IDENTITY_FAULTS = [
  "discovery-status-203",
  "wrong-issuer",
  "jwks-rsa-key-without-modulus",
  "wrong-secret-invalid-grant",
  "pkce-not-enforced",
  "code-reusable",
  "redirect-uri-not-checked",
  "id-token-wrong-audience",
  "userinfo-ignores-scope",
  "openid-not-in-scopes-supported",
  "code-challenge-methods-without-s256",
  "pkce-plain-accepted",
  "duplicate-kids",
  "state-not-echoed",
  "nonce-required",
  "unknown-parameter-refused",
  "userinfo-omits-granted-claims",
  // Not a fault but a correct provider's choice: RFC 6750 §2.2 leaves the token in the form body optional, and the
  // runner warns (test/conformance/identity-faults.test.ts).
  "userinfo-post-body-ignored",
  "userinfo-post-refused",
  "wrong-at-hash",
  "prompt-none-shows-page",
  "prompt-login-ignored",
  "max-age-ignored",
  // A request of the live session (prompt=none; max_age=10000) answered with an id_token whose auth_time is now.
  "prompt-none-new-auth-time",
  "max-age-resets-auth-time",
  "code-reuse-keeps-tokens",
  // A used code remembered for 10 seconds only, so that its replay 30 seconds later is accepted.
  "code-reuse-forgotten",
  // oidcc-server's checks of what it gets: a code of 12 lowercase letters; RFC 9207 advertised and its iss left out;
  // a token response without expires_in (RECOMMENDED: a warning, a failure under --strict).
  "code-low-entropy",
  "iss-advertised-not-sent",
  "token-without-expires-in",
  "redirect-uri-query-ignored",
  "offline-access-without-refresh-token",
  "logout-open-redirect",
  "logout-drops-state",
  "logout-keeps-session",
  // Checks that once passed with nothing behind them (issue 62): prompt=login answered with a one-click "Continue with
  // alice" page, no credentials asked (Core §3.1.2.1's SHOULD: a warning, a failure under --strict); a provider that
  // keeps no session at all, so that logout_ends_session has nothing to prove and is skipped.
  "prompt-ignored-one-click",
  "no-session",
  // A refusal with the wrong status: replayed, misdirected and unverified codes refused with 403 access_denied (not
  // RFC 6749 §5.2's 400 invalid_grant). Still refusals: only status_code_conformance fails.
  "code-refused-403",
  // Correct providers' choices: prompt=none without id_token_hint refused with invalid_request (OpenID Connect Core
  // §3.1.2.1, a MAY), and authorize's error page with 403 instead of the contract's assumed 400 (a warning).
  "prompt-none-needs-hint",
  "authorize-error-403",
  // Security holes: PKCE standing in for the client secret; near misses of registered redirect addresses accepted.
  "pkce-without-client-secret",
  "redirect-uri-any-path",
  "redirect-uri-any-subdomain",
  "post-logout-redirect-uri-any-path",
  "id-token-audience-array-without-client",
  // Choices the run must pass: the code looked up before the client (RFC 6749 §5.2 orders no checks), the password
  // grant (§4.3), a logout without post_logout_redirect_uri answered 200 with JSON (RP-Initiated Logout fixes none).
  "code-looked-up-first",
  "password-grant-enabled",
  "logout-json",
  // Authorization requests with the parameters OpenID Connect Core §15.1 says every OP takes (REFUSED_PARAMETERS in
  // identity.ts), and one it must refuse, without response_type (RFC 6749 §3.1.1).
  "response-type-missing-accepted",
  "display-page-refused",
  "display-popup-refused",
  "max-age-long-refused",
  "login-hint-refused",
  "ui-locales-refused",
  "claims-locales-refused",
  "acr-values-refused",
  "claims-parameter-refused",
  // Config OP: a plain http endpoint on a host other than loopback, grant types without the contract's flow; and
  // two a provider may do with a warning (RECOMMENDED members, Discovery §3): no scopes_supported, too few claims.
  // RP-Initiated Logout: a hint whose signature is not checked, alg none taken as signed, a post_logout_redirect_uri
  // honoured without a hint, a state added though none was sent, the registered address chosen when none was named,
  // server errors for a logout with no parameters or only state.
  "logout-hint-signature-not-checked",
  "logout-hint-alg-none-accepted",
  "logout-redirects-without-hint",
  "logout-adds-empty-state",
  "logout-default-post-logout-redirect",
  "logout-no-parameters-500",
  "logout-only-state-500",
  "endpoint-not-https",
  "grant-types-without-authorization-code",
  "scopes-supported-absent",
  "claims-supported-incomplete",
  // The authorization request by POST refused (OpenID Connect Core §3.1.2.1's MUST; the contract describes GET only:
  // a warning, a failure under --strict) or taken and answered with an error redirect; a scope whose values must come
  // in one order (RFC 6749 §3.3: they need not); a refresh token another client can use (RFC 6749 §6, §10.4).
  "authorize-post-refused",
  "authorize-post-error-redirect",
  "scope-openid-first",
  "refresh-token-any-client",
  ...CLAIM_FAULTS,
] as const;
export type IdentityFault = (typeof IDENTITY_FAULTS)[number];

/** The faults that refuse an authorization request for one parameter: its name, and the values refused. */
export const REFUSED_PARAMETERS: Partial<Record<IdentityFault, { name: string; refused: (value: string) => boolean }>> =
  {
    // Each fault breaks one check: the other display value and max_age=1 still pass.
    "display-page-refused": { name: "display", refused: (value) => value === "page" },
    "display-popup-refused": { name: "display", refused: (value) => value === "popup" },
    "max-age-long-refused": { name: "max_age", refused: (value) => Number(value) > 3600 },
    "login-hint-refused": { name: "login_hint", refused: () => true },
    "ui-locales-refused": { name: "ui_locales", refused: () => true },
    "claims-locales-refused": { name: "claims_locales", refused: () => true },
    "acr-values-refused": { name: "acr_values", refused: () => true },
    "claims-parameter-refused": { name: "claims", refused: () => true },
  };
