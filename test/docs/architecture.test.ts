// The architecture page (docs/guide/architecture.md) and specs/README.md describe the repository; this test reads
// their claims and checks them against the tree as it is when the test runs: every path the page names exists (the
// diagram's boxes, the modules of lib/contract/, the directories of the layout table), the layout table lists every
// top-level directory, and specs/README.md names every part the diagram draws.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { API_NAMES } from "../../lib/contract/index.js";
import { gitOutput, repoRoot } from "../support/processes.js";
import { extractSamples } from "./support/samples.js";

const PAGE = "docs/guide/architecture.md";
const page = readFileSync(join(repoRoot, PAGE), "utf8");

/** A repository path as the page writes it: lower-case segments joined by `/`, a directory ending in `/`. */
const PATH = /^(?:[a-z][\w.-]*\/)+(?:[\w.-]*\.[a-z]+)?$|^[a-z][\w-]*\.[a-z]+$/;

/** The paths in the boxes of the page's mermaid diagram: the first line of each `id["..."]` label. */
function diagramPaths(markdown: string): string[] {
  const diagrams = extractSamples(PAGE, markdown).filter((sample) => sample.language === "mermaid");
  return diagrams
    .flatMap((diagram) => [...diagram.code.matchAll(/\["([^"<]+)/g)].map((label) => label[1]!.trim()))
    .filter((label) => PATH.test(label));
}

/** The paths in inline code of the page (outside code blocks); `<api>` stands for each API. */
function inlinePaths(markdown: string): string[] {
  const prose = markdown.replace(/^```[\s\S]*?^```/gm, "");
  return [...prose.matchAll(/`([^`\s]+)`/g)]
    .map((code) => code[1]!)
    .flatMap((code) => (code.includes("<api>") ? API_NAMES.map((api) => code.replace("<api>", api)) : [code]))
    .filter((code) => PATH.test(code));
}

/** The first column of the "Where things live" table. */
function layoutTable(markdown: string): string[] {
  const section = markdown.slice(markdown.indexOf("## Where things live"));
  return [...section.matchAll(/^\| `([^`]+)` \|/gm)].map((row) => row[1]!);
}

async function topLevelDirectories(): Promise<string[]> {
  const files = (await gitOutput(["ls-files"])).split("\n");
  return [
    ...new Set(
      files.filter((file) => file.includes("/") && !file.startsWith(".")).map((file) => `${file.split("/")[0]}/`),
    ),
  ].sort();
}

/** The modules of the runner's stages and scenarios, which the page's runner section names one by one. */
const STAGES =
  /^conformance\/(model|plan|send|judge|report|steps)\/[^/]+\.ts$|^conformance\/(runner|execute|context|item-parts)\.ts$/;

/** Whether the page names a module in inline code, itself or by a pattern such as `conformance/judge/identity-*.ts`. */
function namedOn(markdown: string, module: string): boolean {
  return inlinePathsOrPatterns(markdown).some((named) =>
    named.includes("*")
      ? new RegExp(`^${named.replaceAll(".", "\\.").replaceAll("*", "[^/]*")}$`).test(module)
      : named === module,
  );
}

const inlinePathsOrPatterns = (markdown: string) =>
  [...markdown.replace(/^```[\s\S]*?^```/gm, "").matchAll(/`([^`\s]+)`/g)].map((code) => code[1]!);

describe("the architecture page agrees with the repository", () => {
  it("reads the diagram and the paths of the page", () => {
    expect(diagramPaths(page)).toEqual(
      expect.arrayContaining(["specs/", "generated/openapi/", "lib/contract/", "clients/"]),
    );
    expect(
      inlinePaths(page).filter((path) => path.startsWith("lib/contract/") && path.endsWith(".ts")).length,
    ).toBeGreaterThanOrEqual(5);
  });

  it("every path it names exists: the diagram's boxes, lib/contract's modules, the layout", () => {
    const named = [...new Set([...diagramPaths(page), ...inlinePaths(page)])];
    expect(named.filter((path) => !existsSync(join(repoRoot, path)))).toEqual([]);
  });

  it("the layout table lists every top-level directory, and nothing else", async () => {
    expect(layoutTable(page).sort()).toEqual(await topLevelDirectories());
  });

  it("specs/README.md names every part the diagram draws", () => {
    const specsReadme = readFileSync(join(repoRoot, "specs/README.md"), "utf8");
    expect(diagramPaths(page).filter((path) => !specsReadme.includes(path))).toEqual([]);
  });

  it("names every module of the runner's stages, so that the page describes the code as it is", async () => {
    const modules = (await gitOutput(["ls-files", "conformance"]))
      .split("\n")
      .filter((file) => STAGES.test(file) && !file.endsWith(".d.ts"));
    expect(modules.length).toBeGreaterThan(60);
    expect(modules.filter((module) => !namedOn(page, module))).toEqual([]);
    // A module the page leaves out is caught.
    expect(namedOn(page.replaceAll("`conformance/plan/planner.ts`", ""), "conformance/plan/planner.ts")).toBe(false);
  });

  it("catches a path that does not exist", () => {
    const wrong = page
      .replace('contract["lib/contract/', 'contract["lib/runtime/')
      .replace("`lib/contract/router.ts`", "`lib/contract/routes.ts`");
    const missing = (markdown: string) =>
      [...diagramPaths(markdown), ...inlinePaths(markdown)].filter((path) => !existsSync(join(repoRoot, path)));
    const before = new Set(missing(page));
    expect(missing(wrong).filter((path) => !before.has(path))).toEqual(["lib/runtime/", "lib/contract/routes.ts"]);
  });
});
