// The README's first steps in the application a newcomer really makes (issue 45): `npm init -y`, the packages
// installed by path from the tarballs `npm run pack` writes (as the README says to try them before they are
// published), then the README's shell block that makes it ready for the samples (`npm pkg set type=module`, the
// `allowScripts` entries of esbuild and msw, tsx, TypeScript 5.9 and @types/node), each line printing no `npm warn`
// (issue 65: npm 11 warned that their install scripts were "not yet covered by allowScripts"), and the
// `tsconfig.json` it shows, copied literally. Then the README's first integrator sample runs there with `npx tsx`
// against the links mock, and every TypeScript sample of the README and the guides type-checks with `npx tsc`, with
// the TypeScript 5.9 the block installs and with 7, installed as the README says.
// Without `type: module` the first sample must fail as a newcomer saw it fail: that is why the README has the line.
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningMocks, startMocks } from "../../mock/prism.js";
import { extractSamples } from "../docs/support/samples.js";
import { packedPackages, rootRange } from "../support/installed-packages.js";
import { testPort } from "../support/ports.js";
import { repoRoot } from "../support/processes.js";

const run = promisify(execFile);
const MOCK_PORT = testPort(4970);
const scratch = mkdtempSync(join(tmpdir(), "contracts-fresh-app-"));
const app = join(scratch, "app");
const npmEnv = {
  ...process.env,
  npm_config_audit: "false",
  npm_config_fund: "false",
  npm_config_prefer_offline: "true",
};
const readme = join(repoRoot, "README.md");
/** How the README says to check the samples with TypeScript 7 instead of the 5.9 its setup installs. */
const TYPESCRIPT_7 = "npm install --save-dev typescript@7";
const readmeSamples = extractSamples(readme);
/** The README's block that readies a new application, and the tsconfig.json right after it. */
const setupIndex = readmeSamples.findIndex((s) => s.language === "sh" && s.code.includes("npm pkg set type=module"));
const setup = readmeSamples[setupIndex];
const tsconfig = readmeSamples.slice(setupIndex + 1).find((s) => s.language === "json");
const firstSample = readmeSamples.find((s) => s.language === "ts")!;
const typescriptSamples = [
  readme,
  ...readdirSync(join(repoRoot, "docs/guide"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => join(repoRoot, "docs/guide", f)),
].flatMap((page) => extractSamples(page).filter((s) => ["ts", "typescript"].includes(s.language)));

let mocks: RunningMocks;

/** Runs a line of the README's setup as a reader does and fails if npm warns about anything. */
async function quietly(line: string): Promise<void> {
  const { stdout, stderr } = await sh(line);
  expect(`${stdout}\n${stderr}`.match(/^npm warn.*$/gim) ?? [], `\`${line}\` printed warnings`).toEqual([]);
}

const sh = (script: string) =>
  run("sh", ["-ec", script], { cwd: app, env: npmEnv, timeout: 280_000 }).catch(
    (error: { code: number; stdout: string; stderr: string }) =>
      Promise.reject(new Error(`${script}\nexit ${error.code}\n${error.stdout}\n${error.stderr}`)),
  );

beforeAll(async () => {
  const { clients, tools } = await packedPackages();
  mkdirSync(app);
  await sh("npm init -y");
  // As the README says: the application installs the packages by path; msw for the guide's MSW sample.
  await sh(`npm install ${clients.tarball} && npm install --save-dev ${tools.tarball} msw@'${rootRange("msw")}'`);
  [mocks] = await Promise.all([startMocks({ apis: ["links"], ports: { links: MOCK_PORT + 1 } })]);
}, 300_000);

afterAll(async () => {
  await mocks?.stop();
  rmSync(scratch, { recursive: true, force: true });
});

const withMockPort = (code: string) => code.replaceAll("127.0.0.1:4011", `127.0.0.1:${MOCK_PORT + 1}`);

describe("a fresh npm init -y application, following the README", () => {
  it("the README shows the setup block and its tsconfig.json", () => {
    expect(setup, "a ```sh block with `npm pkg set type=module`").toBeDefined();
    expect(tsconfig, "a ```json block after it").toBeDefined();
    expect(typescriptSamples.length).toBeGreaterThanOrEqual(10);
  });

  it("runs the first sample, and type-checks every sample with TypeScript 5.9 and 7", async () => {
    writeFileSync(join(app, "campaigns.ts"), withMockPort(firstSample.code));
    // The README's setup, line by line as a reader types it, but `type: module` left out first.
    const lines = setup!.code.split("\n").filter((line) => line.trim() && !line.trim().startsWith("#"));
    for (const line of lines.filter((l) => !l.includes("type=module"))) await quietly(line);
    const cjs = await sh("npx tsx campaigns.ts").then(
      () => "ran",
      (error: Error) => error.message,
    );
    expect(cjs).toContain("Top-level await is currently not supported");
    for (const line of lines.filter((l) => l.includes("type=module"))) await quietly(line);
    expect(JSON.parse(readFileSync(join(app, "package.json"), "utf8")).type).toBe("module");

    const { stdout } = await sh("npx tsx campaigns.ts");
    expect(stdout).toContain("'Spring Launch'");

    writeFileSync(join(app, "tsconfig.json"), tsconfig!.code);
    mkdirSync(join(app, "samples"));
    for (const sample of typescriptSamples)
      writeFileSync(join(app, "samples", `${sample.page.replace(/\W+/g, "-")}-${sample.line}.ts`), sample.code);
    const installed = () => JSON.parse(readFileSync(join(app, "node_modules/typescript/package.json"), "utf8"));
    expect(installed().version, "the README's setup installs TypeScript 5.9").toMatch(/^5\.9\./);
    await sh("npx tsc");
    // Without the README's tsconfig.json, TypeScript 5.9 does not find the packages' subpaths: the check can fail.
    rmSync(join(app, "tsconfig.json"));
    const bare = await sh("npx tsc --strict --noEmit campaigns.ts").then(
      () => "passed",
      (error: Error) => error.message,
    );
    expect(bare).toMatch(/Cannot find module '@platform\/contracts\/links'|TS2307/);

    writeFileSync(join(app, "tsconfig.json"), tsconfig!.code);
    expect(readFileSync(readme, "utf8")).toContain(`\`${TYPESCRIPT_7}\` for 7`);
    await quietly(TYPESCRIPT_7);
    expect(installed().version).toMatch(/^7\./);
    await sh("npx tsc");
  }, 600_000);
});
