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
  // identity: the OpenID Connect flow checks' deliberate probes (an unregistered redirect_uri, a token used after its
  // code was replayed) are recorded as expected nothing in particular, so they are judged by their shape only.
  identity: {
    IDENTITY_CLIENT_ID: "demo-app",
    IDENTITY_CLIENT_SECRET: "demo-app-secret",
    IDENTITY_REDIRECT_URI: "http://127.0.0.1:5173/callback",
    IDENTITY_SIGN_IN: "login=alice.novak@example.org&password=alice-demo",
    IDENTITY_POST_LOGOUT_REDIRECT_URI: "http://127.0.0.1:5173/",
  },
} as const;

describe("an active run's JSON report, judged again with --from-json", () => {
  it.each(["pay", "catalog", "identity"] as const)(
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
      const probes = active.report.exchanges!.filter((e) => e.expectation === "unauthenticated");
      expect(probes.length).toBeGreaterThan(0);
      if (api === "catalog")
        expect(active.report.exchanges!.filter((e) => e.expectation === "any").length).toBeGreaterThan(0);
      const again = await conformInProcess([api, "--from-json", active.files.json], env);
      expect(again.code, again.output).toBe(0);
      expect(again.report.failures).toEqual([]);
      expect(again.report.passive!.judged).toBeGreaterThan(0);
      // The probes with made-up credentials are judged again as such: ignored_auth passed on them.
      expect(again.report.checks.find((c) => c.name === "ignored_auth")!.passed).toBeGreaterThanOrEqual(probes.length);
      const text = readFileSync(again.files.json, "utf8") + readFileSync(active.files.json, "utf8");
      const secrets = Object.entries(env).filter(([name]) => /SECRET|KEY|SIGN_IN/.test(name));
      for (const [, value] of secrets)
        for (const secret of value.split(/[&=]/).filter((part) => part.length > 8 && !part.includes("@")))
          expect(text).not.toContain(secret);
    },
    120_000,
  );
});
