// The runner's waits for a server's rate-limit window end: a reset sent in Unix milliseconds is read as such (it was
// read as seconds, a wait of millennia that setTimeout cut to 1 ms: a busy loop writing TimeoutOverflowWarning), a
// reset far ahead is waited for one contract window at most, and SIGTERM ends any wait with the report written.
import { mkdtempSync, readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, type TestContext } from "vitest";
import { FAULT_SERVER_CREDENTIALS } from "../../conformance/fault-servers/credentials.js";
import { type LinksFault, startLinksServer } from "../../conformance/fault-servers/links.js";
import type { RunReport } from "../../conformance/report/report.js";
import type { CheckNote } from "../../conformance/judge/assumptions.js";
import { RateLimitConsistency } from "../../conformance/judge/rate-limit-consistency.js";
import { Transport } from "../../conformance/send/transport.js";
import { type Exchange } from "../../conformance/model/exchange.js";
import { RATE_LIMIT_HEADERS, RateLimiter } from "../../lib/rate-limit.js";
import { runContracts } from "../support/processes.js";

const dir = mkdtempSync(join(tmpdir(), "conform-waits-"));
const env = { ...FAULT_SERVER_CREDENTIALS };

async function linksServer(fault: LinksFault, { onTestFinished }: TestContext) {
  const server = await startLinksServer({ token: env.LINKS_TOKEN, rateLimit: { windowMs: 10_000 }, fault });
  onTestFinished(() => server.close());
  return server;
}

/** getAccount often enough that the 30 requests of a window are used up. */
function conformMany(url: string, json: string, { onTestFinished }: TestContext) {
  const run = runContracts(
    [
      "conform",
      "links",
      "--base-url",
      url,
      "--operation",
      "getAccount",
      "--max-examples",
      "40",
      "--rate-limit",
      "1000/s",
      "--seed",
      "3",
      "--json",
      json,
    ],
    env,
  );
  onTestFinished(() => void (run.child.exitCode === null && run.child.kill("SIGKILL"))); // a run that hung
  return run;
}

describe("RateLimiter", () => {
  it("reads a reset in Unix milliseconds as milliseconds, and caps a reset beyond maxResetMs", async () => {
    const now = 1_750_000_000_000;
    const waits: number[] = [];
    for (const [reset, maxResetMs] of [
      [now + 2000, undefined],
      [now / 1000 + 86_400, 60_000],
    ] as const) {
      const limiter = new RateLimiter({
        now: () => now,
        resetMarginMs: 0,
        maxResetMs,
        onRateLimit: (wait) => (waits.push(wait.waitMs), false),
      });
      const headers = {
        get: (name: string) =>
          ({ "x-ratelimit-limit": "30", "x-ratelimit-remaining": "0", "x-ratelimit-reset": String(reset) })[
            name.toLowerCase()
          ] ?? null,
      };
      await limiter.schedule(() => Promise.resolve({ headers }));
      await expect(limiter.schedule(() => Promise.resolve({ headers }))).rejects.toThrow(/rate limit/);
    }
    expect(waits).toEqual([2000, 60_000]);
  });
});

describe("RateLimitConsistency", () => {
  it("judges a reset in Unix milliseconds in that unit: the contract's assumed unit broken, a warning, a failure under --strict", () => {
    const receivedAt = 1_750_000_000_000;
    const exchange = {
      request: { method: "GET", url: "http://127.0.0.1:1/api/account", headers: { Authorization: "Bearer x" } },
      response: {
        status: 200,
        headers: {
          "x-ratelimit-limit": "30",
          "x-ratelimit-remaining": "29",
          "x-ratelimit-reset": String(receivedAt + 30_000),
        },
        text: "",
        json: undefined,
        isJson: false,
        setCookies: [],
      },
      durationMs: 1,
      receivedAt,
    } as Exchange;
    const consistency = () =>
      new RateLimitConsistency(
        { limit: 30, windowSeconds: 60, headers: RATE_LIMIT_HEADERS },
        "Unix seconds is our reading.",
      );
    const notes: CheckNote[] = [];
    expect(consistency().observe(exchange, { note: (n) => notes.push(n) })).toBe("");
    expect(notes).toEqual([
      {
        kind: "warning",
        message: `X-RateLimit-Reset ${receivedAt + 30_000} reads as Unix milliseconds, not Unix seconds`,
        assumption: "Unix seconds is our reading.",
      },
    ]);
    expect(consistency().observe(exchange, { strict: true })).toMatch(
      /reads as Unix milliseconds, not Unix seconds \(x-assumption, failing under --strict: Unix seconds is our reading\.\)$/,
    );
  });
});

describe("RateLimitConsistency: a reset in the past", () => {
  const sentAt = 1_750_000_000_000;
  const answered = (reset: number, durationMs: number) =>
    ({
      request: { method: "GET", url: "http://127.0.0.1:1/api/account", headers: { Authorization: "Bearer x" } },
      response: {
        status: 200,
        headers: { "x-ratelimit-limit": "30", "x-ratelimit-remaining": "29", "x-ratelimit-reset": String(reset) },
        text: "",
        json: undefined,
        isJson: false,
        setCookies: [],
      },
      durationMs,
      receivedAt: sentAt + durationMs,
    }) as Exchange;
  const consistency = () => new RateLimitConsistency({ limit: 30, windowSeconds: 1, headers: RATE_LIMIT_HEADERS });

  it("is judged from when the request was sent: an answer 3 s on its way may arrive after the reset it announced", () => {
    expect(consistency().observe(answered(sentAt / 1000 + 1, 3000))).toBe("");
  });

  it("fails when the reset had passed before the request was sent", () => {
    expect(consistency().observe(answered(sentAt / 1000 - 3, 10))).toBe(
      `X-RateLimit-Reset ${sentAt / 1000 - 3} is in the past (the request was sent at ${sentAt / 1000})`,
    );
  });
});

describe("Transport", () => {
  it("--timeout counts from when the request is sent, not from before the wait for the server's window", async ({
    onTestFinished,
  }) => {
    // Every answer says the window is used up (another client shares it) until the next second or the one after.
    const server = createServer((_request, response) => {
      response.writeHead(200, {
        "Content-Type": "application/json",
        "X-RateLimit-Limit": "30",
        "X-RateLimit-Remaining": "0",
        "X-RateLimit-Reset": String(Math.ceil(Date.now() / 1000) + 1),
      });
      response.end("{}");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    onTestFinished(() => void server.close());
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    const transport = new Transport({ timeoutMs: 500 });
    expect((await transport.send({ method: "GET", url, headers: {} })).response?.status).toBe(200);
    const started = Date.now();
    const second = await transport.send({ method: "GET", url, headers: {} });
    expect(Date.now() - started).toBeGreaterThan(900); // it did wait for the reset, longer than the timeout
    expect(second.error).toBeUndefined();
    expect(second.response?.status).toBe(200);
    expect(second.durationMs).toBeLessThan(500);
  });
});

describe.concurrent("waits for the server's window", () => {
  it("a reset in Unix milliseconds: the run waits for the real reset and ends", async (context) => {
    const server = await linksServer("reset-in-milliseconds", context);
    const json = join(dir, "ms.json");
    const run = conformMany(server.url, json, context);
    const code = await run.exit;
    expect(run.stderr()).not.toContain("TimeoutOverflowWarning");
    expect(server.log.length, run.stderr()).toBeGreaterThan(30);
    expect(server.refused).toBe(0);
    const report = JSON.parse(readFileSync(json, "utf8")) as RunReport;
    // Unix seconds is the contract's assumption (the seeds say "timestamp"): another unit is a warning, and the
    // window is judged in the server's own unit, in which it is consistent.
    expect(report.failures.map((f) => f.check)).not.toContain("rate_limit_headers_consistent");
    expect(report.warnings.find((w) => w.check === "rate_limit_headers_consistent")?.message).toMatch(
      /^X-RateLimit-Reset \d+ reads as Unix milliseconds, not Unix seconds$/,
    );
    expect(code, run.stdout()).toBe(0);
  }, 60_000);

  it("SIGTERM during a wait for a reset a day ahead ends the run at once, with its report", async (context) => {
    const server = await linksServer("reset-a-day-ahead", context);
    const json = join(dir, "term.json");
    const run = conformMany(server.url, json, context);
    // Remaining reached 0: the runner now waits (a contract window at most, 60 s).
    while (server.busiestWindow < 30 && run.child.exitCode === null) await new Promise((r) => setTimeout(r, 50));
    expect(server.busiestWindow, `the run ended before it used up the window:\n${run.stderr()}`).toBeGreaterThanOrEqual(
      30,
    );
    await new Promise((r) => setTimeout(r, 500));
    const sentAt = Date.now();
    run.child.kill("SIGTERM");
    expect(await run.exit, run.stderr()).toBe(130);
    expect(Date.now() - sentAt).toBeLessThan(10_000);
    expect((JSON.parse(readFileSync(json, "utf8")) as RunReport).interrupted).toBe(true);
  }, 60_000);
});
