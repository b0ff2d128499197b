// The RP-Initiated Logout modules' checks (logout_bad_id_token_hint, logout_modified_id_token_hint,
// logout_no_id_token_hint, logout_no_state, logout_no_post_logout_redirect_uri, logout_only_state,
// logout_no_parameters): each reads its one request (identity/logout-modules.ts). Every page the specification lets
// the provider show passes (an error page, a confirmation page, a logged-out page, JSON): what fails is a redirect the
// request did not allow, a server error, a session ended without the user's confirmation, a state that was not sent.
import type { JudgeContext } from "../context.js";
import type { Decision, Finding } from "../model/finding.js";
import { LOGOUT_MODULE_CHECKS } from "../model/identity-check-groups.js";
import type { LogoutModuleAttempt, LogoutModulesScenario } from "../model/identity-scenarios.js";
import { describeAuthorization } from "./identity-words.js";
import { cannotRunOf, verdictOf, withPages } from "./verdict.js";

/** A page shown, or the reason there was none to judge (the provider did not answer, the driver gave up). */
function pageProblem({ navigation, sent }: LogoutModuleAttempt): { problem: string; cannotRun?: string } {
  const status = navigation.lastPage?.status;
  if (status !== undefined && status >= 500)
    return {
      problem: `logout with ${sent} answered ${status}, a server error (RP-Initiated Logout §2: a page, not a failure)`,
    };
  if (!navigation.lastPage)
    return { problem: "", cannotRun: `no page to judge: ${navigation.failure ?? "no response"}` };
  return { problem: "" };
}

/** refused: no redirect to the post_logout_redirect_uri, no server error, and the session kept. */
function refusedProblem(attempt: LogoutModuleAttempt): { problem: string; cannotRun?: string } {
  const { navigation, sent, sessionAfter } = attempt;
  if (navigation.arrived)
    return {
      problem: `logout with ${sent} sent the browser to the post_logout_redirect_uri (RP-Initiated Logout §2, §3: without a valid id_token_hint the OP cannot tell the request comes from the client, and MUST NOT redirect)`,
    };
  const page = pageProblem(attempt);
  if (page.problem || page.cannotRun) return page;
  if (sessionAfter && sessionAfter.kind !== "code")
    return {
      problem: `the session was ended without the user's confirmation: prompt=none got ${describeAuthorization(sessionAfter)} after a logout with ${sent} that nobody confirmed (RP-Initiated Logout §2: the OP MUST ask the End-User when the id_token_hint is missing or not valid)`,
    };
  return { problem: "" };
}

/** signed out: a page, no server error, and no redirect to the registered address the request did not name. */
function signedOutProblem(attempt: LogoutModuleAttempt): { problem: string; cannotRun?: string } {
  if (attempt.navigation.arrived)
    return {
      problem: `logout with ${attempt.sent} sent the browser to the registered post_logout_redirect_uri, which the request did not name (RP-Initiated Logout §3: only a post_logout_redirect_uri the request carries is redirected to)`,
    };
  return pageProblem(attempt);
}

/** redirected without state: the registered post_logout_redirect_uri, and no state where none was sent. */
function withoutStateProblem({ navigation, sent }: LogoutModuleAttempt): { problem: string } {
  if (!navigation.arrived)
    return {
      problem: `logout with ${sent} did not send the browser to the registered post_logout_redirect_uri: ${navigation.failure} (RP-Initiated Logout §3)`,
    };
  return navigation.arrived.searchParams.has("state")
    ? { problem: "the post-logout redirect carries a state, though none was sent (RP-Initiated Logout §3)" }
    : { problem: "" };
}

const JUDGED_BY = {
  refused: refusedProblem,
  "signed out": signedOutProblem,
  "redirected without state": withoutStateProblem,
};

/** What one module's request got wrong ("" for nothing), or why there was nothing to judge. */
export const logoutModuleProblem = (attempt: LogoutModuleAttempt): { problem: string; cannotRun?: string } =>
  JUDGED_BY[attempt.expect](attempt);

export function judgeLogoutModules(scenario: LogoutModulesScenario, context: JudgeContext): Finding[] {
  const wanted = LOGOUT_MODULE_CHECKS.filter((check) => context.options.checks.has(check));
  if (!scenario.registered) {
    const reason = "needs --post-logout-redirect-uri (registered for the client)";
    return wanted.map((check): Decision => ({ about: "check", name: check, decision: "skipped", reason }));
  }
  const notSignedIn = scenario.notSignedIn.map((check) =>
    cannotRunOf(check, "could not sign in again to get a session and an id_token to sign out with"),
  );
  const judged = scenario.attempts.map((attempt): Finding => {
    const { problem, cannotRun } = logoutModuleProblem(attempt);
    if (cannotRun) return cannotRunOf(attempt.check, cannotRun);
    const verdict = verdictOf(attempt.check, "logout", problem, attempt.exchange, `logout with ${attempt.sent}`);
    return withPages(verdict, [attempt.navigation]);
  });
  return [...judged, ...notSignedIn];
}
