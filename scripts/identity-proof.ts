// The identity proof of issue 33, for the seeds npm test leaves out: `contracts conform identity` (the built CLI,
// dist/bin/contracts.js) against
//   - a stock oidc-provider (test/support/stock-oidc-provider.ts), with the HTML form driver and with --browser,
//     and with PKCE required (the form driver);
//   - the sandbox (`contracts sandbox`), with the guide's command (docs/guide/conform-reference.md);
// on seeds 1..N (default 20). Every run must exit 0 with no failure and no check that could not run. Prints one line
// per run and the wall time; exits 1 when any run does not pass.
//
//   npm run proof:identity [-- --seeds 20 --concurrency 2 --sandbox-port 4620]
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { FAULT_SERVER_CREDENTIALS } from "../conformance/fault-servers/credentials.js";
import type { RunReport } from "../conformance/report/report.js";
import { STOCK_SIGN_IN, startStockOidcProvider } from "../test/support/stock-oidc-provider.js";

const root = join(import.meta.dirname, "..");
const bin = join(root, "dist/bin/contracts.js");
const dir = mkdtempSync(join(tmpdir(), "identity-proof-"));

interface Target {
  name: string;
  url: string;
  args: string[];
  env: Record<string, string>;
}

interface Outcome {
  target: string;
  seed: number;
  code: number | null;
  failures: number;
  couldNotRun: string[];
  seconds: number;
}

function conform(target: Target, seed: number): Promise<Outcome> {
  const json = join(dir, `${target.name}-${seed}.json`);
  const started = Date.now();
  const args = [bin, "conform", "identity", "--base-url", target.url, "--seed", String(seed), "--json", json];
  const child = spawn(process.execPath, [...args, ...target.args], {
    env: { ...process.env, ...target.env },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += String(chunk)));
  return new Promise((resolve) => {
    child.on("close", (code) => {
      let report: RunReport | undefined;
      try {
        report = JSON.parse(readFileSync(json, "utf8")) as RunReport;
      } catch {
        process.stderr.write(`${target.name} seed ${seed}: no report\n${stderr}\n`);
      }
      resolve({
        target: target.name,
        seed,
        code,
        failures: report?.failures.length ?? -1,
        couldNotRun: (report?.checks ?? []).filter((c) => c.couldNotRun).map((c) => c.name),
        seconds: (Date.now() - started) / 1000,
      });
    });
  });
}

/** Starts `contracts sandbox` and resolves once it lists its four addresses. */
function startSandbox(port: number): Promise<{ url: string; stop: () => void }> {
  const child = spawn(process.execPath, [bin, "sandbox", "--base-port", String(port)], { stdio: "pipe" });
  let output = "";
  return new Promise((resolve, reject) => {
    const ready = new RegExp(`pay\\s+http://127\\.0\\.0\\.1:${port + 3}\\b`);
    child.stdout.on("data", (chunk: Buffer) => {
      output += String(chunk);
      if (ready.test(output)) resolve({ url: `http://127.0.0.1:${port}`, stop: () => child.kill("SIGTERM") });
    });
    child.on("exit", (code) => reject(new Error(`the sandbox exited (${code}):\n${output}`)));
  });
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      seeds: { type: "string", default: "20" },
      concurrency: { type: "string", default: "2" },
      "sandbox-port": { type: "string", default: "4620" },
    },
  });
  const seeds = Array.from({ length: Number(values.seeds) }, (_, i) => i + 1);
  const stock = await startStockOidcProvider();
  const stockPkce = await startStockOidcProvider({ pkceRequired: true });
  const sandbox = await startSandbox(Number(values["sandbox-port"]));
  const stockEnv = { ...FAULT_SERVER_CREDENTIALS, IDENTITY_SIGN_IN: STOCK_SIGN_IN };
  const targets: Target[] = [
    { name: "stock-form", url: stock.url, args: [], env: stockEnv },
    { name: "stock-browser", url: stock.url, args: ["--browser"], env: stockEnv },
    { name: "stock-pkce-required-form", url: stockPkce.url, args: [], env: stockEnv },
    {
      // The guide's command, as docs/guide/conform-reference.md prints it, with the sandbox's demo client and user.
      name: "sandbox-guide",
      url: sandbox.url,
      args: [],
      env: {
        IDENTITY_CLIENT_ID: "demo-app",
        IDENTITY_CLIENT_SECRET: "demo-app-secret",
        IDENTITY_REDIRECT_URI: "http://127.0.0.1:5173/callback",
        IDENTITY_SIGN_IN: "login=alice.novak@example.org&password=alice-demo",
      },
    },
  ];
  const queue = targets.flatMap((target) => seeds.map((seed) => ({ target, seed })));
  const outcomes: Outcome[] = [];
  const started = Date.now();
  const worker = async () => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      const outcome = await conform(next.target, next.seed);
      outcomes.push(outcome);
      const ok = outcome.code === 0 && outcome.failures === 0 && outcome.couldNotRun.length === 0;
      process.stdout.write(
        `${ok ? "pass" : "FAIL"}  ${outcome.target.padEnd(26)} seed ${String(outcome.seed).padStart(2)}  exit ${outcome.code}  failures ${outcome.failures}  could not run ${outcome.couldNotRun.join(", ") || 0}  ${outcome.seconds.toFixed(1)} s\n`,
      );
    }
  };
  try {
    await Promise.all(Array.from({ length: Number(values.concurrency) }, worker));
  } finally {
    sandbox.stop();
    await Promise.all([stock.close(), stockPkce.close()]);
  }
  const failed = outcomes.filter((o) => o.code !== 0 || o.failures !== 0 || o.couldNotRun.length > 0);
  process.stdout.write(
    `\n${outcomes.length - failed.length} of ${outcomes.length} runs passed (${targets.length} targets x ${seeds.length} seeds) in ${((Date.now() - started) / 1000).toFixed(0)} s\n`,
  );
  process.exitCode = failed.length > 0 ? 1 : 0;
}

await main();
