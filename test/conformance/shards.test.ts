// --shard i/n splits the work deterministically (whole paths per shard) and `contracts conform merge` joins the
// shards' reports: the union of the shards is the whole run, check by check and operation by operation. Every run
// has a reference server of its own (the same seeded state, a rate-limit window of its own), so that runs go side by
// side.
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, type TestContext } from "vitest";
import { FAULT_SERVER_CREDENTIALS, startReferenceServer } from "../../conformance/fault-servers/faults.js";
import type { RunningServer } from "../../conformance/fault-servers/http.js";
import type { RunReport } from "../../conformance/report/report.js";
import { conformInProcess } from "../support/conform.js";
import { runContracts } from "../support/processes.js";

const dir = mkdtempSync(join(tmpdir(), "conform-shards-"));
const env = { ...FAULT_SERVER_CREDENTIALS };
let server: RunningServer;
beforeAll(async () => {
  server = await startReferenceServer("links");
});
afterAll(async () => {
  await server?.close();
});

/** A links reference server closed when the test ends. */
async function linksServer({ onTestFinished }: TestContext): Promise<RunningServer> {
  const fresh = await startReferenceServer("links");
  onTestFinished(() => fresh.close());
  return fresh;
}

/**
 * `contracts conform <args>` in this process (test/support/conform.ts); merge, --config and the usage errors run the
 * CLI.
 */
const run = (args: string[]) => conformInProcess(args, env);

/** check → operation → passed/failed, without the checks that ran nowhere. */
const tallies = (report: RunReport) =>
  Object.fromEntries(report.checks.filter((c) => c.passed + c.failed > 0).map((c) => [c.name, c.operations]));

describe.sequential("--shard and merge", () => {
  /** The shards' JSON reports, from the first test to the second. */
  let shardReports: string[] = [];
  it("the union of three shards is the whole run, and merge joins their reports", async (context) => {
    const runOwnServer = async (more: string[]) => {
      const { url } = await linksServer(context);
      return run([
        "links",
        "--base-url",
        url,
        "--max-examples",
        "3",
        "--seed",
        "21",
        "--rate-limit",
        "1000/s",
        "--allow-writes",
        // The whole plan in every run: the union of the shards equals the whole run only without a budget.
        "--max-requests",
        "none",
        ...more,
      ]);
    };
    const [whole, shards] = await Promise.all([
      runOwnServer([]),
      Promise.all([1, 2, 3].map((index) => runOwnServer(["--shard", `${index}/3`]))),
    ]);
    expect(whole.code, whole.stderr).toBe(0);
    const parts: RunReport[] = [];
    for (const [i, part] of shards.entries()) {
      expect(part.code, part.stderr).toBe(0);
      expect(part.report.shard).toBe(`${i + 1}/3`);
      parts.push(part.report);
    }
    // The shards split the work: each did a part (a sequence may list what another shard's paths hold).
    const ran = (report: RunReport) =>
      Object.keys(report.checks.find((c) => c.name === "not_a_server_error")!.operations);
    for (const part of parts) expect(ran(part).length).toBeLessThan(ran(whole.report).length);
    expect(parts.reduce((n, p) => n + p.requests, 0)).toBeLessThan(whole.report.requests + 4);

    const merged = join(dir, "merged.json");
    const junit = join(dir, "merged.xml");
    shardReports = shards.map((part) => part.files.json);
    const html = join(dir, "merged.html");
    const joined = runContracts(
      ["conform", "merge", ...shardReports, "--json", merged, "--junit", junit, "--html", html],
      env,
    );
    expect(await joined.exit, joined.stderr()).toBe(0);
    const report = JSON.parse(readFileSync(merged, "utf8")) as RunReport;
    expect(tallies(report)).toEqual(tallies(whole.report));
    // The shards' coverage joins into the whole run's: the same operations reached, each shard alone reached less.
    const reached = (r: RunReport) => r.coverage!.byOperation.filter((op) => op.reached).map((op) => op.operationId);
    expect(reached(report)).toEqual(reached(whole.report));
    for (const part of parts) expect(reached(part).length).toBeLessThan(reached(whole.report).length);
    expect(report.coverage!.statuses).toEqual(whole.report.coverage!.statuses);
    expect(readFileSync(html, "utf8")).toContain(
      `Operations reached <strong>${whole.report.coverage!.operations.reached}/`,
    );
    expect(report.shard).toBe("1/3 + 2/3 + 3/3");
    expect(readFileSync(junit, "utf8")).toMatch(/<testsuites name="contracts conform" tests="\d+" failures="0"/);
  });

  it("a merged report with a failure exits 1; --shard out of range is a usage error", async () => {
    const file = join(dir, "failing.json");
    const failing = JSON.parse(readFileSync(shardReports[0]!, "utf8")) as RunReport;
    failing.failures.push({
      check: "not_a_server_error",
      operationId: "getAccount",
      message: "server error 500",
      case: "x",
      shrunk: false,
      occurrences: 1,
      request: { method: "GET", url: "http://127.0.0.1/", headers: {} },
      curl: "curl",
    });
    const { writeFileSync } = await import("node:fs");
    writeFileSync(file, JSON.stringify(failing));
    const joined = runContracts(["conform", "merge", file, shardReports[1]!], env);
    expect(await joined.exit).toBe(1);
    const usage = runContracts(["conform", "links", "--base-url", server.url, "--shard", "4/3"], env);
    expect(await usage.exit).toBe(2);
    expect(usage.stderr()).toMatch(/--shard takes <i>\/<n> with 1 <= i <= n, got "4\/3"/);
  });
});

describe.concurrent("--config: a whole deployment in one command", () => {
  it("runs every API of the file with credentials from the variables it names, one report per API", async (context) => {
    const { startOracleCatalogServer } = await import("../../conformance/oracle/catalog.js");
    const { startOraclePayServer } = await import("../../conformance/oracle/pay.js");
    const { writeFileSync, existsSync } = await import("node:fs");
    const catalog = await startOracleCatalogServer({ apiKey: "prod-catalog-key-1", readApiKey: "prod-catalog-read-2" });
    const pay = await startOraclePayServer({ shopId: "77", secret: "prod-pay-secret-3", fault: "nonce-per-endpoint" });
    const links = await linksServer(context);
    try {
      const config = join(dir, "deployment.yaml");
      // No shop client to lock out: pay's nonces in microseconds, as test/support/conform-cli.ts gives a pay run,
      // not whole seconds with a second's wait before each request (25 s of this test).
      writeFileSync(
        config,
        [
          "apis:",
          `  links: { baseUrl: "${links.url}", credentials: { token: PROD_LINKS }, rateLimit: 1000/s }`,
          `  catalog: { baseUrl: "${catalog.url}", credentials: { apiKey: PROD_CATALOG, readApiKey: PROD_CATALOG_READ } }`,
          `  pay: { baseUrl: "${pay.url}", credentials: { shopId: PROD_SHOP, secret: PROD_PAY }, options: [--operation, getBalance, --nonce, microseconds] }`,
        ].join("\n"),
      );
      const prod = {
        PROD_LINKS: env.LINKS_TOKEN,
        PROD_CATALOG: "prod-catalog-key-1",
        PROD_CATALOG_READ: "prod-catalog-read-2",
        PROD_SHOP: "77",
        PROD_PAY: "prod-pay-secret-3",
      };
      const blank = { LINKS_TOKEN: "", CATALOG_API_KEY: "", CATALOG_READ_API_KEY: "", PAY_SHOP_ID: "", PAY_SECRET: "" };
      const command = runContracts(
        [
          "conform",
          "--config",
          config,
          "--max-examples",
          "2",
          "--seed",
          "3",
          "--json",
          join(dir, "prod-{api}.json"),
          "--html",
          join(dir, "prod.html"),
        ],
        { ...blank, ...prod },
      );
      // pay's nonce is unique per endpoint only: the worst exit code of the three is 1.
      expect(await command.exit, command.stderr()).toBe(1);
      for (const api of ["links", "catalog", "pay"]) {
        expect(existsSync(join(dir, `prod-${api}.json`)), api).toBe(true);
        // Without {api} in the name, the API goes before the extension.
        expect(readFileSync(join(dir, `prod.${api}.html`), "utf8")).toContain(`<title>contracts conform ${api}:`);
      }
      const reports = Object.fromEntries(
        ["links", "catalog", "pay"].map((api) => [
          api,
          JSON.parse(readFileSync(join(dir, `prod-${api}.json`), "utf8")) as RunReport,
        ]),
      );
      expect(reports.links!.failures).toEqual([]);
      expect(reports.catalog!.checks.find((c) => c.name === "scope_enforcement")!.passed).toBe(2);
      expect(reports.pay!.failures.map((f) => f.check)).toEqual(["nonce_replay"]);
      for (const secret of Object.values(prod).filter((v) => v.length > 4))
        expect(command.stdout() + command.stderr()).not.toContain(secret);

      const missing = runContracts(["conform", "--config", config], { ...blank, ...prod, PROD_PAY: "" });
      expect(await missing.exit).toBe(2);
      expect(missing.stderr()).toMatch(/the config says pay reads secret from \$PROD_PAY, which is not set/);

      // A check shared by all that applies to pay alone: links and catalog are left out, not run for nothing.
      const payOnly = runContracts(
        ["conform", "--config", config, "--check", "nonce_replay", "--json", join(dir, "only-{api}.json")],
        { ...blank, ...prod },
      );
      expect(await payOnly.exit).toBe(1);
      expect(payOnly.stderr()).toMatch(/: links left out, none of the selected checks applies to it\n/);
      expect(payOnly.stderr()).toMatch(/: catalog left out, none of the selected checks applies to it\n/);
      expect(["links", "catalog", "pay"].map((api) => existsSync(join(dir, `only-${api}.json`)))).toEqual([
        false,
        false,
        true,
      ]);
      const none = runContracts(["conform", "--config", config, "--check", "jwks_shape"], { ...blank, ...prod });
      expect(await none.exit).toBe(2);
      expect(none.stderr()).toMatch(/none of the selected checks applies to an API of .*deployment\.yaml/);
    } finally {
      await catalog.close();
      await pay.close();
    }
  });
});

describe.concurrent("--concurrency", () => {
  it("runs operations in parallel with the same results as one at a time; never for an API with a rate limit", async () => {
    const { startOraclePayServer } = await import("../../conformance/oracle/pay.js");
    const pay = await startOraclePayServer({ shopId: env.PAY_SHOP_ID, secret: env.PAY_SECRET });
    try {
      const common = ["pay", "--base-url", pay.url, "--max-examples", "4", "--seed", "12"];
      const one = await run(common);
      const four = await run([...common, "--concurrency", "4"]);
      expect(one.code).toBe(0);
      expect(four.code).toBe(0);
      expect(tallies(four.report)).toEqual(tallies(one.report));
    } finally {
      await pay.close();
    }
    const links = runContracts(
      [
        "conform",
        "links",
        "--base-url",
        server.url,
        "--operation",
        "getAccount",
        "--max-examples",
        "1",
        "--rate-limit",
        "1000/s",
        "--concurrency",
        "4",
      ],
      env,
    );
    expect(await links.exit).toBe(0);
    expect(links.stderr()).toMatch(/--concurrency ignored: the links contract declares a rate limit/);
  });
});
