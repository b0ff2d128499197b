// RP-initiated logout checks: the registered post_logout_redirect_uri with state, no open redirect, and the
// session really ended. They need --post-logout-redirect-uri and an id_token to hint with.
// The rules they are judged by are judge/identity-logout.ts'.
import { openRedirectFollowed, postLogoutRedirect, sessionNotEnded } from "../judge/identity-logout.js";
import { verdictOf } from "../judge/verdict.js";
import type { Exchange } from "../model/exchange.js";
import { authorize, endpointOf, type Flow, navigationExchange, newState, sameEndpoint, tokensFor } from "./flow.js";
import { type NearMiss, nearMisses } from "./near-miss.js";

const LOGOUT_CHECKS = ["logout_post_redirect", "logout_open_redirect", "logout_ends_session"];

/** A live session and an id_token to hint with, as a relying party has when its user signs out. */
async function signInForLogout(flow: Flow): Promise<string | undefined> {
  const grant = await authorize(flow, { scope: "openid", purpose: "sign in before signing out" });
  if (grant.kind !== "code") return undefined;
  const result = await tokensFor(flow, grant, "exchange a code before signing out");
  return typeof result.tokens?.id_token === "string" ? result.tokens.id_token : undefined;
}

function logoutUrl(flow: Flow, idToken: string, postLogout: string, state: string): string {
  const endpoint = endpointOf(flow, "end_session_endpoint", "logout");
  const query = new URLSearchParams({
    id_token_hint: idToken,
    client_id: flow.context.options.credentials.clientId ?? "",
    post_logout_redirect_uri: postLogout,
    state,
  });
  return `${endpoint}?${query}`;
}

/** An address no client registers as its post_logout_redirect_uri. */
const UNREGISTERED_POST_LOGOUT = "https://conformance-open-redirect.invalid/after-logout";

/**
 * Signs out with post_logout_redirect_uri values that are not registered: another site, and each near miss of the
 * registered one (one difference each). None may be redirected to; the provider shows an error page instead.
 */
async function openRedirect(flow: Flow, idToken: string, registered: string): Promise<void> {
  const targets: NearMiss[] = [
    { how: "another site", uri: UNREGISTERED_POST_LOGOUT },
    ...nearMisses(registered).map((nearMiss) => ({ ...nearMiss, how: `the registered one with ${nearMiss.how}` })),
  ];
  const problems: string[] = [];
  let failed: Exchange | undefined;
  let last: Exchange | undefined;
  for (const target of targets) {
    const url = logoutUrl(flow, idToken, target.uri, newState());
    const navigation = await flow.driver.navigate(url, {
      until: (next) => sameEndpoint(next, target.uri),
      purpose: `sign out with a post_logout_redirect_uri that is ${target.how} (it must be refused)`,
    });
    last = navigationExchange(url, navigation, navigation.arrived);
    const problem = openRedirectFollowed(navigation, target);
    if (problem) {
      problems.push(problem);
      failed ??= last;
    }
  }
  flow.ledger.add(
    verdictOf(
      "logout_open_redirect",
      "logout",
      problems.join("; "),
      failed ?? last,
      "logout with post_logout_redirect_uri values not registered",
    ),
  );
}

/** Signs out to the registered address; whether the browser got there. */
async function postRedirect(flow: Flow, idToken: string, registered: string): Promise<boolean> {
  const state = newState();
  const url = logoutUrl(flow, idToken, registered, state);
  const navigation = await flow.driver.navigate(url, {
    until: (next) => sameEndpoint(next, registered),
    purpose: "sign out (RP-initiated logout)",
  });
  flow.ledger.add(
    verdictOf(
      "logout_post_redirect",
      "logout",
      postLogoutRedirect(navigation, state),
      navigationExchange(url, navigation, navigation.arrived),
      "logout with the registered post_logout_redirect_uri",
    ),
  );
  return Boolean(navigation.arrived);
}

export async function logout(flow: Flow): Promise<void> {
  const { context, ledger } = flow;
  const { checks } = context.options;
  const wanted = LOGOUT_CHECKS.filter((c) => checks.has(c));
  if (wanted.length === 0 || flow.send.aborted) return;
  const decide = (check: string, decision: "skipped" | "cannot run", reason: string) =>
    ledger.decide({ about: "check", name: check, decision, reason });
  const registered = context.options.identity?.postLogoutRedirectUri;
  if (!registered) {
    for (const check of wanted)
      decide(check, "skipped", "needs --post-logout-redirect-uri (registered for the client)");
    return;
  }
  let idToken = await signInForLogout(flow);
  if (!idToken) {
    // Fail closed: the logout checks apply, and could not run.
    for (const check of wanted)
      decide(check, "cannot run", "could not sign in again to get an id_token to sign out with");
    return;
  }
  if (checks.has("logout_open_redirect")) {
    await openRedirect(flow, idToken, registered);
    idToken = (await signInForLogout(flow)) ?? idToken;
  }
  const arrived = await postRedirect(flow, idToken, registered);
  if (!checks.has("logout_ends_session")) return;
  if (!arrived) {
    decide("logout_ends_session", "skipped", "the logout did not complete, see logout_post_redirect");
    return;
  }
  const after = await authorize(flow, {
    scope: "openid",
    extra: { prompt: "none" },
    interactive: false,
    purpose: "authorize with prompt=none after signing out",
  });
  ledger.add(
    verdictOf("logout_ends_session", "logout", sessionNotEnded(after), after.exchange, "prompt=none after logout"),
  );
}
