// `npm start` and `npm run sandbox` compile first when dist/ is stale (scripts/build-if-stale.mjs). A SIGTERM during
// that build killed the process half-started, with tsc running on; it now ends it cleanly once the build is done.
// The scripts run in a scratch project of their own (a one-file CLI), so that the checkout's dist/, which the other
// test files run, is never rebuilt here. A build also removes what a deleted or moved module left in dist/. And
// `npm install` (prepare) compiles only a stale dist/, a JSON module changed alone included.
import {
  copyFileSync,
  readFileSync,
  statSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { repoRoot, runToEnd, spawnCommand } from "../support/processes.js";

const scratches: string[] = [];
afterAll(() => scratches.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function project(): string {
  const scratch = mkdtempSync(join(tmpdir(), "start-while-compiling-"));
  scratches.push(scratch);
  mkdirSync(join(scratch, "scripts"));
  mkdirSync(join(scratch, "bin"));
  mkdirSync(join(scratch, "node_modules"));
  for (const script of ["build-if-stale.mjs", "bin-executable.mjs", "sandbox.mjs"])
    copyFileSync(join(repoRoot, "scripts", script), join(scratch, "scripts", script));
  symlinkSync(join(repoRoot, "node_modules", "typescript"), join(scratch, "node_modules", "typescript"));
  writeFileSync(join(scratch, "package.json"), JSON.stringify({ type: "module" }));
  writeFileSync(join(scratch, "tsconfig.json"), JSON.stringify({}));
  writeFileSync(
    join(scratch, "tsconfig.build.json"),
    JSON.stringify({
      include: ["bin"],
      compilerOptions: {
        resolveJsonModule: true,
        outDir: "dist",
        rootDir: ".",
        module: "nodenext",
        target: "es2022",
        types: [],
        skipLibCheck: true,
      },
    }),
  );
  // A long-running command that, like bin/contracts.ts, watches the signals from its first moment.
  writeFileSync(
    join(scratch, "bin", "contracts.ts"),
    `declare const process: { on(s: string, f: () => void): void; exit(c: number): never; argv: string[] };
declare const console: { log(t: string): void };
process.on("SIGTERM", () => process.exit(0));
console.log("up: " + process.argv.slice(2).join(" "));
setInterval(() => {}, 1000);
`,
  );
  // A JSON module, as the bundled contracts are: tsc copies it to dist/ as it is.
  writeFileSync(join(scratch, "bin", "bundle.json"), '{ "version": 1 }\n');
  writeFileSync(
    join(scratch, "bin", "bundle.ts"),
    'import bundle from "./bundle.json" with { type: "json" };\nexport default bundle;\n',
  );
  return scratch;
}

it("a SIGTERM while npm run sandbox compiles ends it with exit 0, once the build is done", async () => {
  const dir = project();
  const command = spawnCommand(process.execPath, [join(dir, "scripts", "sandbox.mjs")], dir);
  while (!command.stderr().includes("compiling") && command.child.exitCode === null)
    await new Promise((resolve) => setTimeout(resolve, 5));
  command.child.kill("SIGTERM");
  expect(await command.exit, command.stderr()).toBe(0);
  expect(existsSync(join(dir, "dist", "bin", "contracts.js")), "tsc finished its build").toBe(true);
  // tsc writes a new file without the executable bit: `npx contracts` from a stale npx cache entry runs it as it is.
  expect(statSync(join(dir, "dist", "bin", "contracts.js")).mode & 0o111, "the built command is executable").not.toBe(
    0,
  );
}, 120_000);

it("a build removes the output of a module that no longer exists, which tsc leaves behind", async () => {
  const dir = project();
  const build = () => runToEnd(process.execPath, ["--input-type=module", "-e", BUILD_IF_STALE], dir);
  expect((await build()).status).toBe(0);
  writeFileSync(join(dir, "dist", "bin", "moved-away.js"), "export {};\n");
  const rebuild = await build();
  expect(rebuild.stderr, "the orphan alone makes the build stale").toContain("dist/bin/moved-away.js has no source");
  expect(existsSync(join(dir, "dist", "bin", "moved-away.js")), "the orphan is gone").toBe(false);
  expect(existsSync(join(dir, "dist", "bin", "contracts.js")), "the command is still built").toBe(true);
}, 120_000); // two tsc builds of a copy of the package: compute, not waiting

it("prepare compiles a stale dist/ only: a fresh one stays, a JSON module changed alone is copied again", async () => {
  const dir = project();
  const prepare = () => runToEnd(process.execPath, [join(dir, "scripts", "build-if-stale.mjs")], dir);
  const first = await prepare();
  expect(first.status, first.stderr).toBe(0);
  expect(first.stderr).toContain("dist/bin/contracts.js does not exist");
  const again = await prepare();
  expect(again.status, again.stderr).toBe(0);
  expect(again.stderr, "a fresh build is not compiled again").toBe("");
  writeFileSync(join(dir, "bin", "bundle.json"), '{ "version": 2 }\n');
  const changed = await prepare();
  expect(changed.status, changed.stderr).toBe(0);
  expect(changed.stderr).toContain("bin/bundle.json is newer than its copy in dist/");
  expect(JSON.parse(readFileSync(join(dir, "dist", "bin", "bundle.json"), "utf8"))).toEqual({ version: 2 });
}, 120_000);

const BUILD_IF_STALE = `import { buildIfStale } from "./scripts/build-if-stale.mjs";
const tsc = buildIfStale("pipe");
process.exit(tsc?.status ?? 0);`;
