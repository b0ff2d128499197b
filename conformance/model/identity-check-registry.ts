// The OpenID Connect provider checks (identity only), in the order they run: entries of the check registry
// (check-registry.ts). docs/guide/identity-conformance.md maps each to the OpenID Foundation test modules it
// corresponds to; docs/guide/conform-reference.md lists them with the others.
export const IDENTITY_CHECK_ENTRIES = {
  discovery_fields_and_issuer: {
    apis: ["identity"],
    steps: ["identity"],
    enforces: "OpenID Connect Discovery 1.0 §3 and §4.3",
    catches:
      "a discovery document without the fields OpenID Connect Discovery requires, or whose issuer is not the base address (endpoints at other paths are followed, and reported as an observation).",
  },
  discovery_rs256_and_openid: {
    apis: ["identity"],
    steps: ["identity"],
    enforces: "OpenID Connect Discovery 1.0 §3",
    catches:
      "a discovery document that does not list RS256 in id_token_signing_alg_values_supported, or whose scopes_supported lacks openid (OpenID Connect Discovery §3); without scopes_supported (RECOMMENDED) a warning, a failure under --strict.",
  },
  discovery_https_endpoints: {
    apis: ["identity"],
    steps: ["identity"],
    enforces: "OpenID Connect Discovery 1.0 §3; RFC 6749 §3.1 and §3.2 (TLS)",
    catches:
      "a discovery document whose issuer, jwks_uri or any *_endpoint is a plain http URL on a host other than loopback (localhost, 127.0.0.0/8, ::1), so tokens and codes would cross the network without TLS (oidcc-discovery-endpoint-verification).",
  },
  discovery_grant_types_and_claims: {
    apis: ["identity"],
    steps: ["identity"],
    enforces: "OpenID Connect Discovery 1.0 §3; identity seed (Authorization Code with PKCE; the claim table)",
    catches:
      "a discovery document whose grant_types_supported, when present, lacks authorization_code (the contract's flow), or whose claims_supported, when present, is not an array of claim names; a claims_supported without a claim of the seed's claim table is a warning (RECOMMENDED and not exhaustive, Discovery §3), as is a missing scopes_supported under discovery_rs256_and_openid.",
  },
  pkce_s256_only: {
    apis: ["identity"],
    steps: ["identity"],
    enforces: "RFC 7636 §4.2; RFC 9700 §2.1.1 (the contract's x-assumption that only S256 is allowed)",
    catches:
      "a discovery document whose code_challenge_methods_supported, when advertised (RFC 8414 §2: OPTIONAL; PKCE itself is proven by the flow), lacks S256 (RFC 7636 §4.2); offering or accepting code_challenge_method=plain breaks the contract's S256-only x-assumption (RFC 9700 §2.1.1), a warning unless --strict.",
  },
  jwks_shape: {
    apis: ["identity"],
    steps: ["identity"],
    enforces: "RFC 7517 §4 and RFC 7518 §6",
    catches:
      "a JWKS whose keys lack kty or the members of their key type (n and e for RSA, crv, x and y for EC), or that has no signing key.",
  },
  jwks_unique_kids: {
    apis: ["identity"],
    steps: ["identity"],
    enforces: "RFC 7517 §4.5; OpenID Connect Core §10.1",
    catches: "a JWKS in which two keys share a kid, so that a relying party cannot tell which key signed a token.",
  },
  sign_in: {
    apis: ["identity"],
    steps: ["identity"],
    enforces: "identity seed, Authorize: the user signs in on a form the service renders",
    catches:
      "a sign-in the runner cannot get through to an authorization code: wrong --sign-in values, no form to submit, a page that needs JavaScript (run with --browser); the flow checks cannot run then, so the run fails.",
  },
  authorization_code_entropy: {
    apis: ["identity"],
    steps: ["identity"],
    enforces: "RFC 6749 §10.10 (the odds of guessing a code MUST be at most 2^-128); RFC 6819 §5.1.4.2.2",
    catches:
      "an authorization code shorter than 128 bits or with less than 96 bits of Shannon entropy, measured as the OpenID Foundation's oidcc-server measures the first sign-in's code (EnsureMinimumAuthorizationCodeLength, EnsureMinimumAuthorizationCodeEntropy).",
  },
  token_expires_in: {
    apis: ["identity"],
    steps: ["identity"],
    enforces: "RFC 6749 §5.1: expires_in is RECOMMENDED",
    catches:
      "a token response for the first sign-in's code without expires_in (oidcc-server warns): a warning, a failure under --strict; its type is response_schema_conformance's.",
  },
  state_echoed: {
    apis: ["identity"],
    steps: ["identity"],
    enforces: "RFC 6749 §4.1.2",
    catches:
      "an authorization response (a code or an error) that does not return the state the request sent, unchanged (RFC 6749 §4.1.2).",
  },
  authorization_response_iss: {
    apis: ["identity"],
    steps: ["identity"],
    enforces: "RFC 9207 §2 (iss MUST be in every authorization response of a server that supports it) and §2.4",
    catches:
      "an authorization response (a code or an error) whose iss is not the discovery document's issuer, or without iss where the discovery advertises authorization_response_iss_parameter_supported: true (oidcc-server).",
  },
  token_errors: {
    apis: ["identity"],
    steps: ["identity"],
    enforces: "RFC 6749 §5.2",
    catches:
      "token endpoint errors not in the RFC 6749 §5.2 shape: an unknown code, a fresh valid code with a wrong client_secret and a grant_type nobody defines must get 400/401 with the right error code, each request carrying exactly one fault (the only check that judges a refusal's error code).",
  },
  pkce_enforcement: {
    apis: ["identity"],
    steps: ["identity"],
    enforces: "RFC 7636 §4.6; identity seed: Authorization Code with PKCE",
    catches:
      "a code issued for a PKCE challenge that can be exchanged without the code_verifier or with a wrong one (RFC 7636 §4.6); any 4xx without a token is a refusal.",
  },
  client_authentication_required: {
    apis: ["identity"],
    steps: ["identity"],
    enforces: "RFC 6749 §3.2.1; identity seed, Client registration",
    catches:
      "a confidential client's fresh code exchanged with its code_verifier but without the client_secret (RFC 6749 §3.2.1, §4.1.3: PKCE does not replace client authentication); any 4xx without a token is a refusal.",
  },
  code_reuse: {
    apis: ["identity"],
    steps: ["identity"],
    enforces: "RFC 6749 §4.1.2: a code is used once",
    catches:
      "an authorization code that can be exchanged twice (RFC 6749 §4.1.2); any 4xx without a token is a refusal.",
  },
  code_reuse_revokes_tokens: {
    apis: ["identity"],
    steps: ["identity"],
    enforces: "RFC 6749 §4.1.2: the tokens of a reused code SHOULD be revoked",
    catches:
      "an access token issued for an authorization code that still works after the code was replayed (RFC 6749 §4.1.2: tokens issued from a reused code SHOULD be revoked, so a warning, a failure under --strict).",
  },
  code_reuse_30_seconds: {
    apis: ["identity"],
    steps: ["identity"],
    enforces: "RFC 6749 §4.1.2 (a code used twice MUST be denied) and §5.2 (400 invalid_grant)",
    catches:
      "a code exchanged once and replayed 30 seconds later (oidcc-codereuse-30seconds; the replay is sent at the run's end, once 30 seconds have passed) that is not refused (any 4xx without a token; RFC 6749 §4.1.2: MUST deny); a refusal other than 400 invalid_grant is a warning, a failure under --strict (the suite fails it, but §5.2 sets no MUST on which refusal).",
  },
  redirect_uri_mismatch: {
    apis: ["identity"],
    steps: ["identity"],
    enforces: "RFC 6749 §3.1.2.4 and §4.1.3",
    catches:
      "an unregistered redirect_uri (another site) that is redirected to, or a code exchanged with another redirect_uri than the one it was issued for (RFC 6749 §4.1.2.1, §4.1.3); any 4xx without a token is a refusal.",
  },
  redirect_uri_exact_match: {
    apis: ["identity"],
    steps: ["identity"],
    enforces: "OpenID Connect Core §3.1.2.1 (simple string comparison); RFC 9700 §4.1.3",
    catches:
      "a near miss of the registered redirect_uri (a subdomain of its host, a deeper or another path, an extra query parameter; a loopback's port is never varied, RFC 8252 §7.3) that the provider redirects to instead of showing an error (exact matching, RFC 9700 §4.1.3).",
  },
  id_token_signature_and_claims: {
    apis: ["identity"],
    steps: ["identity"],
    enforces: "OpenID Connect Core §3.1.3.7",
    catches:
      "an id_token that does not verify with the JWKS, or whose iss, aud (the client_id, or an array that contains it: OpenID Connect Core §2, §3.1.3.7), exp, iat, nonce or sub are wrong; a claim that breaks only an x-assumption of the contract (the e-mail format) is a warning unless --strict.",
  },
  id_token_at_hash: {
    apis: ["identity"],
    steps: ["identity"],
    enforces: "OpenID Connect Core §3.1.3.6",
    catches:
      "an id_token whose at_hash, when present, is not the left half of the SHA-256 of the access token, base64url-encoded (OpenID Connect Core §3.1.3.6).",
  },
  id_token_by_scope: {
    apis: ["identity"],
    steps: ["identity"],
    enforces: "OpenID Connect Core §5.4; RFC 6749 §3.3, §5.1; identity seed, id_token and userinfo claims",
    catches:
      "an id_token that carries claims of a scope that was not granted (the seed's claim table and OpenID Connect Core §5.4: email for scope openid, phone_number without phone), judged by the token response's scope or, when it has none, the requested one; the registered claims (iss, sub, aud, exp, iat, auth_time, nonce, acr, amr, azp, at_hash, c_hash, sid) are always allowed.",
  },
  no_secret_claims: {
    apis: ["identity"],
    steps: ["identity"],
    enforces:
      "identity seed, id_token and userinfo claims (no credential among them); OpenID Connect Core §16: a signed id_token is readable by whoever holds it",
    catches:
      "a token response, id_token or userinfo answer with a member, at any depth, named like a secret of the user (password, salt, hash, TOTP or OTP secret, recovery or backup codes, private key, seed phrase): a security failure, with the values redacted in every report.",
  },
  nonce_optional: {
    apis: ["identity"],
    steps: ["identity"],
    enforces: "OpenID Connect Core §3.1.2.1: nonce is optional in the code flow",
    catches:
      "an authorization request without nonce that is refused, or whose id_token carries a nonce anyway (nonce is optional in the code flow, OpenID Connect Core §3.1.2.1).",
  },
  unknown_parameters_ignored: {
    apis: ["identity"],
    steps: ["identity"],
    enforces: "RFC 6749 §3.1: unrecognized parameters are ignored",
    catches:
      "an authorization request with a parameter the provider does not know that is refused instead of ignored (OpenID Connect Core §3.1.2.1).",
  },
  response_type_missing: {
    apis: ["identity"],
    steps: ["identity"],
    enforces: "RFC 6749 §3.1.1 (response_type is REQUIRED) and §4.1.2.1",
    catches:
      "an authorization request without response_type (oidcc-response-type-missing) that gets a code, an error other than invalid_request or unsupported_response_type, or a server error; an error page (the suite asks for its screenshot) passes.",
  },
  display_page: {
    apis: ["identity"],
    steps: ["identity"],
    enforces: "OpenID Connect Core §15.1: OPs MUST support display, at least without an error (§3.1.2.1)",
    catches:
      "an authorization request with display=page (oidcc-display-page) that does not end in a code the token endpoint exchanges.",
  },
  display_popup: {
    apis: ["identity"],
    steps: ["identity"],
    enforces: "OpenID Connect Core §15.1: OPs MUST support display, at least without an error (§3.1.2.1)",
    catches:
      "an authorization request with display=popup (oidcc-display-popup) that does not end in a code the token endpoint exchanges.",
  },
  max_age_10000: {
    apis: ["identity"],
    steps: ["identity"],
    enforces:
      "OpenID Connect Core §15.1 (max_age MUST be supported), §3.1.2.1 and §2 (auth_time REQUIRED with max_age)",
    catches:
      "an authorization request with max_age=10000 on the first sign-in's session (oidcc-max-age-10000) that does not end in a code the token endpoint exchanges, or whose id_token has no auth_time, or another sub or auth_time than the first sign-in's id_token (no new sign-in happened, Core §2).",
  },
  login_hint: {
    apis: ["identity"],
    steps: ["identity"],
    enforces: "OpenID Connect Core §3.1.2.1: login_hint is a hint, its use left to the OP",
    catches:
      "an authorization request with login_hint=buffy@<the issuer's host> (oidcc-login-hint, its default hint) that does not end in a code the token endpoint exchanges.",
  },
  ui_locales: {
    apis: ["identity"],
    steps: ["identity"],
    enforces: "OpenID Connect Core §15.1: OPs MUST support ui_locales, at least without an error (§3.1.2.1)",
    catches:
      "an authorization request with ui_locales=se (oidcc-ui-locales, its default) that does not end in a code the token endpoint exchanges.",
  },
  claims_locales: {
    apis: ["identity"],
    steps: ["identity"],
    enforces: "OpenID Connect Core §15.1: OPs MUST support claims_locales, at least without an error (§5.2)",
    catches:
      "an authorization request with claims_locales=se (oidcc-claims-locales) that does not end in a code the token endpoint exchanges.",
  },
  acr_values: {
    apis: ["identity"],
    steps: ["identity"],
    enforces: "OpenID Connect Core §15.1: OPs MUST support acr_values, at least without an error (§3.1.2.1)",
    catches:
      "an authorization request with acr_values (the discovery's acr_values_supported, else 1 2, as oidcc-ensure-request-with-acr-values-succeeds sends) that does not end in a code the token endpoint exchanges; the acr claim it SHOULD return is not judged.",
  },
  claims_essential: {
    apis: ["identity"],
    steps: ["identity"],
    enforces: "OpenID Connect Core §5.5 and §5.5.1; Discovery §3 (claims_parameter_supported)",
    catches:
      "an authorization request with claims asking for name as an essential userinfo claim (oidcc-claims-essential) that does not end in a code the token endpoint exchanges; skipped when the discovery does not advertise claims_parameter_supported: true (the parameter is OPTIONAL, Core §5.5; the suite's FAPI claims modules skip so).",
  },
  authorization_by_post: {
    apis: ["identity"],
    steps: ["identity"],
    enforces:
      "OpenID Connect Core §3.1.2.1: the Authorization Server MUST support GET and POST at the Authorization Endpoint",
    catches:
      "an authorization request sent by POST as a form (application/x-www-form-urlencoded, oidcc-ensure-post-request-succeeds) to the advertised authorization_endpoint that is taken and then does not end in a code the token endpoint exchanges (an error redirect, no code, a code refused); a refusal (405, 404, an error page where GET works) is a warning, a failure under --strict: the contract and the seed describe GET only.",
  },
  alternate_happy_flow: {
    apis: ["identity"],
    steps: ["identity"],
    enforces: "RFC 6749 §3.3: the order of the scope values does not matter; OpenID Connect Core §5.4",
    catches:
      "an authorization request with the scopes in another order (email profile openid) and its parameters in another order (oidcc-alternate-happy-flow) that does not end in a code the token endpoint exchanges; the claims its tokens carry are judged by the granted scope as the first sign-in's are, by userinfo_by_scope, granted_scope_claims and id_token_by_scope.",
  },
  userinfo_by_scope: {
    apis: ["identity"],
    steps: ["identity"],
    enforces: "OpenID Connect Core §5.4; identity seed, Scopes",
    catches:
      "userinfo that releases claims of a scope that was not granted (the token response's scope or, when it has none, the requested one; the seed's claim table and OpenID Connect Core §5.4), or whose sub disagrees with the id_token's; a missing sub, iss or aud is response_schema_conformance's.",
  },
  granted_scope_claims: {
    apis: ["identity"],
    steps: ["identity"],
    enforces: "identity seed, id_token and userinfo claims, and Scopes",
    catches:
      "userinfo that returns no claim at all of a granted scope (profile, email, wallets; the token response's scope or, when it has none, the requested one) for a user who has them.",
  },
  userinfo_methods: {
    apis: ["identity"],
    steps: ["identity"],
    enforces: "OpenID Connect Core §5.3.1: GET and POST",
    catches:
      "userinfo that does not answer GET and POST with the access token in the Authorization header (OpenID Connect Core §5.3.1, RFC 6750 §2.1) with the same claims; refusing the token in a POST's form body (RFC 6750 §2.2, optional) breaks the contract's x-assumption, a warning unless --strict.",
  },
  prompt_none: {
    apis: ["identity"],
    steps: ["identity"],
    enforces: "OpenID Connect Core §3.1.2.1, §3.1.2.6 and §2 (sub, auth_time)",
    catches:
      "prompt=none that shows a page (OpenID Connect Core §3.1.2.1): with a session and its id_token_hint it must return a code whose id_token has the first sign-in's sub and auth_time (oidcc-prompt-none-logged-in, oidcc-id-token-hint; Core §2), without one redirect login_required, interaction_required, consent_required, account_selection_required or invalid_request to the redirect_uri.",
  },
  prompt_login: {
    apis: ["identity"],
    steps: ["identity"],
    enforces: "OpenID Connect Core §3.1.2.1: the Authorization Server SHOULD prompt for reauthentication",
    catches:
      'prompt=login answered with a code from the existing session: an id_token whose auth_time does not move forward, or none and no credentials asked, fails; a code after a page that asked for no credentials (no form with a password input shown and submitted, a one-click "continue as" page) with a new auth_time breaks Core\'s SHOULD: a warning, a failure under --strict.',
  },
  max_age: {
    apis: ["identity"],
    steps: ["identity"],
    enforces: "OpenID Connect Core §3.1.2.1 and §2 (auth_time)",
    catches:
      "max_age that is ignored: a session older than max_age=1 must sign in again, and the id_token must carry an auth_time within max_age.",
  },
  refresh_token_offline_access: {
    apis: ["identity"],
    steps: ["identity"],
    enforces: "OpenID Connect Core §11; RFC 6749 §6",
    catches:
      "offline_access granted (asked for with prompt=consent, OpenID Connect Core §11) without a refresh token, or a refresh grant that does not return a working access token (RFC 6749 §6); skipped when the provider does not grant offline_access.",
  },
  refresh_token_client_bound: {
    apis: ["identity"],
    steps: ["identity"],
    enforces: "RFC 6749 §6 and §10.4: the refresh token is bound to the client it was issued to",
    catches:
      "a refresh token issued to the client that another registered client (--second-client-id, --second-client-secret) can use at the token endpoint (the client binding of oidcc-refresh-token); any 4xx without a token is a refusal, and one with invalid_client proves nothing (the second client's credentials were refused); skipped without a second client or without a refresh token.",
  },
  logout_post_redirect: {
    apis: ["identity"],
    steps: ["identity"],
    enforces: "OpenID Connect RP-Initiated Logout 1.0 §3",
    catches:
      "RP-initiated logout that does not send the user agent to the registered post_logout_redirect_uri with the state sent (RP-Initiated Logout §3); needs --post-logout-redirect-uri.",
  },
  logout_open_redirect: {
    apis: ["identity"],
    steps: ["identity"],
    enforces: "OpenID Connect RP-Initiated Logout 1.0 §3",
    catches:
      "RP-initiated logout that sends the user agent to a post_logout_redirect_uri not registered for the client: another site, or a near miss of the registered one (a subdomain, a deeper or another path, an extra query parameter; an open redirect, RP-Initiated Logout §3).",
  },
  logout_ends_session: {
    apis: ["identity"],
    steps: ["identity"],
    enforces: "OpenID Connect RP-Initiated Logout 1.0 §2",
    catches:
      "a session that still signs the user in (prompt=none gets a code) after RP-initiated logout; judged only when prompt=none got a code just before the logout, in the same browser (else skipped: no session to end).",
  },
  logout_bad_id_token_hint: {
    apis: ["identity"],
    steps: ["identity"],
    enforces:
      "OpenID Connect RP-Initiated Logout 1.0 §2 (the OP MUST ask the End-User without a valid id_token_hint) and §3",
    catches:
      "RP-initiated logout with an id_token_hint signed by a key that is not the provider's (oidcc-rp-initiated-logout-bad-id-token-hint; with post_logout_redirect_uri and state, not confirmed) that redirects to the post_logout_redirect_uri, answers a server error, or ends the session without asking (prompt=none after it gets no code); an error page or a confirmation page passes.",
  },
  logout_modified_id_token_hint: {
    apis: ["identity"],
    steps: ["identity"],
    enforces:
      "OpenID Connect RP-Initiated Logout 1.0 §2 (the OP MUST ask the End-User without a valid id_token_hint) and §3",
    catches:
      "RP-initiated logout with the id_token_hint changed to alg none and unsigned (oidcc-rp-initiated-logout-modified-id-token-hint; with post_logout_redirect_uri and state, not confirmed) that redirects to the post_logout_redirect_uri, answers a server error, or ends the session without asking (prompt=none after it gets no code); an error page or a confirmation page passes.",
  },
  logout_no_id_token_hint: {
    apis: ["identity"],
    steps: ["identity"],
    enforces:
      "OpenID Connect RP-Initiated Logout 1.0 §2 (no post-logout redirection without an id_token_hint or other means of identifying the client; the OP MUST ask the End-User) and §3",
    catches:
      "RP-initiated logout with post_logout_redirect_uri and state but no id_token_hint and no client_id (oidcc-rp-initiated-logout-no-id-token-hint, not confirmed) that redirects to the post_logout_redirect_uri, answers a server error, or ends the session without asking (prompt=none after it gets no code); an error page or a confirmation page passes.",
  },
  logout_no_state: {
    apis: ["identity"],
    steps: ["identity"],
    enforces: "OpenID Connect RP-Initiated Logout 1.0 §3",
    catches:
      "RP-initiated logout with id_token_hint and the registered post_logout_redirect_uri but no state (oidcc-rp-initiated-logout-no-state) that does not redirect there, or adds a state to the redirect though none was sent.",
  },
  logout_no_post_logout_redirect_uri: {
    apis: ["identity"],
    steps: ["identity"],
    enforces: "OpenID Connect RP-Initiated Logout 1.0 §2 and §3",
    catches:
      "RP-initiated logout with id_token_hint and state but no post_logout_redirect_uri (oidcc-rp-initiated-logout-no-post-logout-redirect-uri) that redirects to the registered post_logout_redirect_uri the request did not name, or answers a server error; any page passes (a confirmation, logged-out or error page; whether it says signed out is not judged).",
  },
  logout_only_state: {
    apis: ["identity"],
    steps: ["identity"],
    enforces: "OpenID Connect RP-Initiated Logout 1.0 §2 and §3",
    catches:
      "RP-initiated logout with only state (oidcc-rp-initiated-logout-only-state) that redirects to the registered post_logout_redirect_uri the request did not name, or answers a server error; any page passes (a confirmation, logged-out or error page; whether it says signed out is not judged).",
  },
  logout_no_parameters: {
    apis: ["identity"],
    steps: ["identity"],
    enforces: "OpenID Connect RP-Initiated Logout 1.0 §2 (every parameter is optional)",
    catches:
      "RP-initiated logout without any parameter (oidcc-rp-initiated-logout-no-params) that redirects to the registered post_logout_redirect_uri, or answers a server error; any page passes (a confirmation, logged-out or error page; whether it says signed out is not judged).",
  },
} as const;
