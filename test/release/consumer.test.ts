// Both packages as users get them: `npm run pack` writes the two tarballs, and each is installed from its tarball
// into a fresh project, as `npm install` from the registry would (the dependencies come from the registry).
//
// @platform/contracts alone: what it ships, every export resolving, test/release/consumer-app/main.ts (which imports
// every export) type-checked with tsc under `strict` against the shipped declarations and run with node, the
// browser entry points bundled by esbuild for the browser, and the installed tree measured and printed.
//
// @platform/contracts-tools, in the run's application with both packages installed (made once for the package tests):
// every command of the installed `contracts` binary, including `contracts mock`, and a real `contracts conform` run
// against `contracts sandbox`, both from the install; the MSW handlers with the application's own msw (a peer
// dependency).
//
// Servers listen on ports the system hands out, so this test needs no private network; `npm install` needs the
// registry.
import { execFile } from "node:child_process";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadContract } from "../../lib/contract/index.js";
import { type PackedPackage, readManifest } from "../../scripts/pack.js";
import {
  appWithBothPackages,
  askMockOnce,
  conformAgainstSandbox,
  packedPackages,
  rootRange,
  stopAll,
} from "../support/installed-packages.js";
import { repoRoot, type RunningCommand, spawnCommand } from "../support/processes.js";

const run = promisify(execFile);
/** The entry file bundled as a browser application would bundle it: in memory, errors thrown. */
const bundleForBrowser = (entry: string) =>
  build({ entryPoints: [entry], bundle: true, platform: "browser", format: "esm", write: false, logLevel: "silent" });
const rootManifest = readManifest(join(repoRoot, "package.json"));
/** The msw range the repository tests with (dependency or devDependency of the private root). */
const mswRange = rootRange("msw");
const consumerApp = join(repoRoot, "test", "release", "consumer-app");
const scratch = mkdtempSync(join(tmpdir(), "contracts-package-"));
const INSTALL = ["install", "--no-audit", "--no-fund", "--prefer-offline", "--ignore-scripts"];

// The installed tree of @platform/contracts alone (issue 14: at most 15 packages and 10 MB).
const MAX_CLIENT_PACKAGES = 15;
const MAX_CLIENT_BYTES = 10 * 1024 * 1024;

let clients: PackedPackage;
let tools: PackedPackage;

function project(name: string): string {
  const dir = join(scratch, name);
  mkdirSync(dir);
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name, private: true, type: "module" }));
  return dir;
}

const clientsProject = join(scratch, "app");
/** The run's application with both packages, msw and tsx installed (test/support/installed-packages.ts). */
let toolsProject: string;
const installedIn = (dir: string, pkg: PackedPackage) => join(dir, "node_modules", ...pkg.name.split("/"));

// The installs run side by side, and each part of the file waits for its own: the clients' checks (a tsc of the
// consumer among them) run while the application with the tools is still being installed.
let clientsInstalled: Promise<unknown>;
let toolsInstalled: Promise<unknown>;

beforeAll(async () => {
  ({ clients, tools } = await packedPackages());
  project("app");
  for (const file of ["main.ts", "tsconfig.json"]) copyFileSync(join(consumerApp, file), join(clientsProject, file));
  // @platform/contracts alone, to measure what it installs.
  clientsInstalled = run("npm", [...INSTALL, clients.tarball], { cwd: clientsProject, timeout: 280_000 });
  toolsInstalled = appWithBothPackages().then((app) => (toolsProject = app));
  // Each is awaited by the part that needs it; a failure must not count as unhandled meanwhile.
  for (const install of [clientsInstalled, toolsInstalled]) install.catch(() => undefined);
}, 300_000);

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function exportSpecifiers(pkg: PackedPackage): string[] {
  const manifest = readManifest(
    join(installedIn(pkg.name === clients.name ? clientsProject : toolsProject, pkg), "package.json"),
  );
  return Object.keys(manifest.exports).map((subpath) => `${pkg.name}${subpath.slice(1)}`);
}

/** Every package directory under node_modules (nested ones too) and the bytes of every file there. */
function measureTree(nodeModules: string): { packages: string[]; bytes: number } {
  const packages: string[] = [];
  let bytes = 0;
  const walk = (dir: string, inPackage: string | undefined) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isSymbolicLink()) continue;
      if (entry.isDirectory()) {
        if (entry.name === "node_modules") {
          for (const child of readdirSync(path, { withFileTypes: true })) {
            if (!child.isDirectory() || child.name.startsWith(".")) continue;
            const childPath = join(path, child.name);
            const names = child.name.startsWith("@")
              ? readdirSync(childPath).map((n) => join(child.name, n))
              : [child.name];
            for (const name of names) {
              packages.push(name);
              walk(join(path, name), name);
            }
          }
          for (const file of readdirSync(path, { withFileTypes: true }))
            if (file.isFile()) bytes += statSync(join(path, file.name)).size;
        } else {
          walk(path, inPackage);
        }
      } else if (entry.isFile()) {
        bytes += statSync(path).size;
      }
    }
  };
  walk(join(nodeModules, ".."), undefined);
  return { packages: packages.sort(), bytes };
}

describe("@platform/contracts (types, clients, bundled contracts)", () => {
  beforeAll(() => clientsInstalled, 300_000);

  it("contains only the clients, the generated types and the bundled contracts", () => {
    // The clients and the three helpers of lib/ they share with the tools (signature, nonces, rate limiter).
    const allowed = [
      /^dist\/clients\/[a-z-]+\.(js|d\.ts)$/,
      /^dist\/lib\/(pay-signature|nonce|rate-limit)\.(js|d\.ts)$/,
      /^dist\/generated\/types\/[a-z]+\.(js|d\.ts)$/,
      /^generated\/openapi\/[a-z]+\.json$/,
    ];
    const extra = clients.files.filter(
      (f) =>
        !["package.json", "README.md", "LICENSE", "CHANGELOG.md"].includes(f) &&
        !allowed.some((pattern) => pattern.test(f)),
    );
    expect(extra).toEqual([]);
    for (const required of [
      "LICENSE",
      "README.md",
      "CHANGELOG.md",
      "dist/clients/links.js",
      "dist/clients/node-nonce.js",
      "dist/lib/pay-signature.js",
      "dist/lib/nonce.js",
      "dist/lib/rate-limit.js",
      "generated/openapi/pay.json",
    ])
      expect(clients.files).toContain(required);
    const modules = clients.files.filter((f) => f.endsWith(".js"));
    expect(modules.filter((f) => !clients.files.includes(f.replace(/\.js$/, ".d.ts")))).toEqual([]);
    expect(clients.version).toBe(rootManifest.version);
  });

  it("resolves every export, and the consumer imports each of them", async () => {
    const specifiers = exportSpecifiers(clients);
    const script = `for (const s of ${JSON.stringify(specifiers)}) console.log(import.meta.resolve(s));`;
    const { stdout } = await run(process.execPath, ["--input-type=module", "-e", script], { cwd: clientsProject });
    const resolved = stdout.trim().split("\n");
    expect(resolved).toHaveLength(specifiers.length);
    for (const url of resolved) expect(existsSync(new URL(url)), url).toBe(true);
    const main = readFileSync(join(consumerApp, "main.ts"), "utf8");
    expect(specifiers.filter((s) => s !== `${clients.name}/package.json` && !main.includes(`from "${s}"`))).toEqual([]);
  });

  it("type-checks the consumer with tsc under strict against the shipped declarations (no @types/node, skipLibCheck off)", async () => {
    const tsc = run(
      process.execPath,
      [join(repoRoot, "node_modules", "typescript", "bin", "tsc"), "-p", clientsProject],
      { cwd: clientsProject },
    );
    await expect(
      tsc.then(
        ({ stdout }) => stdout,
        (error: { stdout: string }) => Promise.reject(new Error(error.stdout)),
      ),
    ).resolves.toBe("");
  });

  it("runs the consumer with node: every client answers", async () => {
    const { stdout } = await run(process.execPath, [join(clientsProject, "out", "main.js")], { cwd: clientsProject });
    expect(JSON.parse(stdout)).toEqual({
      name: clients.name,
      version: rootManifest.version,
      answered: [
        "GET /api/account",
        "POST /api/domain/add",
        "GET /admin/seller-api/me",
        "POST /api/balance/",
        `GET ${loadContract("identity").operation("getOpenIdConfiguration").path}`,
      ],
    });
  });

  it("bundles the four clients for the browser (no Node built-in reachable), and the Node-only nonce file only for Node", async () => {
    const entry = join(clientsProject, "browser-entry.js");
    writeFileSync(
      entry,
      ["links", "catalog", "pay", "identity"]
        .map((api) => `export * as ${api} from "@platform/contracts/${api}";`)
        .join("\n"),
    );
    const bundle = await bundleForBrowser(entry);
    expect(bundle.errors).toEqual([]);
    const nodeOnly = join(clientsProject, "node-only-entry.js");
    writeFileSync(nodeOnly, `export * from "@platform/contracts/pay/node-nonce";`);
    const refused = await bundleForBrowser(nodeOnly).catch((error: Error) => error);
    expect(refused).toBeInstanceOf(Error);
    expect((refused as Error).message).toMatch(/pay\/node-nonce|node-nonce/);
  });

  it(`installs at most ${MAX_CLIENT_PACKAGES} packages and ${MAX_CLIENT_BYTES / 1024 / 1024} MB`, () => {
    const { packages, bytes } = measureTree(join(clientsProject, "node_modules"));
    console.log(
      `@platform/contracts installed alone: ${packages.length} packages, ${(bytes / 1024 / 1024).toFixed(2)} MB (${packages.join(", ")})`,
    );
    expect(packages).toContain("@platform/contracts");
    expect(packages.length).toBeLessThanOrEqual(MAX_CLIENT_PACKAGES);
    expect(bytes).toBeLessThanOrEqual(MAX_CLIENT_BYTES);
  });
});

// The installed tools package, run from its install.
const bin = () => join(toolsProject, "node_modules", ".bin", "contracts");
const contracts = (args: string[]) => run(bin(), args, { cwd: toolsProject, timeout: 120_000 });
const started: RunningCommand[] = [];
const start = (args: string[]) => {
  const command = spawnCommand(bin(), args, toolsProject);
  started.push(command);
  return command;
};
afterAll(() => stopAll(started));

describe("@platform/contracts-tools (what it installs)", () => {
  beforeAll(() => toolsInstalled, 300_000);

  it("installs msw only as the application's peer and ships no test or build file", () => {
    const manifest = readManifest(join(installedIn(toolsProject, tools), "package.json"));
    expect(manifest.peerDependencies?.msw).toBe(mswRange);
    expect(manifest.dependencies?.msw).toBeUndefined();
    expect(existsSync(join(installedIn(toolsProject, tools), "node_modules", "msw"))).toBe(false);
    expect(tools.files.filter((f) => /\.test\.|^test\/|^scripts\/|^releases\/|^bench\/|^docs\//.test(f))).toEqual([]);
    for (const required of [
      "dist/bin/contracts.js",
      "dist/mock/msw.js",
      "specs/links.yaml",
      "generated/openapi/links.json",
      "generated/reference/links.html",
    ])
      expect(tools.files).toContain(required);
    const { packages, bytes } = measureTree(join(toolsProject, "node_modules"));
    console.log(
      `both packages installed with msw and tsx: ${packages.length} packages, ${(bytes / 1024 / 1024).toFixed(1)} MB (the tools are for development machines and CI only)`,
    );
  });
});

// Independent commands on ports the system hands out: they run side by side.
describe.concurrent("@platform/contracts-tools (the contracts CLI, the MSW handlers)", () => {
  beforeAll(() => toolsInstalled, 300_000);

  it("prints the usage of every command", async () => {
    const { stdout } = await contracts(["--help"]);
    const commands = [...stdout.matchAll(/^ {2}([a-z]+) /gm)].map((m) => m[1]!);
    expect(commands).toEqual(["mock", "sandbox", "conform", "schemathesis", "proxy", "overlay", "diff"]);
    const helps = await Promise.all(commands.map((command) => contracts([command, "--help"])));
    helps.forEach((help, i) => expect(help.stdout, commands[i]).toMatch(new RegExp(`contracts ${commands[i]}`)));
  });

  it("contracts mock serves the contract's examples with Prism", async () => {
    const answer = await askMockOnce(start);
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toMatchObject({ error: 0, data: { id: expect.any(Number) } });
    expect(answer.exit).toBe(0);
  });

  it("contracts conform passes against contracts sandbox, both from the install", async () => {
    const sandbox = await conformAgainstSandbox(start, contracts, scratch);
    expect(sandbox.runs.map((r) => r.api)).toEqual(["catalog", "pay"]);
    for (const { report, stdout } of sandbox.runs) {
      expect(report.failures, stdout).toEqual([]);
      expect(report.requests).toBeGreaterThan(10);
      expect(report.checks.reduce((n, check) => n + check.passed, 0)).toBeGreaterThan(10);
    }
  });

  it("contracts schemathesis writes a whole project from the install, its hooks module included", async () => {
    const out = join(scratch, "schemathesis-pay");
    await contracts(["schemathesis", "pay", "--out", out]);
    for (const file of ["pay.openapi.json", "schemathesis.toml", "hooks.py", "contract-facts.json"])
      expect(existsSync(join(out, file)), file).toBe(true);
    expect(readFileSync(join(out, "hooks.py"), "utf8")).toContain("def promised_refusal(");
  });

  it("contracts diff flags a breaking change", async () => {
    const released = join(installedIn(toolsProject, tools), "generated", "openapi", "catalog.json");
    const changed = JSON.parse(readFileSync(released, "utf8"));
    changed.components.schemas.ProductCreate.required.push("thumbnail");
    writeFileSync(join(scratch, "catalog-next.json"), JSON.stringify(changed));
    const failure = await contracts(["diff", released, join(scratch, "catalog-next.json")]).then(
      () => undefined,
      (error: { code: number; stdout: string }) => error,
    );
    expect(failure?.code).toBe(1);
    expect(failure?.stdout).toContain(
      "[property-became-required] POST /admin/seller-api/products: request body application/json .thumbnail (you send)",
    );
    expect((await contracts(["diff", released, released])).stdout).toContain("No changes to the contract.");
  });

  it("serves the MSW handlers with the application's msw in Node (setupServer), and bundles them for the browser", async () => {
    const script = `
      import { setupServer } from "msw/node";
      import { createSandboxHandlers } from "@platform/contracts-tools/msw";
      const server = setupServer(...createSandboxHandlers({ baseUrls: { links: "http://links.test", catalog: "http://catalog.test", pay: "http://pay.test" } }));
      server.listen({ onUnhandledRequest: "error" });
      const response = await fetch("http://links.test/api/campaigns", { headers: { Authorization: "Bearer demo-links-key" } });
      console.log(JSON.stringify({ status: response.status, campaigns: (await response.json()).data.campaigns.length }));
      server.close();`;
    const { stdout } = await run(process.execPath, ["--input-type=module", "-e", script], { cwd: toolsProject });
    expect(JSON.parse(stdout)).toEqual({ status: 200, campaigns: 2 });
    const entry = join(toolsProject, "consumer-msw-browser-entry.js");
    writeFileSync(
      entry,
      `import { setupWorker } from "msw/browser";\nimport { createSandboxHandlers } from "@platform/contracts-tools/msw";\nexport const worker = setupWorker(...createSandboxHandlers());`,
    );
    const bundle = await bundleForBrowser(entry);
    expect(bundle.errors).toEqual([]);
  });
});
