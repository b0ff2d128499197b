// A docs build (`npm run docs:build`, and the one the docs tests make once per run) writes into the checkout while it
// runs: VitePress's temporary server build, its cache, and the config Vite bundles beside docs/.vitepress/config.ts;
// Vitest bundles vitest.config.ts so too when it starts. git must ignore all of it, or a `git status` taken during a
// build sees it: the guides' commands test, which checks that the commands leave the checkout as it was, failed so when
// the build ran beside it. The static checks of npm test run beside Vitest and its docs build, so Prettier and ESLint
// must skip it as well: ESLint found a bundled config there, not in the program it lints with, and failed CI.
import { join, relative } from "node:path";
import { ESLint } from "eslint";
import { resolveConfig } from "vitepress";
import { beforeAll, describe, expect, it } from "vitest";
import { repoRoot, runToEnd } from "../support/processes.js";

describe("what a docs build or Vitest writes into the checkout while the static checks run", () => {
  let written: string[] = [];
  beforeAll(async () => {
    const config = await resolveConfig(join(repoRoot, "docs"), "build", "production");
    written = [
      join(config.tempDir, "app.js"),
      join(config.cacheDir, "deps", "vue.js"),
      join(repoRoot, "docs/.vitepress/config.ts.timestamp-1764000000000-0123456789abc.mjs"),
      join(repoRoot, "vitest.config.ts.timestamp-1764000000000-0123456789abc.mjs"),
    ].map((path) => relative(repoRoot, path));
    expect(written.every((path) => !path.startsWith(".."))).toBe(true);
  });

  it("is ignored by git: VitePress's temporary and cache directories, and Vite's bundled configs", async () => {
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

  it("is skipped by ESLint, as check:ts lints the checkout, and by Prettier, as check:format checks it", async () => {
    const eslint = new ESLint({ cwd: repoRoot });
    const linted = [];
    for (const path of written) if (!(await eslint.isPathIgnored(join(repoRoot, path)))) linted.push(path);
    expect(linted, "linted by ESLint").toEqual([]);
    const formatted = [];
    for (const path of written) {
      const info = await runToEnd(join(repoRoot, "node_modules/.bin/prettier"), ["--file-info", path], repoRoot);
      if ((JSON.parse(info.stdout) as { ignored: boolean }).ignored !== true) formatted.push(path);
    }
    expect(formatted, "checked by Prettier").toEqual([]);
    // The same questions about a source file answer "not ignored": the checks would see a mistake in their setup.
    expect(await eslint.isPathIgnored(join(repoRoot, "lib/paths.ts"))).toBe(false);
  });
});
