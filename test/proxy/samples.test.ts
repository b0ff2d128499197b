// Our clients' samples through `contracts proxy`: the reference's TypeScript samples of links, catalog and pay (the
// generated clients over fetch, as a reader runs them) run once straight against a fresh sandbox and once through
// the real CLI, one proxy per API, in front of another fresh sandbox. What the samples print and every response
// they get (status, headers, body bytes) are the same both ways, and each proxy's JSON report lists every exchange.
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ApiName } from "../../lib/contract/index.js";
import { runContracts, type RunningCommand } from "../support/processes.js";
import { startTestSandbox, type TestSandbox } from "../sandbox/support/sandbox.js";
import { clientSamples, type RecordedCall, runSamples, type SamplesRun } from "./support/samples.js";

const APIS = ["links", "catalog", "pay"] as const satisfies ApiName[];
const directory = mkdtempSync(join(tmpdir(), "proxy-reports-"));
const samples = APIS.flatMap((api) => clientSamples(api));
let direct: TestSandbox;
let behind: TestSandbox;
const proxies = new Map<ApiName, { command: RunningCommand; url: string }>();

beforeAll(async () => {
  [direct, behind] = await Promise.all([startTestSandbox(), startTestSandbox()]);
  await Promise.all(
    APIS.map(async (api) => {
      const command = runContracts([
        "proxy",
        api,
        "--target",
        behind.urls[api],
        "--port",
        "0",
        "--json",
        join(directory, `${api}.json`),
      ]);
      const banner = await command.waitForOutput(/at (http:\/\/127\.0\.0\.1:\d+)/);
      proxies.set(api, { command, url: /at (http:\/\/127\.0\.0\.1:\d+)/.exec(banner)![1]! });
    }),
  );
});

afterAll(async () => {
  for (const { command } of proxies.values()) if (command.child.exitCode === null) command.child.kill("SIGKILL");
  await Promise.all([direct?.stop(), behind?.stop()]);
});

/**
 * A call as compared: what may differ between two runs a second apart (the clock, the fields of one connection) left
 * out, and the sandbox's own address (two sandboxes, two ports: createOrder's payment link names it) made one word.
 */
function comparable(call: RecordedCall, sandbox: TestSandbox) {
  const headers = { ...call.headers };
  for (const name of ["date", "x-ratelimit-reset", "connection", "keep-alive"]) delete headers[name];
  const url = new URL(call.url);
  const body = unaddressed(Buffer.from(call.body, "base64").toString("latin1"), sandbox);
  return { method: call.method, path: `${url.pathname}${url.search}`, status: call.status, headers, body };
}

function unaddressed(text: string, sandbox: TestSandbox): string {
  return Object.values(sandbox.urls).reduce((out, url) => out.replaceAll(url, "<sandbox>"), text);
}

describe("client samples through contracts proxy", () => {
  let straight: SamplesRun;
  let proxied: SamplesRun;

  it("print the same and get byte-identical responses through the proxy as straight from the sandbox", async () => {
    expect(samples.length).toBeGreaterThanOrEqual(20);
    straight = await runSamples(samples, direct.urls);
    proxied = await runSamples(samples, Object.fromEntries(APIS.map((api) => [api, proxies.get(api)!.url])));
    // The samples did reach the sandbox: their calls succeeded, and they printed what they got.
    // (catalog's issueGoods sample is the seller's side of the webhook: it calls nothing.)
    expect(straight.calls.length).toBe(samples.length - 1);
    expect(straight.calls.every((call) => call.status === 200 || call.status === 201)).toBe(true);
    expect(straight.printed.filter((text) => text.length > 0 && !text.startsWith("threw:"))).toHaveLength(
      samples.length - 1,
    );

    expect(proxied.printed.map((text) => unaddressed(text, behind))).toEqual(
      straight.printed.map((text) => unaddressed(text, direct)),
    );
    expect(proxied.calls.map((call) => comparable(call, behind))).toEqual(
      straight.calls.map((call) => comparable(call, direct)),
    );
  });

  it("each proxy writes its report on SIGTERM, listing every exchange of its API", async () => {
    for (const api of APIS) {
      const { command, url } = proxies.get(api)!;
      command.child.kill("SIGTERM");
      const code = await command.exit;
      const report = JSON.parse(readFileSync(join(directory, `${api}.json`), "utf8"));
      const calls = proxied.calls.filter((call) => call.url.startsWith(url));
      expect(calls.length, api).toBeGreaterThan(0);
      expect(report.passive.entries, api).toBe(calls.length);
      const listed = [
        ...report.exchanges.map(
          (e: any) => `${e.request.method} ${new URL(e.request.url).pathname}${new URL(e.request.url).search}`,
        ),
        ...report.passive.gaps.map((g: any) => `${g.method} ${new URL(g.url).pathname}${new URL(g.url).search}`),
      ];
      expect(listed.sort(), api).toEqual(
        calls.map((c) => `${c.method} ${new URL(c.url).pathname}${new URL(c.url).search}`).sort(),
      );
      // The sandbox keeps its contract: a clean recording passes.
      expect(report.failures, `${api}: ${command.stderr()}`).toEqual([]);
      expect(code, api).toBe(0);
    }
  });
});
