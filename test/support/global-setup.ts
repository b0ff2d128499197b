// Compiles the package before the tests, so that tests run the same `contracts` binary a user gets; skipped when
// dist/ is newer than every source (after `npm install`, whose prepare script builds, or an earlier run).
// Type errors do not stop the emit (and `npm run check:ts` reports them); only a failure to emit stops the tests.
// Installs Debian's chromium when it is missing (a fresh machine): here, once and before any test file starts, so
// that no file finds it missing and no worker is blocked by apt-get for a minute.
// Installs the pinned Schemathesis from PyPI (scripts/schemathesis-install.sh) when it is missing, for the same reason.
// Also gives each run a directory for what its files share and only one makes (test/support/once-per-run.ts): the
// docs site, the packed tarballs, the application with both packages installed.
// And makes npx's entry for this clone's `contracts` before tests run `npx contracts` in parallel, as the guides do:
// npm writes that entry's package.json outside its lock, so two first runs at once, or one killed half-way, leave an
// entry that fails every later `npx contracts` with ENOENT (as in npm/cli#8151). A broken one is removed and made
// again.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { TestProject } from "vitest/node";
import { buildIfStale, cli } from "../../scripts/build-if-stale.mjs";
import { installChromiumIfMissing } from "../../scripts/docs/chromium.js";

export default function setup(project: TestProject): () => void {
  const result = buildIfStale("pipe");
  if (result && result.status !== 0) {
    process.stderr.write(
      `tsc reported type errors (see \`npm run check:ts\`):\n${result.stdout.split("\n").slice(0, 10).join("\n")}\n`,
    );
  }
  if (result?.error || !existsSync(cli))
    throw new Error(`could not compile the package: ${result?.error ?? result?.stdout}`);
  installChromiumIfMissing();
  installSchemathesisIfMissing();
  prepareNpxEntry();
  // A new directory for every run, reruns in watch mode included, so that edited docs and sources are made again.
  let sharedRunDir = mkdtempSync(join(tmpdir(), "contracts-test-run-"));
  project.provide("sharedRunDir", sharedRunDir);
  project.onTestsRerun(() => {
    rmSync(sharedRunDir, { recursive: true, force: true });
    sharedRunDir = mkdtempSync(join(tmpdir(), "contracts-test-run-"));
    project.provide("sharedRunDir", sharedRunDir);
  });
  return () => rmSync(sharedRunDir, { recursive: true, force: true });
}

/** The pinned Schemathesis in .venv-schemathesis/, once before the files that run it start (they run in parallel). */
function installSchemathesisIfMissing(): void {
  const install = spawnSync("bash", [resolve(import.meta.dirname, "../../scripts/schemathesis-install.sh")], {
    encoding: "utf8",
  });
  if (install.status !== 0) throw new Error(`scripts/schemathesis-install.sh failed:\n${install.stderr}`);
}

function prepareNpxEntry(): void {
  const root = resolve(import.meta.dirname, "../..");
  const help = () => spawnSync("npx", ["contracts", "--help"], { cwd: root, encoding: "utf8" });
  let result = help();
  const broken = /(\S*\/_npx\/[0-9a-f]{16})\/package\.json/.exec(result.stderr ?? "");
  if (result.status !== 0 && broken) {
    rmSync(broken[1]!, { recursive: true, force: true });
    result = help();
  }
  if (result.status !== 0) throw new Error(`npx contracts --help failed:\n${result.stderr}`);
}
