// The identity fault providers, proven with `contracts conform identity` run in this process (test/support/conform.ts;
// identity.test.ts runs the CLI itself): every new fault is caught by exactly its check, and no secret the provider
// issued or accepted reaches the report. The runs are independent (each has its own provider on a free port) and
// mostly wait (the max_age and prompt=login checks let seconds pass), so they run concurrently.
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FLOWS } from "../../conformance/fault-servers/identity-fault-runs.js";
import { IDENTITY_FAULT_CASES } from "../../conformance/fault-servers/identity-faults.js";
import { IDENTITY_CHECKS } from "../../conformance/model/identity-check-groups.js";
import { startIdentityServer } from "../../conformance/fault-servers/identity.js";
import { identitySchema } from "../../conformance/identity/paths.js";
import { FAULT_SERVER_CREDENTIALS } from "../../conformance/fault-servers/credentials.js";
import { USER_RECORD_SECRETS } from "../../conformance/fault-servers/identity-endpoints.js";
import { checkOf, failingChecks, identityRunArgs } from "../support/conform-cli.js";
import { conformIdentityInProcess, conformInProcess } from "../support/conform.js";

describe("identity fault providers", () => {
  it("every new identity check has a fault provider and is documented in the mapping table", () => {
    const table = readFileSync(new URL("../../docs/guide/identity-conformance.md", import.meta.url), "utf8");
    const covered = new Set(IDENTITY_FAULT_CASES.map((f) => f.check));
    for (const { name } of IDENTITY_CHECKS) expect(table, name).toContain(`| \`${name}\` |`);
    for (const name of [
      "sign_in",
      "state_echoed",
      "pkce_s256_only",
      "refresh_token_offline_access",
      "logout_open_redirect",
    ])
      expect(covered.has(name), name).toBe(true);
  });

  it.concurrent.each(IDENTITY_FAULT_CASES.map((fault) => [fault.name, fault] as const))(
    "%s is caught by exactly its check",
    async (_name, fault) => {
      const server = await fault.start();
      try {
        const { code, report, output } = await conformIdentityInProcess(server.url, fault.args);
        expect(failingChecks(report), output).toEqual([fault.check]);
        expect(code).toBe(1);
        const failure = report.failures.find((f) => f.check === fault.check);
        expect(failure?.curl).toMatch(/curl -sS -i -X [A-Z]+ "http:\/\/127\.0\.0\.1:\d+\//);
        const text = JSON.stringify(report);
        for (const secret of server.secretsSeen)
          expect(text.includes(secret), `a secret leaked into the report`).toBe(false);
      } finally {
        await server.close();
      }
    },
  );
});

describe.concurrent("a provider that does not take the userinfo token in a POST's form body", () => {
  // RFC 6750 §2.2 makes that way a MAY; the contract marks it x-assumption (UserInfoRequest.access_token).
  const assumption = (identitySchema("UserInfoRequest") as { properties: { access_token: { "x-assumption": string } } })
    .properties.access_token["x-assumption"];

  it("passes, with the broken assumption as a warning", async () => {
    const server = await startIdentityServer({ fault: "userinfo-post-body-ignored" });
    try {
      const { code, report, output } = await conformIdentityInProcess(server.url, FLOWS);
      expect(failingChecks(report), output).toEqual([]);
      expect(code, output).toBe(0);
      expect(report.warnings).toEqual([
        expect.objectContaining({
          check: "userinfo_methods",
          operationId: "getUserInfoByPost",
          message: "userinfo by POST with access_token in the form body answered 401 (RFC 6750 §2.2, a MAY)",
          assumption,
        }),
      ]);
    } finally {
      await server.close();
    }
  });

  it("fails userinfo_methods where the contract drops the assumption", async () => {
    const server = await startIdentityServer({ fault: "userinfo-post-body-ignored" });
    const patch = {
      api: "identity" as const,
      pointer: "/components/schemas/UserInfoRequest/properties/access_token",
      key: "x-assumption",
      value: undefined,
    };
    try {
      const args = ["identity", "--base-url", server.url, "--seed", "7", "--max-examples", "2", ...FLOWS];
      const { code, report, stdout } = await conformInProcess(args, { ...FAULT_SERVER_CREDENTIALS }, [patch]);
      expect(failingChecks(report), stdout).toEqual(["userinfo_methods"]);
      expect(report.warnings).toEqual([]);
      expect(code).toBe(1);
    } finally {
      await server.close();
    }
  });

  it("fails userinfo_methods under --strict", async () => {
    const server = await startIdentityServer({ fault: "userinfo-post-body-ignored" });
    try {
      const { code, report, output } = await conformIdentityInProcess(server.url, [...FLOWS, "--strict"]);
      expect(failingChecks(report), output).toEqual(["userinfo_methods"]);
      expect(code).toBe(1);
      expect(report.failures.find((f) => f.check === "userinfo_methods")?.operationId).toBe("getUserInfoByPost");
    } finally {
      await server.close();
    }
  });
});

describe("a provider that takes code_challenge_method=plain too (RFC 7636 allows it)", () => {
  it("passes, with the contract's S256-only assumption broken as a warning", async () => {
    const server = await startIdentityServer({ fault: "pkce-plain-accepted" });
    try {
      const { code, report, output } = await conformIdentityInProcess(server.url, FLOWS);
      expect(failingChecks(report), output).toEqual([]);
      expect(code, output).toBe(0);
      expect(report.warnings).toEqual([
        expect.objectContaining({
          check: "pkce_s256_only",
          operationId: "authorize",
          message: expect.stringContaining("a code was issued for code_challenge_method=plain"),
          assumption: expect.stringContaining("allowing S256 alone is the choice agreed"),
        }),
      ]);
    } finally {
      await server.close();
    }
  });
});

describe.concurrent(
  "the Basic OP modules of the POST, the scope order and the refresh token's client (issue 63)",
  () => {
    // With refresh_token_offline_access beside it: a run whose every check was skipped exits 1.
    const only = (check: string) => [...FLOWS, "--check", check, "--check", "refresh_token_offline_access"];

    it("a POST refused with 405 passes with a warning that says the contract describes GET only", async () => {
      const server = await startIdentityServer({ fault: "authorize-post-refused" });
      try {
        const { code, report, output } = await conformIdentityInProcess(server.url, FLOWS);
        expect(failingChecks(report), output).toEqual([]);
        expect(code, output).toBe(0);
        expect(report.warnings).toEqual([
          expect.objectContaining({
            check: "authorization_by_post",
            operationId: "authorize",
            message: expect.stringMatching(
              /^the authorization endpoint refused an authorization request by POST with status 405/,
            ),
            assumption: expect.stringContaining("the contract describes the authorization request by GET only"),
          }),
        ]);
        // The page it refused with is kept, as the suite keeps its screenshot.
        expect(report.refusalPages).toContainEqual(
          expect.objectContaining({ check: "authorization_by_post", status: 405 }),
        );
      } finally {
        await server.close();
      }
    });

    it("refresh_token_client_bound is skipped with its reason without a second client", async () => {
      const server = await startIdentityServer();
      try {
        const env = { IDENTITY_SECOND_CLIENT_ID: "", IDENTITY_SECOND_CLIENT_SECRET: "" };
        const run = await conformIdentityInProcess(server.url, only("refresh_token_client_bound"), env);
        expect(checkOf(run.report, "refresh_token_client_bound").skipped, run.output).toMatch(
          /needs a second client registered with the provider: --second-client-id and --second-client-secret/,
        );
        expect(run.code, run.output).toBe(0);
      } finally {
        await server.close();
      }
    });

    it("refresh_token_client_bound could not run when the second client's own credentials are refused", async () => {
      const server = await startIdentityServer();
      try {
        const env = { IDENTITY_SECOND_CLIENT_SECRET: "not-the-second-secret" };
        const run = await conformIdentityInProcess(server.url, only("refresh_token_client_bound"), env);
        expect(checkOf(run.report, "refresh_token_client_bound").couldNotRun, run.output).toMatch(
          /refused the second client's own credentials \(status 401/,
        );
        expect(run.code).toBe(1);
      } finally {
        await server.close();
      }
    });
  },
);

describe.concurrent("correct refusals and choices the standards allow", () => {
  it("a code refused with 403 access_denied is still refused: only status_code_conformance fails (RFC 6749 §5.2's status), and code_reuse_revokes_tokens runs", async () => {
    const server = await startIdentityServer({ fault: "code-refused-403" });
    try {
      const { code, report, output } = await conformIdentityInProcess(server.url, ["--operation", "exchangeToken"]);
      expect(failingChecks(report), output).toEqual(["status_code_conformance"]);
      expect(code).toBe(1);
      // Replayed 30 seconds later, refused with 403: RFC 6749 §4.1.2's MUST is kept, only §5.2's 400 invalid_grant
      // is not, which warns (the suite fails it).
      expect(report.warnings.filter((w) => w.check === "code_reuse_30_seconds")).toEqual([
        expect.objectContaining({
          message: expect.stringMatching(/seconds after its first exchange got status 403 .*not 400 invalid_grant/),
        }),
      ]);
      for (const name of [
        "code_reuse",
        "code_reuse_revokes_tokens",
        "code_reuse_30_seconds",
        "pkce_enforcement",
        "redirect_uri_mismatch",
      ])
        expect(
          report.checks.find((c) => c.name === name),
          name,
        ).toMatchObject({ failed: 0, passed: 1 });
    } finally {
      await server.close();
    }
  });

  it("prompt=none refused with invalid_request without id_token_hint (OpenID Connect Core §3.1.2.1, a MAY) passes", async () => {
    const server = await startIdentityServer({ fault: "prompt-none-needs-hint" });
    try {
      const { code, report, output } = await conformIdentityInProcess(server.url, FLOWS);
      expect(failingChecks(report), output).toEqual([]);
      expect(
        report.checks.find((c) => c.name === "prompt_none"),
        output,
      ).toMatchObject({ failed: 0, passed: 2 });
      expect(code).toBe(0);
    } finally {
      await server.close();
    }
  });

  it("authorize's error page with 403 instead of the assumed 400 is a warning, and a failure under --strict", async () => {
    const server = await startIdentityServer({ fault: "authorize-error-403" });
    try {
      const args = [
        ...["--operation", "authorize", "--check", "status_code_conformance", "--check", "negative_data_rejection"],
        ...["--max-examples", "20"],
      ];
      const lenient = await conformIdentityInProcess(server.url, args);
      expect(failingChecks(lenient.report), lenient.output).toEqual([]);
      expect(lenient.report.warnings, lenient.output).toEqual([
        expect.objectContaining({
          check: "status_code_conformance",
          operationId: "authorize",
          message: expect.stringContaining("status 403 is not documented"),
          assumption: expect.stringContaining("the status 400 of that page"),
        }),
      ]);
      expect(lenient.code).toBe(0);
      const strict = await conformIdentityInProcess(server.url, [...args, "--strict"]);
      expect(failingChecks(strict.report), strict.output).toEqual(["status_code_conformance"]);
    } finally {
      await server.close();
    }
  });
});

describe.concurrent("claims judged by what was granted, and no secret claims (issue 62)", () => {
  it("a provider that grants openid profile email for a request of openid, and says so in its scope, passes", async () => {
    const server = await startIdentityServer({ fault: "grants-more-scope" });
    try {
      const { code, report, output } = await conformIdentityInProcess(server.url, FLOWS);
      expect(failingChecks(report), output).toEqual([]);
      for (const name of ["userinfo_by_scope", "granted_scope_claims", "id_token_by_scope", "no_secret_claims"])
        expect(checkOf(report, name).passed, name).toBeGreaterThan(0);
      expect(code, output).toBe(0);
    } finally {
      await server.close();
    }
  });

  it("an id_token with the whole user record fails id_token_by_scope and no_secret_claims, and no report shows its secrets or a piece of it", async () => {
    const server = await startIdentityServer({ fault: "id-token-user-record" });
    const html = join(mkdtempSync(join(tmpdir(), "identity-user-record-")), "report.html");
    try {
      const args = identityRunArgs(server.url, [...FLOWS, "--html", html]);
      const run = await conformInProcess(args, { ...FAULT_SERVER_CREDENTIALS }, [], { junit: true });
      expect(failingChecks(run.report), run.output).toEqual(["id_token_by_scope", "no_secret_claims"]);
      expect(run.code).toBe(1);
      const messages = run.report.failures.map((f) => `${f.check}: ${f.message}`).join("\n");
      // The first sign-in's id_token, the one for scope openid and the one of the scopes reordered
      // (alternate_happy_flow's); the report shows the first failure of each check.
      expect(checkOf(run.report, "id_token_by_scope").failed, run.output).toBe(3);
      expect(messages).toMatch(
        /id_token_by_scope: the id_token for scope "openid profile email" \(the token response's scope\) carries wallets \(scope wallets\), phone_number \(scope phone\)/,
      );
      expect(messages).toMatch(/no_secret_claims: the id_token carries password_salt, password_hash, totp_secret/);
      const outputs = {
        console: run.output,
        json: readFileSync(run.files.json, "utf8"),
        junit: readFileSync(run.files.junit!, "utf8"),
        html: readFileSync(html, "utf8"),
      };
      // The id_tokens are longer than a report quotes of a body: no piece of one may show either.
      const idTokens = [...server.secretsSeen].filter((secret) => secret.split(".").length === 3);
      expect(idTokens.length).toBeGreaterThan(0);
      expect(Math.max(...idTokens.map((t) => t.length))).toBeGreaterThan(4000);
      const pieces = idTokens.flatMap((token) => {
        const body = token.slice(token.indexOf(".") + 1);
        return Array.from({ length: Math.floor(body.length / 24) }, (_, i) => body.slice(i * 24, i * 24 + 32));
      });
      for (const [where, text] of Object.entries(outputs)) {
        for (const secret of USER_RECORD_SECRETS) expect(text.includes(secret), `${where} shows ${secret}`).toBe(false);
        for (const piece of pieces) expect(text.includes(piece), `${where} shows a piece of an id_token`).toBe(false);
      }
    } finally {
      await server.close();
    }
  });
});
