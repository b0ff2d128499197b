// Providers that keep the identity seed and the standards but made a choice the run once failed (issue 47, false
// alarms 1-6), each a fixture written for the purpose and sharing no code with the sandbox: a stock oidc-provider with
// one small hook (test/support/stock-oidc-provider.ts) or the self-tests' fault provider with one correct choice
// (conformance/fault-servers/identity.ts). Each run passes: exit 0, and at most a warning where the contract marks the
// choice an x-assumption. Each fixture is first shown to behave as described, so that the pass is not for want of it.
import { afterAll, describe, expect, it } from "vitest";
import { loadContract } from "../../lib/contract/index.js";
import type { RunningServer } from "../../conformance/fault-servers/http.js";
import { startIdentityServer } from "../../conformance/fault-servers/identity.js";
import type { RunReport } from "../../conformance/report/report.js";
import { checkOf, failingChecks } from "../support/conform-cli.js";
import { conformIdentityInProcess, conformInProcess } from "../support/conform.js";
import { FAULT_SERVER_CREDENTIALS } from "../../conformance/fault-servers/credentials.js";
import {
  STOCK_SIGN_IN,
  type StockProvider,
  type StockProviderOptions,
  startStockOidcProvider,
} from "../support/stock-oidc-provider.js";

/** The identity paths, from the contract (never spelled here: test/repository/identity-paths.test.ts). */
const pathOf = (operationId: "getOpenIdConfiguration" | "exchangeToken" | "logout") =>
  loadContract("identity").operation(operationId).path;

const FLOWS = ["--operation", "exchangeToken"];
const running: Array<StockProvider | RunningServer> = [];
afterAll(async () => void (await Promise.all(running.map((server) => server.close()))));

async function stock(options: StockProviderOptions): Promise<StockProvider> {
  const provider = await startStockOidcProvider(options);
  running.push(provider);
  return provider;
}

/** The run passes with `passed` among its checks; its report. */
async function expectPass(url: string, passed: string[], args = FLOWS, env: NodeJS.ProcessEnv = {}) {
  const { code, report, output } = await conformIdentityInProcess(url, args, env);
  expect(failingChecks(report), output).toEqual([]);
  expect(
    report.checks.filter((c) => c.couldNotRun).map((c) => c.name),
    output,
  ).toEqual([]);
  for (const name of passed) expect(checkOf(report, name).passed, `${name}\n${output}`).toBeGreaterThan(0);
  expect(code, output).toBe(0);
  return report;
}

/**
 * The warnings of a run but the stock oidc-provider's one everywhere: it answers the authorization request by POST
 * 404, which the contract (GET only) allows (identity-stock-provider.test.ts proves it).
 */
const stockWarnings = (report: RunReport) => report.warnings.filter((w) => w.check !== "authorization_by_post");
const warningsOf = (report: RunReport) => stockWarnings(report).map((w) => w.check);

async function discoveryOf(provider: StockProvider): Promise<Record<string, unknown>> {
  const response = await fetch(`${provider.url}${pathOf("getOpenIdConfiguration")}`);
  return (await response.json()) as Record<string, unknown>;
}

describe.concurrent("false alarms of issue 47: a provider's allowed choice passes", { timeout: 300_000 }, () => {
  it("1: a provider that looks the code up before it authenticates the client (RFC 6749 §5.2 orders no checks)", async () => {
    const server = await startIdentityServer({ fault: "code-looked-up-first" });
    running.push(server);
    const unknownCodeWrongSecret = await fetch(`${server.url}${pathOf("exchangeToken")}`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "authorization_code",
        code: "unknown",
        redirect_uri: FAULT_SERVER_CREDENTIALS.IDENTITY_REDIRECT_URI,
        client_id: FAULT_SERVER_CREDENTIALS.IDENTITY_CLIENT_ID,
        client_secret: "wrong",
      }),
    });
    expect(await unknownCodeWrongSecret.json()).toMatchObject({ error: "invalid_grant" });
    await expectPass(server.url, ["token_errors"]);
  });

  it("2: a provider with the password grant enabled (RFC 6749 §4.3)", async () => {
    const server = await startIdentityServer({ fault: "password-grant-enabled" });
    running.push(server);
    const password = await fetch(`${server.url}${pathOf("exchangeToken")}`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "password",
        username: "someone",
        password: "wrong",
        client_id: FAULT_SERVER_CREDENTIALS.IDENTITY_CLIENT_ID,
        client_secret: FAULT_SERVER_CREDENTIALS.IDENTITY_CLIENT_SECRET,
      }),
    });
    expect(await password.json()).toMatchObject({ error: "invalid_grant" });
    await expectPass(server.url, ["token_errors"]);
  });

  it("3: a stock oidc-provider whose discovery leaves out code_challenge_methods_supported (RFC 8414 §2)", async () => {
    const provider = await stock({ withoutPkceMethods: true, pkceRequired: true });
    expect(await discoveryOf(provider)).not.toHaveProperty("code_challenge_methods_supported");
    await expectPass(provider.url, ["pkce_s256_only", "pkce_enforcement"], FLOWS, { IDENTITY_SIGN_IN: STOCK_SIGN_IN });
  });

  it('4: a stock oidc-provider whose id_token aud is ["<client_id>"] (OpenID Connect Core §2, §3.1.3.7)', async () => {
    const provider = await stock({ audienceArray: true });
    const env = { ...FAULT_SERVER_CREDENTIALS, IDENTITY_SIGN_IN: STOCK_SIGN_IN };
    const report = await expectPass(provider.url, ["id_token_signature_and_claims"], FLOWS, env);
    expect(stockWarnings(report)).toEqual([]);
    // On a contract whose aud is a string only, the same provider fails: its aud really is an array.
    const patch = {
      api: "identity" as const,
      pointer: "/components/schemas/IdTokenClaims/properties/aud",
      key: "anyOf",
      value: [{ type: "string" }],
    };
    const stringOnly = await conformInProcess(["identity", "--base-url", provider.url, "--seed", "7", ...FLOWS], env, [
      patch,
    ]);
    const failure = stringOnly.report.failures.find((f) => f.check === "id_token_signature_and_claims");
    expect(failure?.message, stringOnly.output).toMatch(/aud/);
  });

  it('5: a stock oidc-provider with email: "" for a user without an address: a warning (the format is an x-assumption)', async () => {
    const provider = await stock({ emptyEmail: true });
    const report = await expectPass(provider.url, ["id_token_signature_and_claims", "userinfo_by_scope"], FLOWS, {
      IDENTITY_SIGN_IN: STOCK_SIGN_IN,
    });
    expect(stockWarnings(report).length).toBeGreaterThan(0);
    for (const warning of stockWarnings(report)) {
      expect(warning.message).toMatch(/email/);
      expect(warning.assumption).toMatch(/e-mail format is our reading/);
    }
    // oidc-provider puts the e-mail claims in userinfo only (its conformIdTokenClaims); the id_token's judging of
    // the same assumption is proven in identity-checks.test.ts.
    expect(warningsOf(report)).toContain("response_schema_conformance");
    for (const check of warningsOf(report))
      expect(["response_schema_conformance", "id_token_signature_and_claims"]).toContain(check);
  });

  it("6: a logout answered 200 with a JSON body passes content_type_conformance (RP-Initiated Logout fixes no media type)", async () => {
    const server = await startIdentityServer({ fault: "logout-json" });
    running.push(server);
    const logout = await fetch(`${server.url}${pathOf("logout")}`);
    expect(logout.status).toBe(200);
    expect(logout.headers.get("content-type")).toMatch(/^application\/json/);
    const args = ["--operation", "logout", "--operation", "logoutWithForm", "--max-examples", "5"];
    await expectPass(server.url, ["content_type_conformance", "response_schema_conformance"], args);
    // The same run on a contract that allows text/html only fails content_type_conformance: the probe reached it.
    const patch = {
      api: "identity" as const,
      pointer: "/components/responses/LogoutPage/content",
      key: "application/json",
      value: undefined,
    };
    const htmlOnly = await conformInProcess(
      ["identity", "--base-url", server.url, "--seed", "7", ...args],
      { ...FAULT_SERVER_CREDENTIALS },
      [patch],
    );
    expect(failingChecks(htmlOnly.report), htmlOnly.output).toContain("content_type_conformance");
  });
});
