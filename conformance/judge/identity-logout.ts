// The RP-initiated logout checks: logout_post_redirect, logout_open_redirect, logout_ends_session. Pure: where the
// browser was sent (and what was asked) in, the problem ("" when there is none) out.
import { arrivedAt } from "../identity/near-miss.js";
import type { Navigation } from "../model/identity-facts.js";
import type { Authorization } from "../model/identity-facts.js";

/**
 * logout_open_redirect: logout does not send the browser to a post_logout_redirect_uri not registered (another site,
 * or a near miss of the registered one: RP-Initiated Logout §3 compares with simple string comparison).
 */
export const openRedirectFollowed = (navigation: Navigation, target: { how: string; uri: string }) =>
  arrivedAt(navigation.arrived, target.uri)
    ? `logout sent the browser to ${target.uri} (${target.how}), which is not registered for the client (an open redirect; RP-Initiated Logout §3: it must exactly match a registered value)`
    : "";

/** logout_post_redirect: logout sends the browser to the registered address with the state sent. */
export function postLogoutRedirect(navigation: Navigation, state: string): string {
  if (!navigation.arrived)
    return `logout did not send the browser to the registered post_logout_redirect_uri: ${navigation.failure} (RP-Initiated Logout §3)`;
  const returned = navigation.arrived.searchParams.get("state");
  if (returned === state) return "";
  return returned == null
    ? "the post-logout redirect carries no state, though one was sent (RP-Initiated Logout §2, §3)"
    : "the post-logout redirect carries another state than the one sent (RP-Initiated Logout §2, §3)";
}

/** logout_ends_session: prompt=none after the logout gets no code. */
export const sessionNotEnded = (after: Authorization) =>
  after.kind === "code"
    ? "prompt=none still got a code after the logout: the session was not ended (RP-Initiated Logout §2, §3)"
    : "";
