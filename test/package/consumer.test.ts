// The package as users get it: `npm pack`, install the tarball into a fresh project, check what it contains,
// resolve every export, type-check test/package/consumer-app/main.ts (which imports every export) with tsc against
// the shipped declarations, run it with node, and run the installed `contracts` binary.
import { execFile } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "../support/processes.js";

const run = promisify(execFile);
const manifest = JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")) as { name: string; exports: Record<string, string | Record<string, string>> };
const consumerApp = join(repoRoot, "test", "package", "consumer-app");
const scratch = mkdtempSync(join(tmpdir(), "contracts-package-"));
const project = join(scratch, "consumer");
const installed = join(project, "node_modules", ...manifest.name.split("/"));
let packedFiles: string[] = [];

beforeAll(async () => {
  // dist/ is fresh: test/support/global-setup.ts compiled it.
  const { stdout } = await run("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", scratch], { cwd: repoRoot, maxBuffer: 64 * 1024 * 1024 });
  const [packed] = JSON.parse(stdout) as Array<{ filename: string; files: Array<{ path: string }> }>;
  packedFiles = packed!.files.map((f) => f.path).sort();
  mkdirSync(project);
  writeFileSync(join(project, "package.json"), JSON.stringify({ name: "consumer", private: true, type: "module" }));
  for (const file of ["main.ts", "tsconfig.json"]) copyFileSync(join(consumerApp, file), join(project, file));
  await run("npm", ["install", join(scratch, packed!.filename), "--prefer-offline", "--no-audit", "--no-fund", "--ignore-scripts"], { cwd: project, timeout: 240_000 });
}, 300_000);

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const exportTargets = () =>
  Object.entries(manifest.exports).flatMap(([subpath, target]) => (typeof target === "string" ? [[subpath, target]] : Object.values(target).map((t) => [subpath, t])));

describe(`npm package ${manifest.name}`, () => {
  it("contains only what users need", () => {
    const allowed = [/^dist\/(bin|clients|lib|mock|conformance|generated)\/.+\.(js|d\.ts)$/, /^generated\/(openapi\/.+\.json|types\/.+\.ts|reference\/.+\.html)$/, /^specs\/.+\.(yaml|md)$/];
    const extra = packedFiles.filter((f) => !["package.json", "README.md", "LICENSE", "CHANGELOG.md"].includes(f) && !allowed.some((pattern) => pattern.test(f)));
    expect(extra).toEqual([]);
    expect(packedFiles.filter((f) => /\.test\.|^test\/|^scripts\/|^releases\/|^\.|node_modules/.test(f))).toEqual([]);
    for (const required of ["LICENSE", "README.md", "CHANGELOG.md", "dist/bin/contracts.js", "specs/links.yaml", "generated/types/links.ts"]) expect(packedFiles).toContain(required);
    // Every compiled module ships with its declarations.
    const modules = packedFiles.filter((f) => f.startsWith("dist/") && f.endsWith(".js"));
    expect(modules.filter((f) => !packedFiles.includes(f.replace(/\.js$/, ".d.ts")))).toEqual([]);
  });

  it("resolves every export to a file in the package, and the consumer imports each of them", async () => {
    for (const [subpath, target] of exportTargets()) expect(existsSync(join(installed, target!)), `${subpath} -> ${target}`).toBe(true);
    const specifiers = Object.keys(manifest.exports).map((subpath) => `${manifest.name}${subpath.slice(1)}`);
    const script = `for (const s of ${JSON.stringify(specifiers)}) console.log(import.meta.resolve(s));`;
    const { stdout } = await run(process.execPath, ["--input-type=module", "-e", script], { cwd: project });
    expect(stdout.trim().split("\n")).toHaveLength(specifiers.length);
    const main = readFileSync(join(consumerApp, "main.ts"), "utf8");
    expect(specifiers.filter((s) => !main.includes(`from "${s}"`))).toEqual([]);
  });

  it("type-checks the consumer with tsc against the shipped declarations (no @types/node, skipLibCheck off)", async () => {
    const tsc = run(process.execPath, [join(repoRoot, "node_modules", "typescript", "bin", "tsc"), "-p", project], { cwd: project });
    await expect(tsc.then(({ stdout }) => stdout, (error: { stdout: string }) => Promise.reject(new Error(error.stdout)))).resolves.toBe("");
  });

  it("runs the consumer with node: every client answers, the diff works", async () => {
    const { stdout } = await run(process.execPath, [join(project, "out", "main.js")], { cwd: project });
    expect(JSON.parse(stdout)).toEqual({
      name: manifest.name,
      version: JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")).version,
      answered: ["GET /api/account", "POST /api/domain/add", "GET /admin/seller-api/me", "POST /api/balance/", "GET /.well-known/openid-configuration"],
    });
  });

  it("installs the contracts binary, whose diff flags a breaking change", async () => {
    const bin = join(project, "node_modules", ".bin", "contracts");
    const released = join(installed, "generated", "openapi", "catalog.json");
    const changed = JSON.parse(readFileSync(released, "utf8"));
    changed.components.schemas.ProductCreate.required.push("thumbnail");
    writeFileSync(join(scratch, "catalog-next.json"), JSON.stringify(changed));
    const failure = await run(bin, ["diff", released, join(scratch, "catalog-next.json")], { cwd: project }).then(() => undefined, (error: { code: number; stdout: string }) => error);
    expect(failure?.code).toBe(1);
    expect(failure?.stdout).toContain("[property-became-required] POST /admin/seller-api/products: request body application/json .thumbnail (you send)");
    expect((await run(bin, ["diff", released, released], { cwd: project })).stdout).toContain("No changes to the contract.");
  });
});
