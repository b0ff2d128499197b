// The packages as users install them, for the release proofs in test/release/ (on the Node that runs the tests, and
// on Node 22 and 24 in node-lines.test.ts): the tarballs packed from the checkout's dist/ and an application with both
// installed, each made once per test run (test/support/once-per-run.ts), and what the files run from an install:
// `contracts mock` answering once, and `contracts conform` against `contracts sandbox`.
import { execFile } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import type { RunReport } from "../../conformance/report/report.js";
import { staleness } from "../../scripts/build-if-stale.mjs";
import { packPackages, type PackedPackage, readManifest } from "../../scripts/pack.js";
import { oncePerRun } from "./once-per-run.js";
import { freePort } from "./ports.js";
import { repoRoot, type RunningCommand } from "./processes.js";

/** Starts the installed `contracts` binary with these arguments (on the Node line the test runs it on). */
export type StartContracts = (args: string[]) => RunningCommand;

/** Runs the installed `contracts` binary to its end; rejects on a non-zero exit, as execFile does. */
export type RunContracts = (args: string[]) => Promise<{ stdout: string; stderr: string }>;

const PACKED = "packed.json";

/** Both tarballs, packed from the checkout's dist/ (which the global setup compiled) once per test run. */
export async function packedPackages(): Promise<{ clients: PackedPackage; tools: PackedPackage }> {
  const dir = await oncePerRun(
    "tarballs",
    async (dir) => {
      const stale = staleness();
      if (stale) throw new Error(`dist/ is stale (${stale}): the package tests pack what the global setup compiled`);
      const packed = await packPackages(repoRoot, dir, { compiled: join(repoRoot, "dist") });
      writeFileSync(join(dir, PACKED), JSON.stringify(packed));
    },
    120_000,
  );
  const packed = JSON.parse(readFileSync(join(dir, PACKED), "utf8")) as PackedPackage[];
  const named = (name: string) => packed.find((p) => p.name === name)!;
  return { clients: named("@platform/contracts"), tools: named("@platform/contracts-tools") };
}

/** The range of a dependency the repository itself tests with (dependency or devDependency of the private root). */
export function rootRange(name: string): string {
  const root = readManifest(join(repoRoot, "package.json"));
  return { ...root.devDependencies, ...root.dependencies }[name]!;
}

/**
 * An application with both packages installed from their tarballs, the application's own msw (a peer dependency of
 * the tools) and tsx, as the README's samples need, made once per test run. The files that use it add files of
 * their own names to it and change nothing else.
 */
export function appWithBothPackages(): Promise<string> {
  return oncePerRun(
    "app",
    async (app) => {
      const { clients, tools } = await packedPackages();
      writeFileSync(join(app, "package.json"), JSON.stringify({ name: "app", private: true, type: "module" }));
      const install = ["install", "--no-audit", "--no-fund", "--prefer-offline", clients.tarball, tools.tarball];
      await promisify(execFile)("npm", [...install, `msw@${rootRange("msw")}`, `tsx@${rootRange("tsx")}`], {
        cwd: app,
        timeout: 280_000,
      });
    },
    300_000,
  );
}

/** Stops the commands a test file started and left running, and waits for their exit. */
export async function stopAll(started: RunningCommand[]): Promise<void> {
  for (const command of started) if (command.child.exitCode === null) command.child.kill("SIGTERM");
  await Promise.all(started.map((command) => command.exit));
}

export interface MockAnswer {
  status: number;
  body: string;
  exit: number | string;
  stderr: string;
}

/** `contracts mock` of links on a free port: asked for the account once, then stopped with SIGTERM. */
export async function askMockOnce(start: StartContracts): Promise<MockAnswer> {
  const port = await freePort();
  const mock = start(["mock", "--api", "links", "--port", `links=${port}`]);
  await mock.waitForOutput(new RegExp(`links\\s+http://127\\.0\\.0\\.1:${port}`), 90_000);
  const response = await fetch(`http://127.0.0.1:${port}/api/account`, {
    headers: { Authorization: "Bearer demo-key" },
  });
  const body = await response.text();
  mock.child.kill("SIGTERM");
  return { status: response.status, body, exit: await mock.exit, stderr: mock.stderr() };
}

export interface SandboxConformance {
  /** One conform run against a sandboxed API, with its JSON report. */
  runs: Array<{ api: string; report: RunReport; stdout: string; stderr: string }>;
  /** The sandbox's exit, after SIGTERM, and what it wrote to stderr. */
  exit: number | string;
  stderr: string;
}

/** The credentials of the sandbox's demo data, for the APIs conform runs against it. */
const SANDBOX_CREDENTIALS = [
  ["catalog", ["--api-key", "demo-seller-key"]],
  ["pay", ["--shop-id", "3561", "--secret", "demo-pay-key"]],
] as const;

/**
 * `contracts sandbox` on free ports, then `contracts conform --allow-writes` against its catalog and pay, each report
 * written as JSON into `reportDir` under `prefix`; the sandbox is stopped with SIGTERM at the end.
 */
export async function conformAgainstSandbox(
  start: StartContracts,
  contracts: RunContracts,
  reportDir: string,
  prefix = "",
): Promise<SandboxConformance> {
  const ports = await Promise.all(["identity", "links", "catalog", "pay"].map(async (a) => `${a}=${await freePort()}`));
  const sandbox = start(["sandbox", ...ports.flatMap((p) => ["--port", p])]);
  const output = await sandbox.waitForOutput(/^pay\s+http:\/\/\S+$/m, 90_000);
  const url = (api: string) => output.match(new RegExp(`^${api}\\s+(http://\\S+)$`, "m"))![1]!;
  const runs: SandboxConformance["runs"] = [];
  for (const [api, credentials] of SANDBOX_CREDENTIALS) {
    const file = join(reportDir, `${prefix}${api}.json`);
    const args = ["conform", api, "--base-url", url(api), ...credentials, "--max-examples", "3"];
    const { stdout, stderr } = await contracts([...args, "--allow-writes", "--json", file]).catch(
      (error: { code: number; stdout: string; stderr: string }) =>
        Promise.reject(new Error(`exit ${error.code}:\n${error.stdout}\n${error.stderr}`)),
    );
    runs.push({ api, report: JSON.parse(readFileSync(file, "utf8")) as RunReport, stdout, stderr });
  }
  sandbox.child.kill("SIGTERM");
  return { runs, exit: await sandbox.exit, stderr: sandbox.stderr() };
}
