// The sandbox keeps the contract: `contracts conform` of each API against it, read-only and with --allow-writes,
// reports no observation that comes from the sandbox's own additions (a field the schema does not have, a header
// the response does not document) and no failure. Undocumented statuses stay observations: they show where the
// contract is silent (errors under `default`), not something the sandbox adds. The links sandbox runs at the
// contract's cap in one-second windows (`--rate-limit 30/s`, the guides' fast path), so its runs take seconds.
// The assertion is shown to catch what it looks for: with the contract's catalog error field taken out for one run,
// the same run reports the sandbox's `error` as an extra field.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunReport } from "../../conformance/report/report.js";
import type { ApiName } from "../../lib/contract/index.js";
import { type RunningSandbox, startSandbox } from "../../mock/sandbox/server.js";
import { conformInProcess } from "../support/conform.js";

let sandbox: RunningSandbox;

beforeAll(async () => {
  sandbox = await startSandbox({
    ports: { identity: 0, links: 0, catalog: 0, pay: 0 },
    rateLimit: { limit: 30, windowSeconds: 1 },
  });
});

afterAll(() => sandbox?.stop());

/** The sandbox's demo credentials (contracts sandbox --print-config), as each API's options. */
const credentials: Record<ApiName, string[]> = {
  identity: [
    "--client-id",
    "demo-app",
    "--client-secret",
    "demo-app-secret",
    "--redirect-uri",
    "http://127.0.0.1:5173/callback",
    "--sign-in",
    "login=alice.novak@example.org",
    "--sign-in",
    "password=alice-demo",
  ],
  links: ["--token", "demo-links-key", "--rate-limit", "30/s"],
  catalog: ["--api-key", "demo-seller-key", "--read-only-api-key", "demo-seller-read-key"],
  pay: ["--shop-id", "3561", "--secret", "demo-pay-key"],
};

const SANDBOX_OWN = ["extra-field", "undocumented-header"];
const ownAdditions = (report: RunReport) => report.observations.filter((o) => SANDBOX_OWN.includes(o.kind));

function conform(api: ApiName, more: string[], patches: Parameters<typeof conformInProcess>[2] = []) {
  const args = [api, "--base-url", sandbox.urls[api], ...credentials[api], "--seed", "36", "--max-examples", "3"];
  return conformInProcess([...args, ...more], {}, patches);
}

describe.each(["identity", "links", "catalog", "pay"] as const)("conform %s against the sandbox", (api) => {
  it.each([
    ["read-only", []],
    ["with --allow-writes", ["--allow-writes"]],
  ])(
    "%s: no failure, and no field or header of the sandbox's own",
    async (_mode, more) => {
      const { report, output } = await conform(api, more);
      expect(report.requests, output).toBeGreaterThan(10);
      expect(ownAdditions(report), output).toEqual([]);
      expect(report.failures, output).toEqual([]);
    },
    120_000,
  );
});

it("the same run reports an error field the contract does not document as the sandbox's own", async () => {
  const withoutErrorField = [
    { api: "catalog" as const, pointer: "/components/schemas/ErrorBody", key: "properties", value: undefined },
  ];
  const { report, output } = await conform("catalog", [], withoutErrorField);
  expect(ownAdditions(report), output).toEqual([expect.objectContaining({ kind: "extra-field", subject: "/error" })]);
}, 120_000);
