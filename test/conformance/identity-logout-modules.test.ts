// The RP-Initiated Logout modules' rules (judge/identity-logout-modules.ts), pure: every page the specification lets
// a provider show passes (an error page, a confirmation page nobody answered, a logged-out page, JSON), and each
// fault is named: a redirect the request did not allow, a server error, a session ended without confirmation, a state
// that was not sent. Fail closed: no page at all could not run. The flows are proven on providers by
// identity-faults.test.ts (a fault each) and identity-stock-provider.test.ts (oidc-provider, seeds 1-20).
import { describe, expect, it } from "vitest";
import { logoutModuleProblem } from "../../conformance/judge/identity-logout-modules.js";
import type { Authorization, Navigation } from "../../conformance/model/identity-facts.js";
import type { LogoutModuleAttempt, LogoutModuleExpectation } from "../../conformance/model/identity-scenarios.js";
import { navigationExchange } from "../../conformance/identity/flow.js";

const REGISTERED = "http://127.0.0.1:5173/";
// A provider's own logout page (any address: the rules read the page, not where it is).
const LOGOUT_PAGE = "http://127.0.0.1:4010/end-session";
const page = (status: number, text: string): Navigation => ({
  failure: "stopped on a page",
  pages: 0,
  lastPage: { url: LOGOUT_PAGE, status, text },
});
const redirected = (query = ""): Navigation => ({ arrived: new URL(`${REGISTERED}${query}`), pages: 0 });

function attempt(expect: LogoutModuleExpectation, navigation: Navigation, sessionAfter?: Authorization) {
  const found: LogoutModuleAttempt = {
    check: "logout_bad_id_token_hint",
    sent: "a fault",
    expect,
    navigation,
    exchange: navigationExchange(LOGOUT_PAGE, navigation, navigation.arrived),
    ...(sessionAfter ? { sessionAfter } : {}),
  };
  return logoutModuleProblem(found);
}

const signedIn = { kind: "code", code: "c", scope: "openid", redirectUri: REGISTERED } as unknown as Authorization;
const signedOut = {
  kind: "error",
  error: "login_required",
  description: "",
  navigation: redirected(),
  exchange: navigationExchange(REGISTERED),
} as Authorization;

describe("the RP-Initiated Logout modules' rules", () => {
  it.each([
    ["an error page", page(400, "Sign-out error: the id_token_hint is not valid")],
    ["a confirmation page nobody answered", page(200, "Do you want to sign out? Yes No")],
    ["a 403 page", page(403, "Forbidden")],
  ])("refused: %s with the session kept passes", (_what, navigation) => {
    expect(attempt("refused", navigation, signedIn)).toEqual({ problem: "" });
  });

  it("refused: a redirect to the post_logout_redirect_uri, a server error, or the session ended fail", () => {
    expect(attempt("refused", redirected("?state=s"), signedIn).problem).toMatch(/MUST NOT redirect/);
    expect(attempt("refused", page(502, "Bad gateway"), signedIn).problem).toMatch(/answered 502, a server error/);
    expect(attempt("refused", page(200, "Do you want to sign out?"), signedOut).problem).toMatch(
      /ended without the user's confirmation: prompt=none got error login_required/,
    );
  });

  it.each([
    ["a logged-out page", page(200, "You have been signed out")],
    ["JSON", page(200, '{"status":"ok"}')],
    ["an error page", page(400, "Sign-out error")],
  ])("signed out: %s passes", (_what, navigation) => {
    expect(attempt("signed out", navigation)).toEqual({ problem: "" });
  });

  it("signed out: a redirect to the registered address the request did not name, or a server error, fail", () => {
    expect(attempt("signed out", redirected()).problem).toMatch(/which the request did not name/);
    expect(attempt("signed out", page(500, "Internal error")).problem).toMatch(/answered 500/);
  });

  it("redirected without state: the registered address without state passes; a state added or no redirect fail", () => {
    expect(attempt("redirected without state", redirected())).toEqual({ problem: "" });
    expect(attempt("redirected without state", redirected("?state=")).problem).toMatch(/carries a state/);
    expect(attempt("redirected without state", page(200, "Signed out")).problem).toMatch(/did not send the browser/);
  });

  it("no page at all could not run, whatever was expected (fail closed)", () => {
    const nothing: Navigation = { failure: "no response from 127.0.0.1: ECONNRESET", pages: 0 };
    for (const expect_ of ["refused", "signed out"] as const)
      expect(attempt(expect_, nothing, signedIn).cannotRun).toMatch(/no page to judge: no response/);
  });
});
