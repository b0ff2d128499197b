// What a run prints is safe to share: no output of a failing run shows a secret (the reproductions name the
// variables instead, and pay's re-sign the body with a fresh nonce), and every way of failing to start is one line
// with exit code 2. The tests run side by side, each with servers of its own; those about the command as a process
// (output, exit codes) run the CLI, the others run it in this process.
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, it } from "vitest";
import { FAULT_SERVER_CREDENTIALS, FAULTS } from "../../conformance/fault-servers/faults.js";
import type { RunningServer } from "../../conformance/fault-servers/http.js";
import { startPayServer } from "../../conformance/fault-servers/pay.js";
import { startOraclePayServer } from "../../conformance/oracle/pay.js";
import type { FailureRecord } from "../../conformance/report/ledger.js";
import { testPort } from "../support/ports.js";
import { conformInProcess } from "../support/conform.js";
import { runContracts } from "../support/processes.js";
import { closedAfter } from "../support/servers.js";

const UNUSED_PORT = testPort(4559); // nothing listens there
const dir = mkdtempSync(join(tmpdir(), "conform-output-"));
const env = { ...FAULT_SERVER_CREDENTIALS };

/** The reproduction of the failure `which` of a failing `contracts conform pay` run against `server`. */
async function payReproduction(
  server: RunningServer,
  args: string[],
  which: (failure: FailureRecord) => boolean,
): Promise<string> {
  const { code, report, output } = await conformInProcess(["pay", "--base-url", server.url, ...args], env);
  // Not `expect`: the concurrent tests that call this each have their own.
  if (code !== 1) throw new Error(`contracts conform pay exited ${code}, not 1:\n${output}`);
  return report.failures.find(which)!.curl;
}

/** Runs a reproduction with bash, asynchronously (the server answering its curl runs in this process). */
async function runReproduction(curl: string, paySecret: string): Promise<string> {
  const { stdout } = await promisify(execFile)("bash", ["-c", curl], {
    env: { ...process.env, PAY_SECRET: paySecret },
    encoding: "utf8",
  });
  return stdout;
}

describe.concurrent("secrets", () => {
  it.for([
    "links-wrong-content-type",
    "catalog-idempotency-ignored",
    "pay-nonce-not-checked",
    "identity-code-reusable",
  ])("no output of a failing run against %s shows a secret", async (name, context) => {
    const { expect } = context;
    const fault = FAULTS.find((f) => f.name === name)!;
    const server = closedAfter(await fault.start(), context);
    const json = join(dir, `${name}.json`);
    const junit = join(dir, `${name}.xml`);
    const run = runContracts(
      [
        "conform",
        fault.api,
        "--base-url",
        server.url,
        "--max-examples",
        "3",
        "--rate-limit",
        "1000/s",
        "--json",
        json,
        "--junit",
        junit,
        ...fault.args,
      ],
      env,
    );
    expect(await run.exit).toBe(1);
    const outputs = {
      stdout: run.stdout(),
      stderr: run.stderr(),
      json: readFileSync(json, "utf8"),
      junit: readFileSync(junit, "utf8"),
    };
    const secrets = [
      ...server.secretsSeen,
      env.LINKS_TOKEN,
      env.CATALOG_API_KEY,
      env.PAY_SECRET,
      env.IDENTITY_CLIENT_SECRET,
      "alice-demo-password",
    ];
    expect(server.secretsSeen.size).toBeGreaterThan(0);
    for (const [where, text] of Object.entries(outputs)) {
      for (const secret of secrets) {
        expect(text.includes(secret), `${where} shows ${secret.slice(0, 6)}…`).toBe(false);
      }
    }
    // The reproductions name the variables instead.
    const variable = {
      links: "${LINKS_TOKEN}",
      catalog: "${CATALOG_API_KEY}",
      pay: '"$PAY_SECRET"',
      identity: "${IDENTITY_CLIENT_SECRET}",
    }[fault.api];
    if (fault.api !== "identity") expect(outputs.stdout).toContain(variable);
  });

  it(
    "the pay reproduction re-signs the body with $PAY_SECRET and a fresh nonce, " + "and the server accepts it",
    async (context) => {
      const { expect } = context;
      const fault = FAULTS.find((f) => f.name === "pay-order-not-listed")!;
      const server = closedAfter(await fault.start(), context);
      const curl = await payReproduction(server, ["--max-examples", "2", ...fault.args], () => true);
      const output = await runReproduction(curl, env.PAY_SECRET);
      expect(output).toMatch(/^HTTP\/1\.1 200/);
      expect(output).toContain('"type":"success"');
    },
  );

  it(
    "a pay reproduction of a wrongly signed or unsigned request gets a fresh nonce: " +
      "rerun, it shows the fault again",
    async (context) => {
      const { expect } = context;
      const server = closedAfter(
        await startPayServer({ shopId: env.PAY_SHOP_ID, secret: env.PAY_SECRET, fault: "signature-not-checked" }),
        context,
      );
      const curl = await payReproduction(
        server,
        ["--operation", "getBalance", "--check", "ignored_auth", "--max-examples", "1"],
        (f) => f.check === "ignored_auth",
      );
      expect(curl).toContain("$(date +%s%6N)");
      for (let attempt = 0; attempt < 2; attempt++) {
        // Without PAY_SECRET: a wrong signature needs no secret to reproduce.
        const output = await runReproduction(curl, "");
        expect(output).toMatch(/^HTTP\/1\.1 200/);
        expect(output).not.toContain("Nonce must be unique");
      }
    },
  );

  it(
    "the reproduction of a nonce replayed on another operation sends the first operation, then the second, " +
      "with one fresh nonce",
    async (context) => {
      const { expect } = context;
      const server = closedAfter(
        await startOraclePayServer({ shopId: env.PAY_SHOP_ID, secret: env.PAY_SECRET, fault: "nonce-per-endpoint" }),
        context,
      );
      const curl = await payReproduction(
        server,
        ["--operation", "getBalance", "--check", "nonce_replay", "--max-examples", "1"],
        (f) => f.operationId === "listShops",
      );
      const sent = server.log.length;
      const output = await runReproduction(curl, env.PAY_SECRET);
      // getBalance, then listShops with the nonce getBalance used: accepted, so the fault shows again (listShops twice
      // was refused).
      expect(server.log.slice(sent).map((request) => request.url)).toEqual(["/api/balance/", "/api/shops/"]);
      expect([...output.matchAll(/^HTTP\/1\.1 (\d+)/gm)].map((match) => match[1])).toEqual(["200", "200"]);
    },
  );
});

describe.concurrent("exit codes", () => {
  it.for<[string[], RegExp]>([
    [["conform"], /expected exactly one API/],
    [["conform", "nope", "--base-url", "http://127.0.0.1:1"], /unknown API "nope"/],
    [["conform", "links"], /--base-url is required/],
    [["conform", "pay", "--base-url", "http://127.0.0.1:1"], /pay needs --shop-id \(or PAY_SHOP_ID\)/],
    [
      ["conform", "links", "--base-url", `http://127.0.0.1:${UNUSED_PORT}`, "--token", "x-token-1234"],
      new RegExp(`cannot reach http://127\\.0\\.0\\.1:${UNUSED_PORT}: ECONNREFUSED`),
    ],
    [
      ["conform", "links", "--base-url", "http://127.0.0.1:1", "--token", "x", "--rate-limit", "fast"],
      /--rate-limit takes a number of requests per minute \(30, 30\/min\), per second or hour/,
    ],
    [
      ["conform", "links", "--base-url", "http://127.0.0.1:1", "--token", "x", "--check", "made_up"],
      /unknown check "made_up"/,
    ],
    [
      ["conform", "links", "--base-url", "http://127.0.0.1:1", "--token", "x", "--check", "nonce_replay"],
      /none of the selected checks \(nonce_replay\) applies to links; `contracts conform --list-checks` shows which do/,
    ],
    ...["0", "-5", "abc", "99999999999"].map((t): [string[], RegExp] => [
      ["conform", "links", "--base-url", "http://127.0.0.1:1", "--token", "x", `--timeout=${t}`],
      /--timeout (takes milliseconds|must be a whole number)/,
    ]),
    [
      ["conform", "links", "--base-url", "http://127.0.0.1:1", "--token", "x", "--json", "/dev/null/r.json"],
      /--json \/dev\/null\/r\.json: cannot create the directory \/dev\/null/,
    ],
    [
      ["conform", "links", "--base-url", "http://127.0.0.1:1", "--token", "x", "--junit", "/dev/null/r.xml"],
      /--junit \/dev\/null\/r\.xml: cannot create the directory \/dev\/null/,
    ],
  ])("%j → exit 2 with one line", async ([args, message], { expect }) => {
    const run = runContracts(args, { LINKS_TOKEN: "", PAY_SHOP_ID: "", CONFORM_BASE_URL: "" });
    expect(await run.exit).toBe(2);
    expect(run.stderr()).toMatch(message);
    expect(run.stderr().trim().split("\n")).toHaveLength(1);
  });
});
