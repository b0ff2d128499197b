// A vitest worker runs file after file in one process (isolate off in vitest.config.ts), and a module the test files
// share is loaded once per worker: a hook at its top level (an afterAll that kills leftover commands, say) would be
// registered for the first of those files only. Shared modules register per-file cleanups with afterEachFile
// (test/support/file-end.ts) instead; hooks belong in the test files and in functions they call.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { gitOutput } from "../support/processes.js";

const ROOT = new URL("../../", import.meta.url);
const TOP_LEVEL_HOOK = /^(beforeAll|afterAll|beforeEach|afterEach)\(/m;

/** The TypeScript files under test/ that test files import: everything but the test files themselves. */
async function sharedTestModules(): Promise<string[]> {
  return (await gitOutput(["ls-files", "-z", "--", "test/*.ts"]))
    .split("\0")
    .filter(
      (file) => file.endsWith(".ts") && !file.endsWith(".test.ts") && !file.startsWith("test/release/consumer-app/"),
    );
}

describe("modules shared by test files", () => {
  it("are found", async () => {
    expect(await sharedTestModules()).toEqual(
      expect.arrayContaining([
        "test/support/processes.ts",
        "test/clients/support.ts",
        "test/docs/support/built-site.ts",
      ]),
    );
  });

  it("register no vitest hook at their top level, except the setup file that vitest runs for every test file", async () => {
    const offending = (await sharedTestModules()).filter(
      (file) => file !== "test/support/setup.ts" && TOP_LEVEL_HOOK.test(readFileSync(new URL(file, ROOT), "utf8")),
    );
    expect(offending).toEqual([]);
  });

  it("the pattern finds a top-level hook and leaves one inside a function alone", () => {
    expect(TOP_LEVEL_HOOK.test('import { afterAll } from "vitest";\nafterAll(() => close());\n')).toBe(true);
    expect(TOP_LEVEL_HOOK.test("export function useSite() {\n  afterAll(() => close());\n}\n")).toBe(false);
  });
});
