// The fault provider's RP-initiated logout (RP-Initiated Logout §2, §3), each rule spelled out where a fault switches
// it off: an id_token_hint must verify with the provider's key (RS256; alg none is no signature); without a valid one
// the request may not redirect, and the user is asked before the session ends (a confirmation form); with one the
// session ends at once, and the browser goes to a registered post_logout_redirect_uri with the state sent, if any.
import { randomBytes } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { decodeJwt, decodeProtectedHeader, importJWK, jwtVerify } from "jose";
import type { IncomingCall, Reply } from "./http.js";
import type { ProviderState } from "./identity-endpoints.js";
import { postLogoutRegistered } from "./identity-redirects.js";
import { cookieOf, errorPage, escape, html, readText } from "./identity-pages.js";

export const SESSION_COOKIE = "fault_session";

/** What logout reads and changes of the provider: its sessions, and the sign-outs waiting for the user's answer. */
export interface LogoutState extends ProviderState {
  readonly sessions: Map<string, { authTime: number }>;
  readonly logoutConfirmations: Set<string>;
}

/** Whether the hint is an id_token this provider signed (as the faults loosen it). */
async function hintValid(provider: LogoutState, hint: string): Promise<boolean> {
  const { fault } = provider;
  try {
    const alg = decodeProtectedHeader(hint).alg;
    if (alg === "none") return fault === "logout-hint-alg-none-accepted";
    // The faulty check reads the claims and never the signature.
    if (fault === "logout-hint-signature-not-checked") return typeof decodeJwt(hint).sub === "string";
    // The signature only: the faults of the id_token's claims (a wrong aud) must still sign out as before.
    await jwtVerify(hint, await importJWK(provider.publicJwk, "RS256"));
    return true;
  } catch {
    return false;
  }
}

/** Ends the session, then the registered post_logout_redirect_uri with the state, or a page. */
function signOut(provider: LogoutState, request: IncomingMessage, target: string | null, state: string | null): Reply {
  const { fault } = provider;
  const sessionId = cookieOf(request, SESSION_COOKIE);
  if (sessionId && fault !== "logout-keeps-session") provider.sessions.delete(sessionId);
  // The faulty logout only redirects: it neither ends the session nor clears its cookie.
  const clearCookie: Record<string, string> =
    fault === "logout-keeps-session" ? {} : { "Set-Cookie": `${SESSION_COOKIE}=; Path=/; Max-Age=0` };
  if (!target && fault === "logout-json") return { status: 200, body: { status: "ok" }, headers: clearCookie };
  if (!target) return html(200, "Signed out", "<h1>You have been signed out</h1>", clearCookie);
  const location = new URL(target);
  if (state && fault !== "logout-drops-state") location.searchParams.set("state", state);
  // The faulty template writes the parameter whether or not the request sent one.
  if (!state && fault === "logout-adds-empty-state") location.searchParams.set("state", "");
  return { status: 302, headers: { Location: location.href, ...clearCookie } };
}

/** The question RP-Initiated Logout §2 makes the OP ask when it cannot tell the request comes from the client. */
function confirmationPage(provider: LogoutState): Reply {
  const id = randomBytes(12).toString("hex");
  provider.logoutConfirmations.add(id);
  return html(
    200,
    "Sign out?",
    `<h1>Sign out of the identity service?</h1><form method="post" action="/logout/confirm"><input type="hidden" name="confirmation" value="${escape(id)}"><button type="submit">Sign out</button></form>`,
  );
}

export async function logout(
  provider: LogoutState,
  params: URLSearchParams,
  call: IncomingCall,
  request: IncomingMessage,
): Promise<Reply> {
  const { fault } = provider;
  if (call.invalid) return html(400, "Sign-out error", `<h1>Sign-out error</h1><p>${escape(call.invalid)}</p>`);
  // The faulty handlers read a parameter that is not there.
  if (fault === "logout-no-parameters-500" && [...params.keys()].length === 0)
    return errorPage("Server error", "Cannot read properties of undefined.", 500);
  if (fault === "logout-only-state-500" && [...params.keys()].join() === "state")
    return errorPage("Server error", "Cannot read properties of undefined.", 500);
  const target = params.get("post_logout_redirect_uri");
  if (target && !postLogoutRegistered(fault, target, provider.client.postLogoutRedirectUris))
    return errorPage("Sign-out error", "The post_logout_redirect_uri is not registered for this application.");
  const hint = params.get("id_token_hint");
  const state = params.get("state");
  if (hint) {
    if (!(await hintValid(provider, hint))) return errorPage("Sign-out error", "The id_token_hint is not valid.");
    // The faulty provider picks the client's registered address from the hint when the request names none.
    const chosen =
      !target && fault === "logout-default-post-logout-redirect" ? provider.client.postLogoutRedirectUris[0]! : target;
    return signOut(provider, request, chosen, state);
  }
  if (target && fault !== "logout-redirects-without-hint")
    return errorPage("Sign-out error", "A post_logout_redirect_uri needs the id_token_hint of the application.");
  if (target) return signOut(provider, request, target, state);
  // The JSON logout (a choice the run must pass) answers at once, as an API that asks nobody would.
  if (fault === "logout-json") return signOut(provider, request, null, state);
  return confirmationPage(provider);
}

/** The user's answer to confirmationPage: signs out, then the provider's own page. */
export async function logoutConfirm(provider: LogoutState, request: IncomingMessage): Promise<Reply> {
  const id = new URLSearchParams(await readText(request)).get("confirmation") ?? "";
  if (!provider.logoutConfirmations.delete(id))
    return errorPage("Sign-out error", "This sign-out question has expired; start again from the application.");
  return signOut(provider, request, null, null);
}
