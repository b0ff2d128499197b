// The OpenID Connect provider checks (identity only), in the order they run, as the flows group them. Their
// entries are in the check registry (model/identity-check-registry.ts).
import { CHECK_LIST, type CheckInfo, type CheckName } from "./check-registry.js";
import { IDENTITY_CHECK_ENTRIES } from "./identity-check-registry.js";

export const IDENTITY_CHECKS: CheckInfo[] = CHECK_LIST.filter((check) =>
  Object.hasOwn(IDENTITY_CHECK_ENTRIES, check.name),
);

/** The checks a discovery document is judged by. */
export const DISCOVERY_CHECKS: CheckName[] = [
  "discovery_fields_and_issuer",
  "discovery_rs256_and_openid",
  "pkce_s256_only",
  "discovery_https_endpoints",
  "discovery_grant_types_and_claims",
];

/** The checks that need a registered client and a sign-in. */
export const FLOW_CHECKS = IDENTITY_CHECKS.map((c) => c.name).filter(
  (name) => ![...DISCOVERY_CHECKS, "jwks_shape", "jwks_unique_kids"].includes(name),
);

/** The RP-initiated logout checks. */
export const LOGOUT_CHECKS: CheckName[] = ["logout_post_redirect", "logout_open_redirect", "logout_ends_session"];

/** The RP-Initiated Logout modules' checks, one request with one fault each (identity/logout-modules.ts). */
export const LOGOUT_MODULE_CHECKS: CheckName[] = [
  "logout_bad_id_token_hint",
  "logout_modified_id_token_hint",
  "logout_no_id_token_hint",
  "logout_no_state",
  "logout_no_post_logout_redirect_uri",
  "logout_only_state",
  "logout_no_parameters",
];
