// A green `npm test` prints Vitest's summary and little else; a failure is what a reader sees first (issue 65). Proven
// by running Vitest with the suite's own configuration (vitest.config.ts: its reporter, its `silent`) on two small
// files: one that passes slowly and logs, one that fails and logs.
import { spawn } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { stripVTControlCharacters } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { repoRoot } from "../support/processes.js";

const fixture = join(repoRoot, ".tmp", `quiet-test-output-${process.pid}`);
const fromRoot = relative(repoRoot, fixture);
mkdirSync(fixture, { recursive: true });
afterAll(() => rmSync(fixture, { recursive: true, force: true }));

writeFileSync(
  join(fixture, "passing.check.ts"),
  `import { it } from "vitest";
it("passes slowly and logs", async () => {
  console.log("noise-from-a-passing-test");
  await new Promise((resolve) => setTimeout(resolve, 400));
});
it("passes", () => {});
`,
);
writeFileSync(
  join(fixture, "failing.check.ts"),
  `import { expect, it } from "vitest";
it("passes beside the failure", () => {});
it("fails", () => {
  console.log("log-of-the-failing-test");
  expect(1).toBe(2);
});
`,
);
// The suite's configuration as it is, on these files only, without the suite's setup (which starts browsers).
writeFileSync(
  join(fixture, "vitest.config.ts"),
  `import config from ${JSON.stringify(join(repoRoot, "vitest.config.ts"))};
export default { ...config, test: { ...config.test, include: [process.env.QUIET_FILES], globalSetup: [], setupFiles: [] } };
`,
);

/** Vitest's output through a pipe, as in a CI log, and its exit code. */
function vitest(files: string): Promise<{ code: number | null; output: string }> {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith("VITEST")));
  const child = spawn(
    process.execPath,
    [join(repoRoot, "node_modules/vitest/vitest.mjs"), "run", "--config", join(fixture, "vitest.config.ts")],
    { cwd: repoRoot, env: { ...env, QUIET_FILES: `${fromRoot}/${files}`, CI: "true" } },
  );
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve) =>
    child.once("close", (code) => resolve({ code, output: stripVTControlCharacters(output) })),
  );
}

const linesOf = (output: string) => output.split("\n").filter((line) => line.trim() !== "");

describe("npm test's output", () => {
  it("on a green run: the summary, a progress line per tenth of the files, and no file, slow test or log", async () => {
    const { code, output } = await vitest("passing.check.ts");
    expect(code, output).toBe(0);
    expect(output).not.toContain("passing.check.ts");
    expect(output).not.toContain("passes slowly");
    expect(output).not.toContain("noise-from-a-passing-test");
    expect(output).toContain("vitest: 1 of 1 test files done\n");
    expect(output).toMatch(/Tests {2}2 passed \(2\)/);
    expect(linesOf(output).at(-1)).toBe("vitest: 2 passed, 0 failed");
    // The banner, one progress line, Vitest's four summary lines and the closing line.
    expect(linesOf(output).length, output).toBeLessThanOrEqual(8);
  }, 120_000);

  it("on a red run: the failing file first with its error and its test's log, and the failures named at the end", async () => {
    const { code, output } = await vitest("*.check.ts");
    expect(code, output).toBe(1);
    const firstFileLine = linesOf(output).find((line) => line.includes(".check.ts"));
    expect(firstFileLine, output).toContain("failing.check.ts");
    expect(output).toContain("expected 1 to be 2");
    expect(output).toContain("log-of-the-failing-test");
    expect(output).not.toContain("noise-from-a-passing-test");
    expect(output).toContain("vitest: 2 of 2 test files done, 1 with failures\n");
    const tail = linesOf(output).slice(-3);
    expect(tail, output).toEqual([
      "vitest: 1 failed:",
      `- ${fromRoot}/failing.check.ts > fails`,
      "vitest: 3 passed, 1 failed",
    ]);
  }, 120_000);
});
