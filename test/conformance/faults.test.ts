// Runs `contracts conform` against every fault server and asserts that exactly the check meant to catch the fault
// fails (exit code 1), and the real CLI against a correct server of each API that nothing fails (exit code 0).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { CHECK_LIST } from "../../conformance/model/check-registry.js";
import {
  type Fault,
  FAULT_SERVER_CREDENTIALS,
  FAULTS,
  faultRunArgs,
  ORACLES,
  startReferenceServer,
} from "../../conformance/fault-servers/faults.js";
import { IDENTITY_FAULT_CASES } from "../../conformance/fault-servers/identity-faults.js";
import { API_NAMES } from "../../lib/contract/index.js";
import { conformInProcess } from "../support/conform.js";
import { conformWithCli, failingChecks, noRandomProducts } from "../support/conform-cli.js";
import { repoRoot } from "../support/processes.js";

const servers: Array<{ close(): Promise<void> }> = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

// The servers announce 30 requests per one-second window; the contract's 30 per minute would make the links runs
// take minutes, so the budget is raised here and the runner follows the servers' X-RateLimit-* headers alone.
const conform = (args: string[]) => conformWithCli([...args, "--seed", "7", "--rate-limit", "1000/s"]);

describe("fault servers", () => {
  it("cover every check", () => {
    // The identity faults of the OpenID Foundation-level checks run in identity-faults.test.ts.
    expect(new Set([...FAULTS, ...IDENTITY_FAULT_CASES].map((f) => f.check))).toEqual(
      // The checks of recorded traffic only are proven on recordings (test/conformance/passive-*.test.ts).
      new Set(CHECK_LIST.filter((c) => !c.recordedOnly).map((c) => c.name)),
    );
  });

  it("every check is in the docs' table with what it catches and the section it enforces", () => {
    const page = readFileSync(join(repoRoot, "docs/guide/conform-reference.md"), "utf8")
      .replaceAll("&lt;", "<")
      .replaceAll("&gt;", ">");
    for (const check of CHECK_LIST)
      expect(page).toContain(
        `| \`${check.name}\` | ${check.apis ? check.apis.join(", ") : "all"}${check.writes ? " (writes)" : ""} | ${check.catches} | ${check.enforces} |`,
      );
  });

  // Each fault has its own server on a free port and runs `contracts conform` in this process (the correct servers
  // below run the CLI itself), so those runs go concurrently; a fault that needs contract words the specs do not
  // carry runs on the patched bundle, alone.
  const caught = async (fault: Fault) => {
    const server = await fault.start();
    servers.push(server);
    try {
      const args = faultRunArgs(fault, server.url);
      const { code, report, stdout, stderr } = await conformInProcess(
        args,
        { ...FAULT_SERVER_CREDENTIALS },
        fault.contract,
      );
      expect(failingChecks(report), `${stdout}\n${stderr}`).toEqual([fault.check]);
      expect(code).toBe(1);
      expect(stderr).toMatch(
        /^contracts conform: \d+ causes? of failure across \d+ operations? \(\d+ failing results?\) on /m,
      );
      const failure = report.failures.find((f) => f.check === fault.check)!;
      expect(failure.curl).toMatch(
        /^(BODY=.*\n)?(for attempt .*; do )?curl -sS -i -X [A-Z]+ "http:\/\/127\.0\.0\.1:\d+\//m,
      );
      // The console's block of the cause: the check, then the operations it failed on.
      const causeBlock = new RegExp(
        `^\\d+\\. ${fault.check}: .*\\n  on \\d+ operation\\(s\\), \\d+ failing result\\(s\\): .*\\b${failure.operationId}\\b`,
        "m",
      );
      expect(stdout).toMatch(causeBlock);
    } finally {
      await server.close();
    }
  };
  const named = (faults: Fault[]) => faults.map((fault) => [fault.name, fault] as const);
  it.concurrent.each(named(FAULTS.filter((fault) => !fault.contract)))(
    "%s is caught by exactly its check",
    (_name, fault) => caught(fault),
  );
  it.each(named(FAULTS.filter((fault) => fault.contract)))(
    "%s is caught by exactly its check (patched contract)",
    (_name, fault) => caught(fault),
  );
});

describe.concurrent("correct servers", () => {
  it.each(API_NAMES.map((api) => [api] as const))(
    "%s: nothing fails, with writes, and the run cleans up after itself",
    async (api) => {
      const server = await startReferenceServer(api);
      servers.push(server);
      try {
        const { code, report, stdout, stderr } = await conform([
          api,
          "--base-url",
          server.url,
          "--max-examples",
          "4",
          "--allow-writes",
          ...noRandomProducts(api),
        ]);
        expect(failingChecks(report), `${stdout}\n${stderr}`).toEqual([]);
        expect(code).toBe(0);
        for (const resource of report.resources) {
          // Only what the contract gives no way to delete may stay, and the report says why.
          if (resource.state !== "deleted")
            expect(resource.note).toMatch(
              /no operation to delete|no delete operation|advertises no revocation_endpoint/,
            );
        }
        const ran = report.checks.filter((c) => !c.skipped).map((c) => c.name);
        // catalog and pay document no response headers, so response_headers_conformance has nothing to check there.
        const documentsHeaders = api === "links" || api === "identity";
        // max_response_time runs only with --max-response-time; a check of recorded traffic only never in a run.
        // allow_header judges a 405, and these servers refuse a method a path does not document with 404, as the
        // seeds allow (the pay oracle answers 405 with Allow and passes it; oracle-pay-allow-lists-get fails it).
        const applicable = CHECK_LIST.filter(
          (c) =>
            (!c.apis || c.apis.includes(api)) &&
            (documentsHeaders || c.name !== "response_headers_conformance") &&
            c.name !== "max_response_time" &&
            c.name !== "allow_header" &&
            !c.recordedOnly,
        ).map((c) => c.name);
        expect(ran.sort()).toEqual(applicable.sort());
      } finally {
        await server.close();
      }
    },
  );
});

describe.concurrent("independent servers written from the seeds", () => {
  it.each(ORACLES.map((oracle) => [oracle.api, oracle] as const))(
    "%s: nothing fails, with writes and the narrower key",
    async (_api, oracle) => {
      const server = await oracle.start();
      servers.push(server);
      try {
        const { code, report, stdout, stderr } = await conform([
          oracle.api,
          "--base-url",
          server.url,
          "--max-examples",
          "6",
          "--allow-writes",
          ...noRandomProducts(oracle.api),
        ]);
        expect(failingChecks(report), `${stdout}\n${stderr}`).toEqual([]);
        expect(report.checks.filter((c) => c.couldNotRun)).toEqual([]);
        expect(code).toBe(0);
        if (oracle.api === "catalog") expect(report.checks.find((c) => c.name === "scope_enforcement")!.passed).toBe(3);
        if (oracle.api === "pay")
          expect(report.checks.find((c) => c.name === "nonce_replay")!.operations).toMatchObject({
            getBalance: { passed: 1 },
            listShops: { passed: 1 },
          });
      } finally {
        await server.close();
      }
    },
  );
});
