// The OpenID Connect provider checks (identity only), in the order they run. docs/guide/identity-conformance.md maps
// each to the OpenID Foundation test modules it corresponds to; docs/guide/conform-reference.md lists them with the
// others.
import type { CheckInfo } from "./checks.js";

const identity = (name: string, catches: string): CheckInfo => ({ name, apis: ["identity"], catches });

export const IDENTITY_CHECKS: CheckInfo[] = [
  identity(
    "discovery_fields_and_issuer",
    "a discovery document without the fields OpenID Connect Discovery requires, whose issuer is not the base address, or whose endpoints are not the contract's paths under it.",
  ),
  identity(
    "discovery_rs256_and_openid",
    "a discovery document that does not list RS256 in id_token_signing_alg_values_supported or openid in scopes_supported (OpenID Connect Discovery §3).",
  ),
  identity(
    "pkce_s256_only",
    "a discovery document whose code_challenge_methods_supported, when advertised (RFC 8414 §2: OPTIONAL; PKCE itself is proven by the flow), lacks S256 (RFC 7636 §4.2); offering or accepting code_challenge_method=plain breaks the contract's S256-only x-assumption (RFC 9700 §2.1.1), a warning unless --strict.",
  ),
  identity(
    "jwks_shape",
    "a JWKS whose keys lack kty or the members of their key type (n and e for RSA, crv, x and y for EC), or that has no signing key.",
  ),
  identity(
    "jwks_unique_kids",
    "a JWKS in which two keys share a kid, so that a relying party cannot tell which key signed a token.",
  ),
  identity(
    "sign_in",
    "a sign-in the runner cannot get through to an authorization code: wrong --sign-in values, no form to submit, a page that needs JavaScript (run with --browser); the flow checks cannot run then, so the run fails.",
  ),
  identity(
    "state_echoed",
    "an authorization response (a code or an error) that does not return the state the request sent, unchanged (RFC 6749 §4.1.2).",
  ),
  identity(
    "token_errors",
    "token endpoint errors not in the RFC 6749 §5.2 shape: an unknown code, a fresh valid code with a wrong client_secret and a grant_type nobody defines must get 400/401 with the right error code, each request carrying exactly one fault (the only check that judges a refusal's error code).",
  ),
  identity(
    "pkce_enforcement",
    "a code issued for a PKCE challenge that can be exchanged without the code_verifier or with a wrong one (RFC 7636 §4.6); any 4xx without a token is a refusal.",
  ),
  identity(
    "client_authentication_required",
    "a confidential client's fresh code exchanged with its code_verifier but without the client_secret (RFC 6749 §3.2.1, §4.1.3: PKCE does not replace client authentication); any 4xx without a token is a refusal.",
  ),
  identity(
    "code_reuse",
    "an authorization code that can be exchanged twice (RFC 6749 §4.1.2); any 4xx without a token is a refusal.",
  ),
  identity(
    "code_reuse_revokes_tokens",
    "an access token issued for an authorization code that still works after the code was replayed (RFC 6749 §4.1.2: tokens issued from a reused code SHOULD be revoked, so a warning, a failure under --strict).",
  ),
  identity(
    "redirect_uri_mismatch",
    "an unregistered redirect_uri (another site) that is redirected to, or a code exchanged with another redirect_uri than the one it was issued for (RFC 6749 §4.1.2.1, §4.1.3); any 4xx without a token is a refusal.",
  ),
  identity(
    "redirect_uri_exact_match",
    "a near miss of the registered redirect_uri (a subdomain of its host, a deeper or another path, an extra query parameter; a loopback's port is never varied, RFC 8252 §7.3) that the provider redirects to instead of showing an error (exact matching, RFC 9700 §4.1.3).",
  ),
  identity(
    "id_token_signature_and_claims",
    "an id_token that does not verify with the JWKS, or whose iss, aud (the client_id, or an array that contains it: OpenID Connect Core §2, §3.1.3.7), exp, iat, nonce or sub are wrong; a claim that breaks only an x-assumption of the contract (the e-mail format) is a warning unless --strict.",
  ),
  identity(
    "id_token_at_hash",
    "an id_token whose at_hash, when present, is not the left half of the SHA-256 of the access token, base64url-encoded (OpenID Connect Core §3.1.3.6).",
  ),
  identity(
    "nonce_optional",
    "an authorization request without nonce that is refused, or whose id_token carries a nonce anyway (nonce is optional in the code flow, OpenID Connect Core §3.1.2.1).",
  ),
  identity(
    "unknown_parameters_ignored",
    "an authorization request with a parameter the provider does not know that is refused instead of ignored (OpenID Connect Core §3.1.2.1).",
  ),
  identity(
    "userinfo_by_scope",
    "userinfo that releases claims of a scope that was not granted, lacks sub, iss or aud, or disagrees with the id_token's sub.",
  ),
  identity(
    "granted_scope_claims",
    "userinfo that returns no claim at all of a granted scope (profile, email, wallets) for a user who has them.",
  ),
  identity(
    "userinfo_methods",
    "userinfo that does not answer GET and POST with the access token in the Authorization header (OpenID Connect Core §5.3.1, RFC 6750 §2.1) with the same claims; refusing the token in a POST's form body (RFC 6750 §2.2, optional) breaks the contract's x-assumption, a warning unless --strict.",
  ),
  identity(
    "prompt_none",
    "prompt=none that shows a page (OpenID Connect Core §3.1.2.1): with a session and its id_token_hint it must return a code, without one redirect login_required, interaction_required, consent_required, account_selection_required or invalid_request to the redirect_uri.",
  ),
  identity(
    "prompt_login",
    "prompt=login that signs the user in from the existing session instead of asking again, or an id_token whose auth_time does not move forward.",
  ),
  identity(
    "max_age",
    "max_age that is ignored: a session older than max_age=1 must sign in again, and the id_token must carry an auth_time within max_age.",
  ),
  identity(
    "refresh_token_offline_access",
    "offline_access granted (asked for with prompt=consent, OpenID Connect Core §11) without a refresh token, or a refresh grant that does not return a working access token (RFC 6749 §6); skipped when the provider does not grant offline_access.",
  ),
  identity(
    "logout_post_redirect",
    "RP-initiated logout that does not send the user agent to the registered post_logout_redirect_uri with the state sent (RP-Initiated Logout §3); needs --post-logout-redirect-uri.",
  ),
  identity(
    "logout_open_redirect",
    "RP-initiated logout that sends the user agent to a post_logout_redirect_uri not registered for the client: another site, or a near miss of the registered one (a subdomain, a deeper or another path, an extra query parameter; an open redirect, RP-Initiated Logout §3).",
  ),
  identity(
    "logout_ends_session",
    "a session that still signs the user in (prompt=none gets a code) after RP-initiated logout.",
  ),
];

/** The checks a discovery document is judged by. */
export const DISCOVERY_CHECKS = ["discovery_fields_and_issuer", "discovery_rs256_and_openid", "pkce_s256_only"];

/** The checks that need a registered client and a sign-in. */
export const FLOW_CHECKS = IDENTITY_CHECKS.map((c) => c.name).filter(
  (name) => ![...DISCOVERY_CHECKS, "jwks_shape", "jwks_unique_kids"].includes(name),
);

/** The RP-initiated logout checks. */
export const LOGOUT_CHECKS = ["logout_post_redirect", "logout_open_redirect", "logout_ends_session"];
