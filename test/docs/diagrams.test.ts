// The diagrams' renders are committed (docs/.vitepress/diagrams/, scripts/docs/diagrams.ts) so that the docs site
// starts and builds with Node alone; this fails when a ```mermaid fence of a page has no render or a render is there
// that no fence uses, as test/generated.test.ts does for generated/. It also proves, on pages of its own in a scratch
// directory, what the build and `npm run docs:diagrams` do: a fence without its render fails its page with the
// command to run, the command renders it in Chromium, and the docs config never reaches a browser.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { build } from "esbuild";
import { afterAll, describe, expect, it } from "vitest";
import {
  DIAGRAMS_DIR,
  diagramStaleness,
  neededRenders,
  RENDER_COMMAND,
  replaceMermaidFences,
} from "../../scripts/docs/diagrams.js";
import { renderDiagrams } from "../../scripts/docs/render-diagrams.js";
import { repoRoot } from "../support/processes.js";

const needed = neededRenders();
const scratch = mkdtempSync(join(tmpdir(), "contracts-diagrams-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("docs/.vitepress/diagrams/", () => {
  it("holds the renders of the guides' diagrams (identity, catalog, pay, architecture), light and dark", () => {
    expect(new Set([...needed.values()].map(({ fence }) => fence.split(":")[0]))).toEqual(
      new Set(["docs/guide/architecture.md", "docs/guide/catalog.md", "docs/guide/identity.md", "docs/guide/pay.md"]),
    );
    expect(needed.size).toBeGreaterThanOrEqual(8);
  });

  it.each([...needed].map(([name, { fence }]) => [fence, name]))(
    `%s is rendered (run \`${RENDER_COMMAND}\`)`,
    (fence, name) => {
      const path = join(DIAGRAMS_DIR, name);
      expect(existsSync(path), `${fence} has no render ${name}: run \`${RENDER_COMMAND}\` and commit it`).toBe(true);
      expect(readFileSync(path, "utf8"), `${name} is an SVG drawing with its size`).toMatch(
        /^<svg [^>]*viewBox="[-\d.]+ [-\d.]+ [\d.]+ [\d.]+"/,
      );
    },
  );

  it("has a render for every fence and none that no fence uses", () => {
    const { missing, unused } = diagramStaleness();
    const message = `stale diagrams: run \`${RENDER_COMMAND}\` and commit docs/.vitepress/diagrams/`;
    expect(
      missing.map(({ fence }) => fence),
      message,
    ).toEqual([]);
    expect(unused, message).toEqual([]);
  });
});

describe("a diagram a writer adds or changes", () => {
  const page = join(scratch, "page.md");
  const renders = join(scratch, "renders");
  const diagram = (label: string) =>
    `\`\`\`mermaid\nsequenceDiagram\n  accTitle: A test diagram\n  Writer->>Site: ${label}\n\`\`\`\n`;

  it("fails its page, naming the command that renders it, until that command has rendered it", async () => {
    writeFileSync(page, `# Page\n\n${diagram("adds a diagram")}`);
    expect(diagramStaleness([page], renders).missing).toHaveLength(2);
    expect(() => replaceMermaidFences(readFileSync(page, "utf8"), renders)).toThrow(
      /has no default render \(.*\.svg\): run `npm run docs:diagrams` \(needs Chromium\)/,
    );

    const written = await renderDiagrams(
      diagramStaleness([page], renders).missing.map(({ source }) => source),
      renders,
    );
    expect(written.map((path) => relative(renders, path)).sort()).toEqual(readdirSync(renders).sort());
    expect(diagramStaleness([page], renders)).toEqual({ missing: [], unused: [] });
    const html = replaceMermaidFences(readFileSync(page, "utf8"), renders);
    expect(html).not.toContain("```mermaid");
    expect(html.match(/<img class="diagram-(default|dark)" src="data:image\/svg\+xml;base64,/g)).toHaveLength(2);
    expect(html).toContain('alt="A test diagram"');

    // Changed, the diagram needs new renders, and its old ones are no longer used.
    writeFileSync(page, `# Page\n\n${diagram("changes the diagram")}`);
    expect(diagramStaleness([page], renders).missing).toHaveLength(2);
    expect(diagramStaleness([page], renders).unused).toEqual(readdirSync(renders).sort());
  });

  it("that mermaid cannot render fails the command, naming it", async () => {
    await expect(renderDiagrams(["sequenceDiagram\n  this is not mermaid\n"], renders)).rejects.toThrow(
      /mermaid cannot render the diagram starting "sequenceDiagram"/,
    );
  });
});

describe("the docs config", () => {
  it("reads the committed renders and reaches no browser: nothing it imports is Chromium or playwright", async () => {
    const { metafile } = await build({
      entryPoints: ["docs/.vitepress/config.ts"],
      absWorkingDir: repoRoot,
      bundle: true,
      platform: "node",
      format: "esm",
      packages: "external",
      write: false,
      metafile: true,
      logLevel: "silent",
    });
    const imported = [
      ...Object.keys(metafile.inputs),
      ...Object.values(metafile.inputs).flatMap((input) => input.imports.map((i) => i.path)),
    ];
    expect(imported).toContain("scripts/docs/diagrams.ts");
    expect(imported.filter((path) => /chromium|playwright|render-diagrams/.test(path))).toEqual([]);
  });
});
