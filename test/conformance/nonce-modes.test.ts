// --nonce: a conformance run must never lock the shop's own client out of a production gateway. A gateway that
// requires increasing nonces refuses every nonce not above the highest it has seen; the default, `seconds`, is never
// ahead of the wall clock in whole seconds, so a client that counts in seconds keeps being accepted after the run.
// The real CLI against the independent pay oracle (conformance/oracle/pay.ts) with increasing nonces required.
import { createHmac } from "node:crypto";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { FAULT_SERVER_CREDENTIALS as C } from "../../conformance/fault-servers/credentials.js";
import type { RunningServer } from "../../conformance/fault-servers/http.js";
import { startOraclePayServer } from "../../conformance/oracle/pay.js";
import type { RunReport } from "../../conformance/report/report.js";
import { clockNonceSource, parseNonceMode, runNonceSource, shellNonce } from "../../conformance/send/nonces.js";
import { runContracts } from "../support/processes.js";

const dir = mkdtempSync(join(tmpdir(), "nonce-modes-"));
let servers: RunningServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});

describe("nonce sources", () => {
  it("seconds: the current Unix second, strictly increasing, waiting for the next second, never ahead of the clock", async () => {
    let now = 1_764_000_000_250; // ms
    const waits: number[] = [];
    const source = clockNonceSource(
      1000,
      () => now,
      (ms) => {
        waits.push(ms);
        now += ms;
        return Promise.resolve();
      },
    );
    const nonces: number[] = [];
    for (let i = 0; i < 4; i++) {
      const nonce = await source.next();
      expect(nonce).toBeLessThanOrEqual(Math.floor(now / 1000)); // never ahead of the clock
      nonces.push(nonce);
      now += 100;
    }
    expect(nonces).toEqual([1_764_000_000, 1_764_000_001, 1_764_000_002, 1_764_000_003]);
    expect(waits.length).toBe(3); // each later nonce waited for its second
  });

  it("serves concurrent calls one at a time, each distinct and increasing", async () => {
    const source = runNonceSource({ unit: "milliseconds" });
    const nonces = await Promise.all(Array.from({ length: 20 }, () => source.next()));
    expect(nonces).toEqual([...nonces].sort((a, b) => a - b));
    expect(new Set(nonces).size).toBe(20);
    expect(nonces.at(-1)!).toBeLessThanOrEqual(Date.now());
  });

  it("parses --nonce, seconds by default, and says which shell clock a reproduction takes", async () => {
    expect(parseNonceMode(undefined)).toEqual({ unit: "seconds" });
    expect(parseNonceMode("microseconds")).toEqual({ unit: "microseconds" });
    expect(parseNonceMode("counter:42")).toEqual({ counter: 42 });
    expect(() => parseNonceMode("counter:")).toThrow(/--nonce takes seconds, milliseconds, microseconds/);
    expect(() => parseNonceMode("minutes")).toThrow(/got "minutes"/);
    const counter = runNonceSource({ counter: 42 });
    expect([await counter.next(), await counter.next()]).toEqual([42, 43]);
    expect(shellNonce({ unit: "seconds" })).toBe("$(date +%s)");
    expect(shellNonce({ unit: "microseconds" })).toBe("$(date +%s%6N)");
  });
});

/** The shop's own client: counts in seconds, one request a second at most, signed with the shop's secret. */
async function shopClientBalance(url: string): Promise<{ type: string; desc: string }> {
  await new Promise((resolve) => setTimeout(resolve, 1000 - (Date.now() % 1000) + 5)); // its next second
  const body = JSON.stringify({ shop_id: C.PAY_SHOP_ID, nonce: Math.floor(Date.now() / 1000) });
  const signature = createHmac("sha256", C.PAY_SECRET).update(body).digest("hex");
  const response = await fetch(`${url}/api/balance/`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${signature}` },
    body,
  });
  return (await response.json()) as { type: string; desc: string };
}

async function conformPay(url: string, ...more: string[]) {
  const json = join(dir, `${Math.random().toString(36).slice(2)}.json`);
  const args = ["conform", "pay", "--base-url", url, "--operation", "getBalance", "--max-examples", "1"];
  const run = runContracts([...args, "--seed", "7", "--json", json, ...more], C);
  const code = await run.exit;
  return {
    code,
    report: JSON.parse(readFileSync(json, "utf8")) as RunReport,
    output: `${run.stdout()}${run.stderr()}`,
  };
}

describe("a gateway that requires increasing nonces", () => {
  const gateway = async () => {
    const server = await startOraclePayServer({
      shopId: C.PAY_SHOP_ID,
      secret: C.PAY_SECRET,
      nonceOrder: "increasing",
    });
    servers.push(server);
    return server;
  };

  it("keeps accepting a client that counts in seconds after a run with the default nonces", async () => {
    const server = await gateway();
    const { code, report, output } = await conformPay(server.url);
    expect(report.failures, output).toEqual([]);
    expect(code).toBe(0);
    expect(report.nonce).toMatch(/^seconds \(the Unix time in seconds, strictly increasing/);
    expect(output).toMatch(/nonces seconds \(/);
    expect(report.checks.find((c) => c.name === "nonce_replay")!.passed).toBeGreaterThan(0);
    expect(await shopClientBalance(server.url)).toMatchObject({ type: "success" });
  });

  it("would lock that client out after a run with microseconds", async () => {
    const server = await gateway();
    const { code, report } = await conformPay(server.url, "--nonce", "microseconds");
    expect(code).toBe(0);
    expect(report.nonce).toMatch(/^microseconds/);
    expect(await shopClientBalance(server.url)).toMatchObject({
      type: "error",
      desc: "Nonce must be greater than the last one used",
    });
  });
});
