// The supported Node lines, 22 and 24 (the packages' `engines`), run the packages as users install them, while the
// rest of the suite runs on the machine's Node. The `node` package of the npm registry brings each runtime (`npx -p
// node@22`), so CI needs no download from elsewhere. On each line: both tarballs installed (`npm run pack`'s), the
// mock and the sandbox started from the install without a single warning (oidc-provider warns on unsupported
// runtimes), `contracts conform` against that sandbox, and the consumer application (test/release/consumer-app,
// every client) run.
import { execFile } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { promisify } from "node:util";
import { build } from "esbuild";
import { satisfies } from "semver";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readManifest } from "../../scripts/pack.js";
import {
  askMockOnce,
  conformAgainstSandbox,
  packedPackages,
  rootRange,
  stopAll,
} from "../support/installed-packages.js";
import { repoRoot, type RunningCommand, spawnCommand } from "../support/processes.js";

const run = promisify(execFile);
const LINES = ["22", "24"] as const;
const scratch = mkdtempSync(join(tmpdir(), "contracts-node-lines-"));
const project = join(scratch, "app");
const started: RunningCommand[] = [];
const nodes = new Map<string, string>();
let tarballs: string[] = [];

beforeAll(async () => {
  const { clients, tools } = await packedPackages();
  const packed = [clients, tools];
  tarballs = packed.map((p) => p.tarball);
  const msw = rootRange("msw");
  mkdirSync(project);
  writeFileSync(join(project, "package.json"), JSON.stringify({ name: "app", private: true, type: "module" }));
  const install = run(
    "npm",
    ["install", "--no-audit", "--no-fund", "--prefer-offline", ...packed.map((p) => p.tarball), `msw@${msw}`],
    { cwd: project, timeout: 280_000 },
  );
  // Each line's runtime from the registry's `node` package (cached by npx after the first run).
  const runtimes = LINES.map(async (line) => {
    const { stdout } = await run("npx", ["-y", "-p", `node@${line}`, "node", "-p", "process.execPath"], {
      cwd: scratch,
      timeout: 280_000,
    });
    nodes.set(line, stdout.trim());
  });
  await Promise.all([install, ...runtimes]);
  // The consumer application, compiled to JavaScript as the integrator's build would.
  copyFileSync(join(repoRoot, "test/release/consumer-app/main.ts"), join(project, "main.ts"));
  await build({ entryPoints: [join(project, "main.ts")], outfile: join(project, "main.js"), format: "esm" });
}, 300_000);

afterAll(async () => {
  await stopAll(started);
  rmSync(scratch, { recursive: true, force: true });
});

const cli = join(project, "node_modules", "@platform", "contracts-tools", "dist", "bin", "contracts.js");

function start(line: string, args: string[]): RunningCommand {
  const command = spawnCommand(nodes.get(line)!, [cli, ...args], project);
  started.push(command);
  return command;
}

it("the README names the tarballs `npm run pack` writes, for trying the packages before they are published", () => {
  const readme = readFileSync(join(repoRoot, "README.md"), "utf8");
  expect(readme).toContain("npm run pack -- ../contracts-packages");
  for (const tarball of tarballs) expect(readme).toContain(basename(tarball));
});

it("the root and both packages state these lines, and no other, in engines", () => {
  for (const manifest of ["package.json", "packages/contracts/package.json", "packages/contracts-tools/package.json"]) {
    const range = readManifest(join(repoRoot, manifest)).engines?.node ?? "";
    for (const line of LINES) expect(satisfies(`${line}.99.0`, range), `${manifest}: ${range}`).toBe(true);
    for (const other of ["20.19.0", "23.0.0", "26.0.0"])
      expect(satisfies(other, range), `${manifest}: ${other}`).toBe(false);
  }
});

describe.each(LINES)("Node %s", (line) => {
  it("is the line asked for", async () => {
    const { stdout } = await run(nodes.get(line)!, ["--version"]);
    expect(stdout).toMatch(new RegExp(`^v${line}\\.`));
  });

  it("starts the mock from the install, without a warning, and it answers", async () => {
    const answer = await askMockOnce((args) => start(line, args));
    expect(answer.status).toBe(200);
    expect(answer.exit).toBe(0);
    expect(answer.stderr).not.toMatch(/warn/i);
  }, 120_000);

  it("starts the sandbox from the install, without a warning, and conform passes against it", async () => {
    const contracts = (args: string[]) => run(nodes.get(line)!, [cli, ...args], { cwd: project, timeout: 120_000 });
    const sandbox = await conformAgainstSandbox((args) => start(line, args), contracts, scratch, `${line}-`);
    expect(sandbox.runs.map((r) => r.api)).toEqual(["catalog", "pay"]);
    for (const { report, stdout, stderr } of sandbox.runs) {
      expect(report.failures, stdout).toEqual([]);
      expect(report.requests).toBeGreaterThan(10);
      expect(stderr).not.toMatch(/warn/i);
    }
    expect(sandbox.exit).toBe(0);
    expect(sandbox.stderr).not.toMatch(/warn|unsupported/i);
  }, 240_000);

  it("runs the consumer application: every client answers", async () => {
    const { stdout, stderr } = await run(nodes.get(line)!, [join(project, "main.js")], { cwd: project });
    expect(JSON.parse(stdout)).toMatchObject({ name: "@platform/contracts" });
    expect(JSON.parse(stdout).answered).toHaveLength(5);
    expect(stderr).toBe("");
  });
});
