// prompt_login and logout_ends_session rest on evidence (issue 62), with both sign-in drivers: prompt=login passes
// only when the provider asked for the credentials again (a form with a password input shown and submitted) and
// auth_time moved forward; logout_ends_session is judged only when prompt=none got a code before the logout, in the
// same browser. A provider that answers prompt=login with a one-click "Continue with alice" page breaks Core
// §3.1.2.1's SHOULD (a warning, a failure under --strict: identity-faults.ts); one that keeps no session at all gives
// the logout nothing to end, and the check is skipped with that reason, never passed. The stock oidc-provider passes
// both (identity-stock-provider.test.ts).
import { describe, expect, it } from "vitest";
import { startIdentityServer } from "../../conformance/fault-servers/identity.js";
import { REAUTHENTICATION_PROMPT_IS_A_SHOULD } from "../../conformance/judge/identity-authorization.js";
import { checkOf, failingChecks, SIGN_IN_DRIVERS } from "../support/conform-cli.js";
import { conformIdentityInProcess } from "../support/conform.js";

describe.concurrent("session verdicts with evidence", () => {
  it.each(SIGN_IN_DRIVERS)(
    'prompt=login answered with a one-click "Continue with alice" page warns on prompt_login (%s driver)',
    async (_driver, args) => {
      const server = await startIdentityServer({ fault: "prompt-ignored-one-click" });
      try {
        const only = ["--check", "prompt_login", "--check", "sign_in"];
        const { code, report, output } = await conformIdentityInProcess(server.url, [...args, ...only]);
        expect(failingChecks(report), output).toEqual([]);
        expect(report.warnings, output).toEqual([
          expect.objectContaining({
            check: "prompt_login",
            operationId: "authorize",
            message: expect.stringContaining("prompt=login returned a code without asking for the credentials again"),
            assumption: REAUTHENTICATION_PROMPT_IS_A_SHOULD,
          }),
        ]);
        expect(code, output).toBe(0);
        const strict = await conformIdentityInProcess(server.url, [...args, ...only, "--strict"]);
        expect(failingChecks(strict.report), strict.output).toEqual(["prompt_login"]);
        expect(strict.code).toBe(1);
      } finally {
        await server.close();
      }
    },
    180_000,
  );

  it.each(SIGN_IN_DRIVERS)(
    "a provider that asks for the password again on prompt=login passes prompt_login without a warning (%s driver)",
    async (_driver, args) => {
      const server = await startIdentityServer({});
      try {
        const only = ["--check", "prompt_login", "--check", "sign_in"];
        const { code, report, output } = await conformIdentityInProcess(server.url, [...args, ...only]);
        expect(failingChecks(report), output).toEqual([]);
        expect(checkOf(report, "prompt_login").passed, output).toBe(1);
        expect(report.warnings, output).toEqual([]);
        expect(code, output).toBe(0);
      } finally {
        await server.close();
      }
    },
    180_000,
  );

  it.each(SIGN_IN_DRIVERS)(
    "a provider that keeps no session: logout_ends_session is skipped with the reason, not passed (%s driver)",
    async (_driver, args) => {
      const server = await startIdentityServer({ fault: "no-session" });
      try {
        const only = ["--check", "logout_ends_session", "--check", "logout_post_redirect"];
        const { code, report, output } = await conformIdentityInProcess(server.url, [...args, ...only]);
        expect(failingChecks(report), output).toEqual([]);
        const ends = checkOf(report, "logout_ends_session");
        expect(ends.passed, output).toBe(0);
        expect(ends.skipped, output).toMatch(/^no session to end: prompt=none got no code before the logout/);
        expect(checkOf(report, "logout_post_redirect").passed, output).toBe(1);
        expect(code, output).toBe(0);
      } finally {
        await server.close();
      }
    },
    180_000,
  );

  it.each(SIGN_IN_DRIVERS)(
    "a provider whose session outlives the logout still fails logout_ends_session (%s driver)",
    async (_driver, args) => {
      const server = await startIdentityServer({ fault: "logout-keeps-session" });
      try {
        const only = ["--check", "logout_ends_session", "--check", "logout_post_redirect"];
        const { report, output } = await conformIdentityInProcess(server.url, [...args, ...only]);
        expect(failingChecks(report), output).toEqual(["logout_ends_session"]);
      } finally {
        await server.close();
      }
    },
    180_000,
  );
});
