// --from-json on the report of an active run: every --json report records the exchanges its run judged (redacted),
// and judging them again passively reaches the same verdict. The runner's own probes are recorded as what they
// were: the requests with made-up credentials are expected to be refused, the nonce replays not to be accepted.
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestSandbox, type TestSandbox } from "../sandbox/support/sandbox.js";
import { conformInProcess } from "../support/conform.js";

let sandbox: TestSandbox;
beforeAll(async () => {
  sandbox = await startTestSandbox();
}, 60_000);
afterAll(() => sandbox?.stop());

const CREDENTIALS = {
  pay: { PAY_SHOP_ID: "3561", PAY_SECRET: "demo-pay-key" },
  catalog: { CATALOG_API_KEY: "demo-seller-key", CATALOG_READ_API_KEY: "demo-seller-read-key" },
} as const;

describe("an active run's JSON report, judged again with --from-json", () => {
  it.each(["pay", "catalog"] as const)(
    "%s: the same exchanges, the same verdict, no secret",
    async (api) => {
      const env = CREDENTIALS[api];
      const active = await conformInProcess(
        [
          api,
          "--base-url",
          sandbox.urls[api],
          "--max-examples",
          "3",
          "--seed",
          "7",
          "--rate-limit",
          "1000/s",
          // catalog: the writes with the narrower key (scope_enforcement) are refused, and must stay unjudged as valid.
          ...(api === "catalog" ? ["--allow-writes"] : []),
        ],
        env,
      );
      expect(active.code, active.output).toBe(0);
      expect(active.report.exchanges!.length).toBe(active.report.requests);
      const probes = active.report.exchanges!.filter((e) => e.request.credentials === "wrong");
      expect(probes.length).toBeGreaterThan(0);
      if (api === "catalog")
        expect(active.report.exchanges!.filter((e) => e.request.credentials === "read-only").length).toBeGreaterThan(0);
      const again = await conformInProcess([api, "--from-json", active.files.json], env);
      expect(again.code, again.output).toBe(0);
      expect(again.report.failures).toEqual([]);
      expect(again.report.passive!.judged).toBeGreaterThan(0);
      // The probes with made-up credentials are judged again as such: ignored_auth passed on them.
      expect(again.report.checks.find((c) => c.name === "ignored_auth")!.passed).toBeGreaterThanOrEqual(probes.length);
      const text = readFileSync(again.files.json, "utf8") + readFileSync(active.files.json, "utf8");
      for (const secret of Object.values(env)) if (secret.length > 4) expect(text).not.toContain(secret);
    },
    120_000,
  );
});
