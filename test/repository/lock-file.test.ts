// CI installs with `npm ci`, which refuses a package-lock.json that does not match package.json; a lock file that
// `npm install` would rewrite (a dependency added without its lock entries, the optional platform packages of a
// fresh resolution) breaks every clean install. npm resolves the tree again from package.json and the lock file alone
// (`--package-lock-only`: no node_modules, no scripts) in a copy, and must write back the same bytes.
import { execFile } from "node:child_process";
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { expect, it } from "vitest";
import { repoRoot } from "../support/processes.js";

const run = promisify(execFile);

it("npm install leaves the committed package-lock.json as it is", async () => {
  const dir = mkdtempSync(join(tmpdir(), "lock-file-"));
  try {
    for (const file of ["package.json", "package-lock.json"]) copyFileSync(join(repoRoot, file), join(dir, file));
    const npm = process.platform === "win32" ? "npm.cmd" : "npm";
    await run(npm, ["install", "--package-lock-only", "--ignore-scripts", "--no-audit", "--no-fund"], {
      cwd: dir,
      timeout: 120_000,
    });
    const rewritten = readFileSync(join(dir, "package-lock.json"), "utf8");
    const committed = readFileSync(join(repoRoot, "package-lock.json"), "utf8");
    // Compared as text, so that a failure shows the lines npm would change.
    expect(rewritten.split("\n")).toEqual(committed.split("\n"));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 180_000);
