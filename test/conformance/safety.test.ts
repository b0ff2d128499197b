// What makes the runner safe to point at production: it never exceeds the rate limit (the server's headers and the
// contract's budget), it deletes what it created also when interrupted, and it bounds the writes it cannot undo. What
// it prints (no secret, exit codes) is safe-output.test.ts's. The tests run side by side, each with servers of their
// own; those about the command as a process (signals, output) run the CLI, the others run it in this process.
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FAULT_SERVER_CREDENTIALS } from "../../conformance/fault-servers/faults.js";
import type { RunningServer } from "../../conformance/fault-servers/http.js";
import { startCatalogServer } from "../../conformance/fault-servers/catalog.js";
import { startLinksServer } from "../../conformance/fault-servers/links.js";
import { startPayServer } from "../../conformance/fault-servers/pay.js";
import { startOraclePayServer } from "../../conformance/oracle/pay.js";
import type { RunReport } from "../../conformance/report/report.js";
import { parseRequestRate } from "../../lib/cli.js";
import { closedAfter } from "../support/servers.js";
import { conformInProcess } from "../support/conform.js";
import { runContracts } from "../support/processes.js";

const dir = mkdtempSync(join(tmpdir(), "conform-safety-"));
const env = { ...FAULT_SERVER_CREDENTIALS };

async function until(condition: () => boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** The most requests the server saw in any `windowMs` (a sliding window over its request log). */
function busiest(server: RunningServer, windowMs: number): number {
  const times = server.log.map((entry) => entry.at);
  let most = 0;
  for (let i = 0, j = 0; j < times.length; j++) {
    while (times[j]! - times[i]! >= windowMs) i++;
    most = Math.max(most, j - i + 1);
  }
  return most;
}

describe.concurrent("rate limits", () => {
  it("follows the server's X-RateLimit-* headers: 30 per window, never refused", async (context) => {
    const { expect } = context;
    const server = closedAfter(
      await startLinksServer({ token: env.LINKS_TOKEN, rateLimit: { windowMs: 1000 } }),
      context,
    );
    const run = runContracts(
      // No request budget: the run must be long enough to wait for new windows.
      [
        "conform",
        "links",
        "--base-url",
        server.url,
        "--max-examples",
        "6",
        "--rate-limit",
        "1000/s",
        "--seed",
        "3",
        "--max-requests",
        "none",
      ],
      env,
    );
    expect(await run.exit, run.stderr()).toBe(0);
    expect(server.log.length).toBeGreaterThan(60); // enough requests that the runner had to wait for new windows
    expect(server.busiestWindow).toBeLessThanOrEqual(30);
    expect(server.refused).toBe(0);
  });

  it("keeps to --rate-limit in any sliding window", async (context) => {
    const { expect } = context;
    const server = closedAfter(
      await startLinksServer({ token: env.LINKS_TOKEN, rateLimit: { windowMs: 1000 } }),
      context,
    );
    const run = runContracts(
      [
        "conform",
        "links",
        "--base-url",
        server.url,
        "--operation",
        "listDomains",
        "--max-examples",
        "12",
        "--rate-limit",
        "10/s",
      ],
      env,
    );
    expect(await run.exit, run.stderr()).toBe(0);
    expect(server.log.length).toBeGreaterThan(20);
    expect(busiest(server, 1000)).toBeLessThanOrEqual(10);
  });

  it("keeps to the contract's 30 requests per minute when no --rate-limit is given", async (context) => {
    const { expect } = context;
    const server = closedAfter(
      await startLinksServer({ token: env.LINKS_TOKEN, rateLimit: { windowMs: 1000 } }),
      context,
    );
    const run = runContracts(["conform", "links", "--base-url", server.url, "--max-examples", "10"], env);
    await until(() => server.log.length >= 30);
    await new Promise((r) => setTimeout(r, 1500));
    expect(server.log.length).toBe(30); // the 31st waits for the minute to pass
    run.child.kill("SIGINT");
    expect(await run.exit).toBe(130);
    expect(run.stderr()).toMatch(/interrupted after 30 requests/);
  });
});

describe("--rate-limit (conform and sandbox)", () => {
  it.each<[string, { limit: number; windowSeconds: number } | undefined]>([
    ["30", { limit: 30, windowSeconds: 60 }],
    ["30/m", { limit: 30, windowSeconds: 60 }],
    ["30/min", { limit: 30, windowSeconds: 60 }],
    ["30 / minute", { limit: 30, windowSeconds: 60 }],
    ["5/s", { limit: 5, windowSeconds: 1 }],
    ["5/sec", { limit: 5, windowSeconds: 1 }],
    ["900/hour", { limit: 900, windowSeconds: 3600 }],
    ["0/m", undefined],
    ["0", undefined],
    ["30/", undefined],
    ["30/day", undefined],
    ["30/mins", undefined],
    ["1.5", undefined],
    ["fast", undefined],
  ])("reads %j", (text, expected) => {
    expect(parseRequestRate(text)).toEqual(expected);
  });
});

describe.concurrent("cleanup", () => {
  it("deletes everything it created when interrupted with Ctrl-C, and lists it in the report", async (context) => {
    const { expect } = context;
    const server = closedAfter(
      await startLinksServer({ token: env.LINKS_TOKEN, rateLimit: { windowMs: 1000 } }),
      context,
    );
    const seeded = {
      domains: server.state.domains.length,
      campaigns: server.state.campaigns.length,
      channels: server.state.channels.length,
    };
    const json = join(dir, "interrupted.json");
    const run = runContracts(
      [
        "conform",
        "links",
        "--base-url",
        server.url,
        "--allow-writes",
        "--max-examples",
        "40",
        "--rate-limit",
        "1000/s",
        "--operation",
        "addDomain",
        "--operation",
        "addCampaign",
        "--json",
        json,
      ],
      env,
    );
    await until(() => server.state.domains.length >= seeded.domains + 3);
    run.child.kill("SIGINT");
    expect(await run.exit).toBe(130);
    expect(server.state.domains.length).toBe(seeded.domains);
    expect(server.state.campaigns.length).toBe(seeded.campaigns);
    expect(server.state.channels.length).toBe(seeded.channels);
    const report = JSON.parse(readFileSync(json, "utf8")) as RunReport;
    expect(report.interrupted).toBe(true);
    expect(report.resources.length).toBeGreaterThanOrEqual(3);
    expect(report.resources.every((r) => r.state === "deleted")).toBe(true);
    expect(run.stdout()).toMatch(/Resources created by this run:\n {2}✓ deleted {2}domain \d+/);
  });
});

describe.concurrent("writes the run cannot undo", () => {
  const run = (args: string[]) =>
    conformInProcess([...args, "--allow-writes", "--rate-limit", "1000/s", "--seed", "3"], env);

  it("--max-writes bounds every valid creation of a product, the idempotency sequence's included", async (context) => {
    const { expect } = context;
    const server = closedAfter(
      await startCatalogServer({ apiKey: env.CATALOG_API_KEY, readApiKey: env.CATALOG_READ_API_KEY }),
      context,
    );
    const two = await run(["catalog", "--base-url", server.url, "--max-examples", "5", "--max-writes", "2"]);
    expect(two.code, two.output).toBe(0);
    expect(server.products.size).toBe(2); // one valid case, one kept for the sequence
    expect(two.report.resources.map((r) => r.state)).toEqual(["left behind", "left behind"]);
    expect(two.report.checks.find((c) => c.name === "idempotency")).toMatchObject({ passed: 1, failed: 0 });

    const none = await run(["catalog", "--base-url", server.url, "--max-examples", "5", "--max-writes", "0"]);
    expect(none.code, none.output).toBe(1); // fail closed: the sequence's checks apply but could not run
    expect(server.products.size).toBe(2);
    expect(none.report.resources).toEqual([]);
    expect(none.report.checks.find((c) => c.name === "idempotency")?.couldNotRun).toMatch(
      /--max-writes 0 leaves no creation for this sequence/,
    );
  });

  it(
    "--max-writes also bounds the orders a lenient gateway creates " + "from invalid data or without credentials",
    async (context) => {
      const { expect } = context;
      // The independent gateway accepts any body with a valid signature, shop and nonce, as a lenient provider may.
      const server = closedAfter(
        await startOraclePayServer({ shopId: env.PAY_SHOP_ID, secret: env.PAY_SECRET }),
        context,
      );
      const none = await run(["pay", "--base-url", server.url, "--max-examples", "6", "--max-writes", "0"]);
      expect(server.orders, none.output).toHaveLength(0);
      expect(none.report.skippedOperations.find((s) => s.operationId === "createOrder")?.reason).toMatch(
        /^invalid data not sent: .*; valid data not sent/,
      );
      const two = await run(["pay", "--base-url", server.url, "--max-examples", "6", "--max-writes", "2"]);
      expect(server.orders.length, two.output).toBeLessThanOrEqual(2);
      expect(two.report.resources.filter((r) => r.state === "left behind")).toHaveLength(server.orders.length);
    },
  );

  it("--max-writes 0 creates no pay order, and says which checks could not run", async (context) => {
    const { expect } = context;
    const server = closedAfter(await startPayServer({ shopId: env.PAY_SHOP_ID, secret: env.PAY_SECRET }), context);
    const seeded = server.orders.length;
    const none = await run(["pay", "--base-url", server.url, "--max-examples", "3", "--max-writes", "0"]);
    expect(none.code, none.output).toBe(1);
    expect(server.orders.length).toBe(seeded);
    expect(none.report.checks.find((c) => c.name === "created_values_echoed")?.couldNotRun).toMatch(
      /--max-writes 0 leaves no creation for this sequence/,
    );
  });
});
