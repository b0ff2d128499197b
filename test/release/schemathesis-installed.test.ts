// Schemathesis on the project the installed tools write, as docs/guide/schemathesis.md says a user runs it: the
// installed `contracts schemathesis links --out <dir>` prints `cd <dir> && st run links.openapi.json --url <base-url>`,
// and the pinned `st` (scripts/schemathesis-install.sh) runs exactly that, with the credential in LINKS_TOKEN. Against
// the installed `contracts sandbox` it finds nothing; against the links fault server whose lists answer an integer
// `error` (a fault Schemathesis catches, test/release/schemathesis-faults.test.ts) it fails on that field. The files
// come from the install alone: the checkout's writer is never called. Like everything under test/release/, this runs
// where releases are proven (RELEASE_PROOFS=1, CI).
import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FAULT_SERVER_CREDENTIALS } from "../../conformance/fault-servers/credentials.js";
import { startLinksServer } from "../../conformance/fault-servers/links.js";
import { installSchemathesis, type LocalRun, LOCAL_ST } from "../../conformance/schemathesis/local-run.js";
import { appWithBothPackages, stopAll } from "../support/installed-packages.js";
import { freePort } from "../support/ports.js";
import { SANDBOX_CREDENTIALS } from "../support/schemathesis.js";
import { type RunningCommand, spawnCommand } from "../support/processes.js";

const run = promisify(execFile);
const scratch = mkdtempSync(join(tmpdir(), "contracts-st-installed-"));
const project = join(scratch, "schemathesis-links");
const token = FAULT_SERVER_CREDENTIALS.LINKS_TOKEN;
let app: string;
/** The `st run` line the installed command printed, with `<base-url>` where the deployment goes. */
let printedRun: string;
const started: RunningCommand[] = [];

beforeAll(async () => {
  [app] = await Promise.all([appWithBothPackages(), installSchemathesis()]);
  const { stdout } = await run(
    join(app, "node_modules", ".bin", "contracts"),
    ["schemathesis", "links", "--out", project],
    { cwd: app, timeout: 120_000 },
  );
  printedRun = new RegExp(`^ {2}cd ${project} && st (run links\\.openapi\\.json --url <base-url>)$`, "m").exec(
    stdout,
  )?.[1] as string;
  if (!printedRun) throw new Error(`contracts schemathesis printed no local run line:\n${stdout}`);
}, 600_000);

afterAll(async () => {
  await stopAll(started);
  rmSync(scratch, { recursive: true, force: true });
});

/**
 * The printed line run in the project folder against `baseUrl`, after emptying its reports; the seed and the pace of
 * our test servers (links' fault server counts its 30 requests in one-second windows) added, as a user adds options.
 */
async function stRun(baseUrl: string, credential: string = token): Promise<LocalRun & { junit: string }> {
  for (const name of readdirSync(join(project, "reports"))) rmSync(join(project, "reports", name));
  const args = [...printedRun.replace("<base-url>", baseUrl).split(" "), "--seed", "7"];
  const more = ["--max-examples", "5", "--rate-limit", "25/s"];
  const result = await run(LOCAL_ST, [...args, ...more], {
    cwd: project,
    env: { ...process.env, LINKS_TOKEN: credential, NO_COLOR: "1" },
    timeout: 900_000,
    maxBuffer: 64 << 20,
  }).then(
    ({ stdout, stderr }) => ({ code: 0, output: stdout + stderr }),
    (error: { code?: number | string; stdout?: string; stderr?: string; message: string }) => ({
      code: typeof error.code === "number" ? error.code : 2,
      output: `${error.stdout ?? ""}${error.stderr ?? ""}${error.message}`,
    }),
  );
  const reports = readdirSync(join(project, "reports")).filter((name) => name.endsWith(".xml"));
  const junit = reports.map((name) => readFileSync(join(project, "reports", name), "utf8")).join("\n");
  return { ...result, junit };
}

describe("Schemathesis on the project the installed tools write", () => {
  // The sandbox, not the mock: Prism's mock takes any credential, which the project's promised_refusal check fails
  // (six failures, one per read operation, when this test first ran against `contracts mock`).
  it("finds nothing against the installed contracts sandbox, and its JUnit report lists the operations it tested", async () => {
    // Every API on a port of its own: the default ports may be another run's.
    const ports = await Promise.all(["identity", "links", "catalog", "pay"].map(async (a) => [a, await freePort()]));
    const port = Object.fromEntries(ports).links as number;
    const sandbox = spawnCommand(
      join(app, "node_modules", ".bin", "contracts"),
      ["sandbox", ...ports.flatMap(([api, p]) => ["--port", `${api}=${p}`]), "--rate-limit", "off"],
      app,
    );
    started.push(sandbox);
    await sandbox.waitForOutput(new RegExp(`links\\s+http://127\\.0\\.0\\.1:${port}\\b`), 90_000);
    const sandboxToken = SANDBOX_CREDENTIALS.links.LINKS_TOKEN!;
    const result = await stRun(`http://127.0.0.1:${port}`, sandboxToken);
    expect(result.code, result.output).toBe(0);
    expect(result.output).toMatch(/No issues found/);
    const testcases = [...result.junit.matchAll(/<testcase name="([^"]+)"/g)].map((m) => m[1]!);
    expect(testcases).toEqual(expect.arrayContaining(["GET /api/account", "GET /api/domains"]));
    expect(result.junit).not.toMatch(/<failure|<error/);
    expect(result.junit).not.toContain(sandboxToken);
  }, 900_000);

  it("fails against a links server whose lists answer an integer error, naming the schema it breaks", async () => {
    const server = await startLinksServer({ token, fault: "list-error-as-integer", rateLimit: { windowMs: 1000 } });
    try {
      const result = await stRun(server.url);
      expect(result.code, result.output).toBe(1);
      expect(result.output).toMatch(/Response violates schema/);
      expect(result.junit).toMatch(/<failure/);
      expect(result.junit).not.toContain(token);
    } finally {
      await server.close();
    }
  }, 900_000);
});
