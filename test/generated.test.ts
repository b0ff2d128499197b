// generated/ is committed; this fails when any file there differs from what the specs produce now.
import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { renderGeneratedFiles } from "../scripts/generate.js";

describe("generated/", async () => {
  const files = await renderGeneratedFiles();

  it("covers a bundle, a types file and a standalone reference page for each of the four APIs", () => {
    expect([...files.keys()].filter((path) => path.startsWith("generated/openapi/"))).toHaveLength(4);
    expect([...files.keys()].filter((path) => path.startsWith("generated/types/"))).toHaveLength(4);
    expect([...files.keys()].filter((path) => path.startsWith("generated/reference/"))).toHaveLength(4);
  });

  it.each([...files.keys()])("%s is up to date (run `npm run generate`)", async (path) => {
    const committed = await readFile(new URL(`../${path}`, import.meta.url), "utf8").catch(() => "(missing)");
    expect(committed === files.get(path), `${path} is stale: run \`npm run generate\` and commit`).toBe(true);
  });
});
