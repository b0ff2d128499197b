// The RP-Initiated Logout faults of the identity fault provider (identity-logout.ts), each with the one check that
// must catch it; identity-faults.ts lists them with the other identity faults.
import type { Fault } from "./faults.js";
import { FLOWS, identity } from "./identity-fault-runs.js";

export const IDENTITY_LOGOUT_FAULT_CASES: Fault[] = [
  {
    name: "identity-logout-open-redirect",
    api: "identity",
    check: "logout_open_redirect",
    breaks: "logout redirects to any post_logout_redirect_uri, registered or not",
    args: FLOWS,
    start: identity("logout-open-redirect"),
  },
  {
    name: "identity-post-logout-redirect-uri-any-path",
    api: "identity",
    check: "logout_open_redirect",
    breaks: "logout redirects to any path on the registered post_logout_redirect_uri's origin",
    args: FLOWS,
    start: identity("post-logout-redirect-uri-any-path"),
  },
  {
    name: "identity-logout-drops-state",
    api: "identity",
    check: "logout_post_redirect",
    breaks: "the post-logout redirect leaves out the state sent",
    args: FLOWS,
    start: identity("logout-drops-state"),
  },
  {
    name: "identity-logout-keeps-session",
    api: "identity",
    check: "logout_ends_session",
    breaks: "logout redirects but the session stays signed in",
    args: FLOWS,
    start: identity("logout-keeps-session"),
  },
  ...(
    [
      ["logout_bad_id_token_hint", "logout-hint-signature-not-checked", "an id_token_hint signed by another key"],
      ["logout_modified_id_token_hint", "logout-hint-alg-none-accepted", "an id_token_hint changed to alg none"],
      ["logout_no_id_token_hint", "logout-redirects-without-hint", "no id_token_hint"],
    ] as const
  ).map(([check, fault, what]) => ({
    name: `identity-${fault}`,
    api: "identity" as const,
    check,
    breaks: `logout with ${what} signs out and redirects to the post_logout_redirect_uri`,
    args: FLOWS,
    start: identity(fault),
  })),
  {
    name: "identity-logout-adds-empty-state",
    api: "identity",
    check: "logout_no_state",
    breaks: "the post-logout redirect carries state= though the logout request sent no state",
    args: FLOWS,
    start: identity("logout-adds-empty-state"),
  },
  {
    name: "identity-logout-default-post-logout-redirect",
    api: "identity",
    check: "logout_no_post_logout_redirect_uri",
    breaks: "logout without post_logout_redirect_uri redirects to the client's registered one",
    args: FLOWS,
    start: identity("logout-default-post-logout-redirect"),
  },
  {
    name: "identity-logout-only-state-500",
    api: "identity",
    check: "logout_only_state",
    breaks: "logout with only state answers 500",
    args: FLOWS,
    start: identity("logout-only-state-500"),
  },
  {
    name: "identity-logout-no-parameters-500",
    api: "identity",
    check: "logout_no_parameters",
    breaks: "logout without any parameter answers 500",
    args: FLOWS,
    start: identity("logout-no-parameters-500"),
  },
];
