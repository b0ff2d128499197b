// Wrong credentials in real traffic: a mistyped links key, the sandbox's expired links key, an unknown catalog key, a
// pay body signed for a shop that does not exist, next to good traffic, through the judging proxy in front of the
// sandbox. The sandbox refuses the wrong ones, as the seeds say it may, so the traffic must pass, with the API's
// credentials configured and without them; and a deployment that refuses the configured key is still caught.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Credentials } from "../../conformance/apis.js";
import { startCatalogServer } from "../../conformance/fault-servers/catalog.js";
import { startJudgingProxy } from "../../conformance/proxy/judging.js";
import { judgedTraffic } from "./support/judged.js";
import { jsonReport, type RunReport } from "../../conformance/report/report.js";
import { runConformCommand } from "../../conformance/conform-command.js";
import type { ApiName } from "../../lib/contract/index.js";
import { hmacSha256Signer } from "../../lib/pay-signature.js";
import { startTestSandbox, type TestSandbox } from "../sandbox/support/sandbox.js";

let sandbox: TestSandbox;
beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterAll(() => sandbox.stop());

const GOOD = { links: "demo-links-key", catalog: "demo-seller-key", pay: "3561" };
const WRONG_LINKS = ["demo-links-kye", "expired-links-key"];

async function send(url: string, init: RequestInit): Promise<number> {
  const response = await fetch(url, init);
  await response.arrayBuffer();
  return response.status;
}

const linksAccount = (base: string, key: string) =>
  send(`${base}/api/account`, { headers: { Authorization: `Bearer ${key}` } });
const catalogMe = (base: string, key: string) =>
  send(`${base}/admin/seller-api/me`, { headers: { "x-seller-api-key": key } });
let nonce = Date.now();
async function payBalance(base: string, shopId: string, secret: string): Promise<number> {
  const body = JSON.stringify({ shop_id: shopId, nonce: ++nonce });
  const authorization = await hmacSha256Signer(secret)(new TextEncoder().encode(body));
  return send(`${base}/api/balance/`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Authorization: authorization },
    body,
  });
}

/** Wrong credentials first (before any good one was seen), then good traffic, then a wrong one again. */
const TRAFFIC: Record<"links" | "catalog" | "pay", (base: string) => Promise<unknown>> = {
  links: async (base) => {
    for (const key of WRONG_LINKS) await linksAccount(base, key);
    await linksAccount(base, GOOD.links);
    await linksAccount(base, WRONG_LINKS[0]!);
  },
  catalog: async (base) => {
    await catalogMe(base, "demo-seller-kee");
    await catalogMe(base, GOOD.catalog);
    await catalogMe(base, "revoked-seller-key");
  },
  pay: async (base) => {
    await payBalance(base, "9999", "demo-pay-key");
    await payBalance(base, GOOD.pay, "demo-pay-key");
  },
};

async function throughProxy(
  api: ApiName,
  credentials: Credentials | undefined,
  traffic: (base: string) => Promise<unknown>,
): Promise<{ report: RunReport; lines: string[]; json: string }> {
  const { report, lines, redact } = await judgedTraffic(api, sandbox.urls[api], traffic, credentials);
  return { report, lines, json: jsonReport(report, redact) };
}

const acceptance = (report: RunReport) => report.checks.find((c) => c.name === "positive_data_acceptance")!;
const CONFIGURED: Record<"links" | "catalog" | "pay", Credentials> = {
  links: { token: GOOD.links },
  catalog: { apiKey: GOOD.catalog, readApiKey: "demo-seller-read-key" },
  pay: { shopId: GOOD.pay, secret: "demo-pay-key" },
};

describe("wrong credentials in recorded traffic", () => {
  it.each(["links", "catalog", "pay"] as const)(
    "%s: refused wrong credentials next to good traffic pass, with and without the credentials configured",
    async (api) => {
      for (const credentials of [CONFIGURED[api], undefined]) {
        const { report, lines } = await throughProxy(api, credentials, TRAFFIC[api]);
        expect(report.failures, lines.join("\n")).toEqual([]);
        expect(acceptance(report)).toEqual(expect.objectContaining({ passed: 1, failed: 0 }));
        expect(report.passive!.judged).toBe(report.exchanges!.length);
        const shown = JSON.stringify(report);
        for (const secret of ["demo-links-kye", "demo-seller-kee", "revoked-seller-key", GOOD.links, GOOD.catalog])
          expect(shown).not.toContain(secret);
      }
    },
  );

  it("links: the proxy's report judged again with --from-json passes, with LINKS_TOKEN and without", async () => {
    const dir = mkdtempSync(join(tmpdir(), "passive-credentials-"));
    try {
      for (const env of [{ LINKS_TOKEN: GOOD.links }, {}]) {
        const { json } = await throughProxy("links", env.LINKS_TOKEN ? CONFIGURED.links : undefined, TRAFFIC.links);
        writeFileSync(join(dir, "proxy.json"), json);
        const printed: string[] = [];
        const io = { out: (t: string) => printed.push(t), err: (t: string) => printed.push(t), tty: false };
        const args = ["links", "--from-json", join(dir, "proxy.json"), "--json", join(dir, "again.json")];
        expect(await runConformCommand(args, env, { ...io, signals: false }), printed.join("")).toBe(0);
        const again = JSON.parse(readFileSync(join(dir, "again.json"), "utf8")) as RunReport;
        expect(acceptance(again)).toEqual(expect.objectContaining({ passed: 1, failed: 0 }));
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("a deployment that refuses the configured key fails positive_data_acceptance", async () => {
    // The sandbox's expired key stands for a good key the deployment wrongly refuses.
    const { report } = await throughProxy("links", { token: "expired-links-key" }, (base) =>
      linksAccount(base, "expired-links-key"),
    );
    expect([...new Set(report.failures.map((f) => f.check))]).toEqual(["positive_data_acceptance"]);
  });

  it("without configured credentials, a key refused after the deployment accepted it fails", async () => {
    // The deployment (a catalog server written here) accepts the key, then restarts knowing another one.
    let server = await startCatalogServer({ apiKey: GOOD.catalog });
    const port = Number(new URL(server.url).port);
    const lines: string[] = [];
    const proxy = await startJudgingProxy({
      api: "catalog",
      target: new URL(server.url),
      host: "127.0.0.1",
      port: 0,
      maxBodyBytes: 1024 * 1024,
      onLine: (line) => lines.push(line),
    });
    let report: RunReport;
    try {
      expect(await catalogMe(proxy.url, GOOD.catalog)).toBe(200);
      await server.close();
      server = await startCatalogServer({ apiKey: "another-seller-key", port });
      expect(await catalogMe(proxy.url, GOOD.catalog)).toBe(401);
    } finally {
      report = await proxy.stop(1000);
      await server.close();
    }
    expect([...new Set(report.failures.map((f) => f.check))], lines.join("\n")).toEqual(["positive_data_acceptance"]);
  });

  it("when no credential was ever accepted, positive_data_acceptance says so and does not pass", async () => {
    for (const credentials of [{ token: GOOD.links }, undefined]) {
      const { report } = await throughProxy("links", credentials, async (base) => {
        for (const key of WRONG_LINKS) await linksAccount(base, key);
      });
      expect(report.failures).toEqual([]);
      const check = acceptance(report);
      expect(check.passed + check.failed).toBe(0);
      expect(check.skipped).toMatch(
        credentials
          ? /no recorded request the contract allows carried the configured credential/
          : /no recorded request the contract allows carried a credential the provider accepted/,
      );
    }
  });
});
