// The real `contracts conform` against the two targets this repository ships: the Prism mock (read-only; Prism is
// stateless) and the stateful sandbox (`contracts sandbox`, with writes and the OpenID Connect flow checks).
import { FLOW_CHECKS } from "../../conformance/model/identity-check-groups.js";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { IDENTITY_CHECKS } from "../../conformance/model/identity-check-groups.js";
import type { RunReport } from "../../conformance/report/report.js";
import { type RunningMocks, startMocks } from "../../mock/prism.js";
import { API_NAMES, type ApiName } from "../../lib/contract/index.js";
import { testPort } from "../support/ports.js";
import { testNonces } from "../support/conform-cli.js";
import { type RunningCommand, runContracts } from "../support/processes.js";

const dir = mkdtempSync(join(tmpdir(), "conform-targets-"));

async function conform(
  api: ApiName,
  baseUrl: string,
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ code: number | string; report: RunReport; output: string }> {
  const json = join(dir, `${api}-${Math.random().toString(36).slice(2)}.json`);
  const argv = testNonces([api, "--base-url", baseUrl, "--seed", "11", "--json", json, ...args]);
  const run = runContracts(["conform", ...argv], env);
  const code = await run.exit;
  return {
    code,
    report: JSON.parse(readFileSync(json, "utf8")) as RunReport,
    output: `${run.stdout()}\n${run.stderr()}`,
  };
}

const failing = (report: RunReport) => report.failures.map((f) => `${f.check} on ${f.operationId}: ${f.message}`);

// The runs of each group go concurrently: one API each, against its own server.
describe.concurrent("against the Prism mock (read-only)", () => {
  const PRISM_BASE = 4540;
  let mocks: RunningMocks;
  beforeAll(async () => {
    mocks = await startMocks({
      ports: { identity: PRISM_BASE, links: PRISM_BASE + 1, catalog: PRISM_BASE + 2, pay: PRISM_BASE + 3 },
    });
  });
  afterAll(async () => {
    await mocks?.stop();
  });

  // Prism serves the contract's examples and validates requests, and that is all it does. Checks that need more
  // than that cannot pass against it, so they are left out here (the sandbox test below runs every one of them):
  // - ignored_auth: Prism only checks that a credential is present, never whether it is right;
  // - nonce_replay: Prism keeps no state and does not verify pay signatures or nonces;
  // - rate_limit_headers_consistent: Prism repeats the example headers (Remaining 29, a Reset in 2024) on every
  //   response;
  // - list_parameters_honoured: Prism answers every page with the example's page, whatever limit and page ask.
  const STATELESS_LIMITS = [
    "ignored_auth",
    "nonce_replay",
    "rate_limit_headers_consistent",
    "list_parameters_honoured",
  ];
  const env = {
    LINKS_TOKEN: "prism-links-token",
    CATALOG_API_KEY: "prism-catalog-key",
    PAY_SHOP_ID: "3561",
    PAY_SECRET: "prism-pay-secret",
  };

  it.each(API_NAMES.map((api) => [api] as const))("%s: no check fails", async (api) => {
    const url = mocks.mocks.find((m) => m.api === api)!.url;
    // Prism does not limit anything, so the contract's 30 requests per minute (links) need not slow this run down.
    // No client is registered at Prism, so the OpenID Connect flow checks could not run: they are excluded, as a
    // run without client credentials must do (a check that applies but cannot run fails the run).
    const flow = api === "identity" ? FLOW_CHECKS : [];
    const args = [
      "--max-examples",
      "4",
      "--rate-limit",
      "1000/s",
      ...[...STATELESS_LIMITS, ...flow].flatMap((c) => ["--exclude-check", c]),
    ];
    const { code, report, output } = await conform(api, url, args, env);
    expect(failing(report), output).toEqual([]);
    expect(code).toBe(0);
    expect(report.requests).toBeGreaterThan(5);
    expect(report.checks.find((c) => c.name === "response_schema_conformance")!.passed).toBeGreaterThan(0);
  });
});

describe.concurrent("against the sandbox (contracts sandbox)", () => {
  const SANDBOX_BASE = testPort(4560);
  const urls = {
    identity: `http://127.0.0.1:${SANDBOX_BASE}`,
    links: `http://127.0.0.1:${SANDBOX_BASE + 1}`,
    catalog: `http://127.0.0.1:${SANDBOX_BASE + 2}`,
    pay: `http://127.0.0.1:${SANDBOX_BASE + 3}`,
  };
  // The sandbox's default demo credentials (contracts sandbox --print-config).
  const env = {
    LINKS_TOKEN: "demo-links-key",
    CATALOG_API_KEY: "demo-seller-key",
    PAY_SHOP_ID: "3561",
    PAY_SECRET: "demo-pay-key",
    IDENTITY_CLIENT_ID: "demo-app",
    IDENTITY_CLIENT_SECRET: "demo-app-secret",
    IDENTITY_REDIRECT_URI: "http://127.0.0.1:5173/callback",
    IDENTITY_SIGN_IN: "login=alice.novak@example.org&password=alice-demo",
    IDENTITY_POST_LOGOUT_REDIRECT_URI: "http://127.0.0.1:5173/",
  };
  let sandbox: RunningCommand;
  beforeAll(async () => {
    // The contract's 30 links requests in one-second windows, not one-minute ones, as the sandbox guide runs it: the
    // links run crosses its window and waits for the next, and a minute of that wait would prove nothing more.
    sandbox = runContracts(["sandbox", "--base-port", String(SANDBOX_BASE), "--rate-limit", "30/s"]);
    await sandbox.waitForOutput(new RegExp(`pay\\s+http://127\\.0\\.0\\.1:${SANDBOX_BASE + 3}\\b`));
  });
  afterAll(async () => {
    if (sandbox && sandbox.child.exitCode === null) {
      sandbox.child.kill("SIGTERM");
      await sandbox.exit;
    }
  });

  it("identity: every OpenID Connect check runs and passes", async () => {
    const operations = [
      "getOpenIdConfiguration",
      "getJwks",
      "authorize",
      "exchangeToken",
      "getUserInfo",
      "logout",
      "logoutWithForm",
    ];
    const { code, report, output } = await conform(
      "identity",
      urls.identity,
      ["--max-examples", "3", ...operations.flatMap((id) => ["--operation", id])],
      env,
    );
    // Every OpenID Connect check, those at the OpenID Foundation Basic OP / Config OP level included.
    for (const { name } of IDENTITY_CHECKS)
      expect(
        report.checks.find((c) => c.name === name),
        `${name}\n${output}`,
      ).toMatchObject({ failed: 0 });
    // The sandbox offers no claims parameter (OPTIONAL, OpenID Connect Core §5.5): claims_essential skips, saying so;
    // its demo configuration registers one client, so refresh_token_client_bound has no second one and skips too.
    const skipped = ["claims_essential", "refresh_token_client_bound"];
    for (const { name } of IDENTITY_CHECKS.filter((c) => !skipped.includes(c.name)))
      expect(report.checks.find((c) => c.name === name)!.passed, `${name}\n${output}`).toBeGreaterThan(0);
    expect(report.checks.find((c) => c.name === "claims_essential")!.skipped).toMatch(
      /does not advertise claims_parameter_supported: true/,
    );
    expect(report.checks.find((c) => c.name === "refresh_token_client_bound")!.skipped).toMatch(
      /needs a second client/,
    );
    expect(failing(report), output).toEqual([]);
    expect(code).toBe(0);
  });

  it.each([
    // Few operations for links: the sandbox enforces the contract's 30 requests per window, and the run respects it.
    [
      "links",
      [
        "--rate-limit",
        "30/s",
        "--max-examples",
        "2",
        "--operation",
        "getAccount",
        "--operation",
        "addCampaign",
        "--operation",
        "listCampaigns",
      ],
    ],
    ["catalog", ["--max-examples", "3"]],
    // The sandbox requires currency on createOrder, which the contract leaves optional under an x-assumption ("which
    // fields the provider requires is not shown"): random orders without it are refused, a warning rather than a
    // failure.
    ["pay", ["--max-examples", "3"]],
  ] as const)(
    "%s: nothing fails with writes, and what can be deleted is deleted",
    async (api, args) => {
      const { code, report, output } = await conform(api, urls[api], [...args, "--allow-writes"], env);
      expect(failing(report), output).toEqual([]);
      expect(code).toBe(0);
      expect(report.resources.length).toBeGreaterThan(0);
      for (const resource of report.resources)
        if (resource.state !== "deleted") expect(resource.note).toMatch(/no operation to delete/);
      const stateful = {
        links: ["use_after_free", "ensure_resource_availability", "rate_limit_headers_consistent"],
        catalog: ["idempotency"],
        pay: ["nonce_replay", "ensure_resource_availability"],
      }[api];
      for (const name of stateful)
        expect(
          report.checks.find((c) => c.name === name),
          output,
        ).toMatchObject({ failed: 0 });
      for (const name of stateful)
        expect(report.checks.find((c) => c.name === name)!.passed, `${name}\n${output}`).toBeGreaterThan(0);
      // links' page-2 step adds and deletes rows of its own, so the run crosses the window and waits for the next, as
      // it must.
    },
    150_000,
  );
});
