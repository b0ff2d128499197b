// A docs build (`npm run docs:build`, and the one the docs tests make once per run) writes into the checkout while it
// runs: VitePress's temporary server build, its cache, and the config Vite bundles beside docs/.vitepress/config.ts.
// git must ignore all of it, or a `git status` taken during a build sees it: the guides' commands test, which checks
// that the commands leave the checkout as it was, failed so when the build ran beside it.
import { join, relative } from "node:path";
import { resolveConfig } from "vitepress";
import { describe, expect, it } from "vitest";
import { repoRoot, runToEnd } from "../support/processes.js";

describe("what a docs build writes into the checkout", () => {
  it("is ignored by git: VitePress's temporary and cache directories, and Vite's bundled config", async () => {
    const config = await resolveConfig(join(repoRoot, "docs"), "build", "production");
    const written = [
      join(config.tempDir, "app.js"),
      join(config.cacheDir, "deps", "vue.js"),
      join(repoRoot, "docs/.vitepress/config.ts.timestamp-1764000000000-0123456789abc.mjs"),
    ].map((path) => relative(repoRoot, path));
    expect(written.every((path) => path.startsWith("docs/"))).toBe(true);
    const check = await runToEnd(
      "git",
      ["check-ignore", "--no-index", "--verbose", "--non-matching", ...written],
      repoRoot,
    );
    const notIgnored = check.stdout
      .split("\n")
      .filter((line) => line.startsWith("::"))
      .map((line) => line.replace(/^::\s*/, ""));
    expect(notIgnored).toEqual([]);
  });
});
