// RP-initiated logout checks: the registered post_logout_redirect_uri with state, no open redirect, and the
// session really ended. They need --post-logout-redirect-uri and an id_token to hint with.
import { authorize, endpointOf, type Flow, navigationExchange, newState, sameEndpoint, tokensFor } from "./flow.js";
import { verdictOf } from "../judge/verdict.js";

const LOGOUT_CHECKS = ["logout_post_redirect", "logout_open_redirect", "logout_ends_session"];

/** A live session and an id_token to hint with, as a relying party has when its user signs out. */
async function signInForLogout(flow: Flow): Promise<string | undefined> {
  const grant = await authorize(flow, { scope: "openid", purpose: "sign in before signing out" });
  if (grant.kind !== "code") return undefined;
  const result = await tokensFor(flow.session, grant, "exchange a code before signing out");
  return typeof result.tokens?.id_token === "string" ? result.tokens.id_token : undefined;
}

function logoutUrl(flow: Flow, idToken: string, postLogout: string, state: string): string {
  const endpoint = endpointOf(flow.session, flow.document, "end_session_endpoint", "logout");
  return `${endpoint}?${new URLSearchParams({ id_token_hint: idToken, client_id: flow.session.options.credentials.clientId ?? "", post_logout_redirect_uri: postLogout, state })}`;
}

async function openRedirect(flow: Flow, idToken: string): Promise<void> {
  const elsewhere = "https://conformance-open-redirect.invalid/after-logout";
  const url = logoutUrl(flow, idToken, elsewhere, newState());
  const navigation = await flow.driver.navigate(url, {
    until: (next) => sameEndpoint(next, elsewhere),
    purpose: "sign out with an unregistered post_logout_redirect_uri (it must be refused)",
  });
  flow.session.ledger.add(
    verdictOf(
      "logout_open_redirect",
      "logout",
      navigation.arrived
        ? `logout sent the browser to ${elsewhere}, which is not registered for the client (an open redirect; RP-Initiated Logout §3)`
        : "",
      navigationExchange(url, navigation, navigation.arrived),
      "logout with an unregistered post_logout_redirect_uri",
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
  const returned = navigation.arrived?.searchParams.get("state");
  const problem = !navigation.arrived
    ? `logout did not send the browser to the registered post_logout_redirect_uri: ${navigation.failure} (RP-Initiated Logout §3)`
    : returned === state
      ? ""
      : returned == null
        ? "the post-logout redirect carries no state, though one was sent (RP-Initiated Logout §2, §3)"
        : "the post-logout redirect carries another state than the one sent (RP-Initiated Logout §2, §3)";
  flow.session.ledger.add(
    verdictOf(
      "logout_post_redirect",
      "logout",
      problem,
      navigationExchange(url, navigation, navigation.arrived),
      "logout with the registered post_logout_redirect_uri",
    ),
  );
  return Boolean(navigation.arrived);
}

export async function logout(flow: Flow): Promise<void> {
  const { session } = flow;
  const { checks } = session.options;
  const wanted = LOGOUT_CHECKS.filter((c) => checks.has(c));
  if (wanted.length === 0 || session.aborted) return;
  const registered = session.options.identity?.postLogoutRedirectUri;
  if (!registered) {
    for (const check of wanted)
      session.skippedChecks.set(check, "needs --post-logout-redirect-uri (registered for the client)");
    return;
  }
  let idToken = await signInForLogout(flow);
  if (!idToken) {
    for (const check of wanted)
      session.ledger.decide({
        about: "check",
        name: check,
        decision: "cannot run",
        reason: "could not sign in again to get an id_token to sign out with",
      }); // fail closed
    return;
  }
  if (checks.has("logout_open_redirect")) {
    await openRedirect(flow, idToken);
    idToken = (await signInForLogout(flow)) ?? idToken;
  }
  const arrived = await postRedirect(flow, idToken, registered);
  if (!checks.has("logout_ends_session")) return;
  if (!arrived) {
    session.skippedChecks.set("logout_ends_session", "the logout did not complete, see logout_post_redirect");
    return;
  }
  const after = await authorize(flow, {
    scope: "openid",
    extra: { prompt: "none" },
    interactive: false,
    purpose: "authorize with prompt=none after signing out",
  });
  session.ledger.add(
    verdictOf(
      "logout_ends_session",
      "logout",
      after.kind === "code"
        ? "prompt=none still got a code after the logout: the session was not ended (RP-Initiated Logout §2, §3)"
        : "",
      after.exchange,
      "prompt=none after logout",
    ),
  );
}
