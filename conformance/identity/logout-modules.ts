// The OpenID Foundation's RP-Initiated Logout modules that change the logout request (bad, modified and missing
// id_token_hint; no parameters; no post_logout_redirect_uri; no state; only state): one request each, with one
// difference from a complete one (id_token_hint, post_logout_redirect_uri and state, as the suite sends; no client_id,
// so that a missing hint leaves the provider nothing to identify the client by). Each starts from a live session. The
// requests the provider must refuse are not confirmed (the driver stops at the first page, as a user who does not
// click), so prompt=none right after tells whether the session was ended without asking. It returns what it saw as
// a scenario; the rules it is judged by are judge/identity-logout-modules.ts'.
import { decodeJwt, decodeProtectedHeader, generateKeyPair, SignJWT } from "jose";
import type { LogoutModuleAttempt, LogoutModulesScenario, Trail } from "../model/identity-scenarios.js";
import type { LogoutModuleExpectation } from "../model/identity-scenarios.js";
import type { CheckName } from "../model/check-registry.js";
import {
  addToTrail,
  authorize,
  base64url,
  type Flow,
  navigationExchange,
  newState,
  sameEndpoint,
  traced,
  trailOf,
} from "./flow.js";
import { signInForLogout } from "./logout.js";

/** The parameters of a complete logout request, for one module to change. */
interface FullRequest {
  id_token_hint: string;
  post_logout_redirect_uri: string;
  state: string;
}

interface LogoutModule {
  check: CheckName;
  sent: string;
  expect: LogoutModuleExpectation;
  parameters: (full: FullRequest) => Promise<Record<string, string>> | Record<string, string>;
}

/** The id_token's claims signed again with a key of our own, which the provider never published. */
async function signedByAnother(idToken: string): Promise<string> {
  const { privateKey } = await generateKeyPair("RS256");
  return new SignJWT(decodeJwt(idToken))
    .setProtectedHeader({ alg: "RS256", typ: "JWT", kid: "conformance-not-the-providers-key" })
    .sign(privateKey);
}

/** The id_token with its header changed to alg none and its signature removed (the suite's ChangeIdTokenToAlgNone). */
function unsigned(idToken: string): string {
  const header = { ...decodeProtectedHeader(idToken), alg: "none" };
  return `${base64url(Buffer.from(JSON.stringify(header)))}.${idToken.split(".")[1]}.`;
}

const without = (full: FullRequest, ...names: Array<keyof FullRequest>): Record<string, string> =>
  Object.fromEntries(Object.entries(full).filter(([name]) => !(names as string[]).includes(name)));

export const LOGOUT_MODULES: LogoutModule[] = [
  {
    check: "logout_bad_id_token_hint",
    sent: "an id_token_hint signed with a key that is not the provider's",
    expect: "refused",
    parameters: async (full) => ({ ...full, id_token_hint: await signedByAnother(full.id_token_hint) }),
  },
  {
    check: "logout_modified_id_token_hint",
    sent: "the id_token_hint changed to alg none, without its signature",
    expect: "refused",
    parameters: (full) => ({ ...full, id_token_hint: unsigned(full.id_token_hint) }),
  },
  {
    check: "logout_no_id_token_hint",
    sent: "no id_token_hint (post_logout_redirect_uri and state only)",
    expect: "refused",
    parameters: (full) => without(full, "id_token_hint"),
  },
  {
    check: "logout_no_state",
    sent: "no state (id_token_hint and post_logout_redirect_uri)",
    expect: "redirected without state",
    parameters: (full) => without(full, "state"),
  },
  {
    check: "logout_no_post_logout_redirect_uri",
    sent: "no post_logout_redirect_uri (id_token_hint and state)",
    expect: "signed out",
    parameters: (full) => without(full, "post_logout_redirect_uri"),
  },
  {
    check: "logout_only_state",
    sent: "only state",
    expect: "signed out",
    parameters: (full) => without(full, "id_token_hint", "post_logout_redirect_uri"),
  },
  {
    check: "logout_no_parameters",
    sent: "no parameters",
    expect: "signed out",
    parameters: () => ({}),
  },
];

function endSessionUrl(flow: Flow, parameters: Record<string, string>): string {
  const url = new URL(flow.send.urlOf("logout"));
  // A query the endpoint carries is kept, as at the authorization endpoint (RFC 6749 §3.1).
  for (const [name, value] of Object.entries(parameters)) url.searchParams.set(name, value);
  return url.href;
}

/** One module's request from a live session, and for a refusal prompt=none right after it. */
async function attempt(flow: Flow & Trail, module: LogoutModule, full: FullRequest): Promise<LogoutModuleAttempt> {
  const url = endSessionUrl(flow, await module.parameters(full));
  const refusal = module.expect === "refused";
  const purpose = `sign out with ${module.sent}${refusal ? " (not confirmed)" : ""}`;
  const navigation = await flow.driver.navigate(url, {
    until: (next) => sameEndpoint(next, full.post_logout_redirect_uri),
    // A user who is asked whether to sign out, and does not answer: the provider must not end the session then.
    interactive: !refusal,
    purpose,
  });
  const exchange = addToTrail(
    flow,
    "logout",
    "logout",
    purpose,
    navigationExchange(url, navigation, navigation.arrived),
  );
  const found = { check: module.check, sent: module.sent, expect: module.expect, navigation, exchange };
  if (!refusal) return found;
  const sessionAfter = await authorize(flow, {
    scope: "openid",
    extra: { prompt: "none", id_token_hint: full.id_token_hint },
    interactive: false,
    purpose: `authorize with prompt=none after the logout with ${module.sent}`,
  });
  return { ...found, sessionAfter };
}

export async function logoutModules(parent: Flow): Promise<LogoutModulesScenario | undefined> {
  const { checks } = parent.context.options;
  const selected = LOGOUT_MODULES.filter((module) => checks.has(module.check));
  if (selected.length === 0 || parent.send.aborted) return undefined;
  const flow = traced(parent);
  const registered = flow.context.options.identity?.postLogoutRedirectUri;
  const scenario: LogoutModulesScenario = {
    family: "identity",
    name: "logout modules",
    ...trailOf(flow),
    registered,
    attempts: [],
    notSignedIn: [],
  };
  if (!registered) return scenario;
  let idToken: string | undefined;
  for (const module of selected) {
    if (flow.send.aborted) break;
    // A refusal that kept the session leaves it for the next module; anything else needs a new sign-in.
    idToken ??= await signInForLogout(flow);
    if (!idToken) {
      scenario.notSignedIn.push(module.check);
      continue;
    }
    const found = await attempt(flow, module, {
      id_token_hint: idToken,
      post_logout_redirect_uri: registered,
      state: newState(),
    });
    scenario.attempts.push(found);
    if (found.sessionAfter?.kind !== "code") idToken = undefined;
  }
  return scenario;
}
