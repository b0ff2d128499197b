// Integrators generate their own clients from our bundles: @hey-api/openapi-ts, orval (7.x, the last for Node 20) and
// openapi-zod-client are run on the four bundles, and their output, with the links quirks typed against it
// (test/third-party/quirks/), must type-check under `tsc --strict`. A success declared as the range `2XX` again
// (the encoding that broke them, issue 34) must fail these checks: the last test feeds such a bundle.
import { cpSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "../support/processes.js";
import {
  APIS,
  bundlePath,
  bundleWithRangeSuccess,
  generateClients,
  type Outcome,
  typeCheck,
  workspace,
} from "./support.js";

const GENERATORS = ["hey", "orval", "zod"] as const;

/** Copies the quirk tests beside the generated clients; returns the files to type-check with them. */
function withQuirkTests(dir: string): string[] {
  for (const generator of GENERATORS)
    cpSync(join(repoRoot, "test", "third-party", "quirks", `${generator}.ts`), join(dir, `quirks-${generator}.ts`));
  return [...GENERATORS, ...GENERATORS.map((generator) => `quirks-${generator}.ts`)];
}

describe("clients generated from the four bundles", () => {
  let space: ReturnType<typeof workspace> | undefined;
  let generated: Outcome[] = [];
  let checked: Outcome = { code: -1, output: "not run" };
  beforeAll(async () => {
    space = workspace("generators");
    generated = await generateClients(space.dir, Object.fromEntries(APIS.map((api) => [api, bundlePath(api)])));
    checked = await typeCheck(space.dir, withQuirkTests(space.dir));
  }, 300_000);
  afterAll(() => space?.remove());

  it("every generator runs to the end", () => {
    expect(generated.filter((outcome) => outcome.code !== 0).map((outcome) => outcome.output)).toEqual([]);
  });

  it("their output and the quirk tests on it type-check with --strict", () => {
    expect(checked.output.trim()).toBe("");
    expect(checked.code).toBe(0);
  });

  it("openapi-zod-client keeps every success as the operation's response, none under errors with status NaN", () => {
    for (const api of APIS) {
      const schemas = readFileSync(join(space!.dir, "zod", `${api}.ts`), "utf8");
      expect(schemas, api).toMatch(/response: /);
      expect(schemas, api).not.toMatch(/status: NaN/);
    }
  });
});

describe("a success declared as 2XX again", () => {
  it("breaks orval's client and files openapi-zod-client's success under errors", async () => {
    const space = workspace("range");
    try {
      const patched = bundleWithRangeSuccess(space.dir, "links");
      const generated = await generateClients(space.dir, { links: patched });
      expect(generated.map((outcome) => outcome.code)).toEqual([0, 0, 0]);
      const checked = await typeCheck(space.dir, withQuirkTests(space.dir));
      expect(checked.code).not.toBe(0);
      expect(checked.output).toMatch(/orval\/links\/client\.ts\(\d+,\d+\): error TS1351/);
      expect(readFileSync(join(space.dir, "zod", "links.ts"), "utf8")).toMatch(/status: NaN/);
    } finally {
      space.remove();
    }
  }, 300_000);
});
