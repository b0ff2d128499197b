// RP-initiated logout: the registered post_logout_redirect_uri with state, no open redirect, and the session really
// ended. It needs --post-logout-redirect-uri and an id_token to hint with. It returns what it saw as a scenario; the
// rules it is judged by are judge/identity-logout.ts'.
import { LOGOUT_CHECKS } from "../model/identity-check-groups.js";
import type { LogoutScenario, Trail } from "../model/identity-scenarios.js";
import {
  addToTrail,
  authorize,
  type Flow,
  navigationExchange,
  newState,
  sameEndpoint,
  tokensFor,
  traced,
  trailOf,
} from "./flow.js";
import { nearMisses } from "./near-miss.js";
import { type NearMiss } from "../model/identity-facts.js";

/** A live session and an id_token to hint with, as a relying party has when its user signs out. */
export async function signInForLogout(flow: Flow & Trail): Promise<string | undefined> {
  const grant = await authorize(flow, { scope: "openid", purpose: "sign in before signing out" });
  if (grant.kind !== "code") return undefined;
  const result = await tokensFor(flow, grant, "exchange a code before signing out");
  return typeof result.tokens?.id_token === "string" ? result.tokens.id_token : undefined;
}

function logoutUrl(flow: Flow, idToken: string, postLogout: string, state: string): string {
  const url = new URL(flow.send.urlOf("logout"));
  const query = {
    id_token_hint: idToken,
    client_id: flow.context.options.credentials.clientId ?? "",
    post_logout_redirect_uri: postLogout,
    state,
  };
  // A query the endpoint carries is kept, as at the authorization endpoint (RFC 6749 §3.1).
  for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
  return url.href;
}

/** Signs out to `target` and waits for the browser there. */
async function signOut(flow: Flow & Trail, url: string, target: string, purpose: string) {
  const navigation = await flow.driver.navigate(url, { until: (next) => sameEndpoint(next, target), purpose });
  const exchange = addToTrail(
    flow,
    "logout",
    "logout",
    purpose,
    navigationExchange(url, navigation, navigation.arrived),
  );
  return { navigation, exchange };
}

/** An address no client registers as its post_logout_redirect_uri. */
const UNREGISTERED_POST_LOGOUT = "https://conformance-open-redirect.invalid/after-logout";

/**
 * Signs out with post_logout_redirect_uri values that are not registered: another site, and each near miss of the
 * registered one (one difference each). None may be redirected to; the provider shows an error page instead.
 */
async function openRedirects(
  flow: Flow & Trail,
  idToken: string,
  registered: string,
): Promise<NonNullable<LogoutScenario["openRedirects"]>> {
  const targets: NearMiss[] = [
    { how: "another site", uri: UNREGISTERED_POST_LOGOUT },
    ...nearMisses(registered).map((nearMiss) => ({ ...nearMiss, how: `the registered one with ${nearMiss.how}` })),
  ];
  const attempts: NonNullable<LogoutScenario["openRedirects"]> = [];
  for (const target of targets) {
    const url = logoutUrl(flow, idToken, target.uri, newState());
    const purpose = `sign out with a post_logout_redirect_uri that is ${target.how} (it must be refused)`;
    attempts.push({ target, ...(await signOut(flow, url, target.uri, purpose)) });
  }
  return attempts;
}

type LogoutFacts = Partial<
  Pick<LogoutScenario, "signedIn" | "openRedirects" | "beforeLogout" | "postRedirect" | "afterLogout">
>;

/** prompt=none with the id_token to sign out with: a code shows the session the logout must end. */
const promptNone = (flow: Flow & Trail, purpose: string, idTokenHint?: string) =>
  authorize(flow, {
    scope: "openid",
    extra: { prompt: "none", ...(idTokenHint ? { id_token_hint: idTokenHint } : {}) },
    interactive: false,
    purpose,
  });

export async function logout(parent: Flow): Promise<LogoutScenario | undefined> {
  const { checks } = parent.context.options;
  if (!LOGOUT_CHECKS.some((c) => checks.has(c)) || parent.send.aborted) return undefined;
  const flow = traced(parent);
  const registered = flow.context.options.identity?.postLogoutRedirectUri;
  const scenario = (found: LogoutFacts = {}): LogoutScenario => ({
    family: "identity",
    name: "logout",
    ...trailOf(flow),
    registered,
    signedIn: false,
    ...found,
  });
  if (!registered) return scenario();
  let idToken = await signInForLogout(flow);
  if (!idToken) return scenario();
  let openRedirectsFound: LogoutScenario["openRedirects"];
  if (checks.has("logout_open_redirect")) {
    openRedirectsFound = await openRedirects(flow, idToken, registered);
    idToken = (await signInForLogout(flow)) ?? idToken;
  }
  const endsSession = checks.has("logout_ends_session");
  // Fail closed: a provider that keeps no session passes "no code after the logout" with nothing behind it.
  const beforeLogout = endsSession
    ? await promptNone(flow, "authorize with prompt=none before signing out (is there a session to end?)", idToken)
    : undefined;
  const state = newState();
  const postRedirect = {
    state,
    ...(await signOut(flow, logoutUrl(flow, idToken, registered, state), registered, "sign out (RP-initiated logout)")),
  };
  const found = { signedIn: true, openRedirects: openRedirectsFound, beforeLogout, postRedirect };
  if (beforeLogout?.kind !== "code" || !postRedirect.navigation.arrived) return scenario(found);
  const afterLogout = await promptNone(flow, "authorize with prompt=none after signing out");
  return scenario({ ...found, afterLogout });
}
