// `npm run docs:diagrams`: renders the light and dark SVG of every ```mermaid fence of the docs pages that has no
// render in docs/.vitepress/diagrams/ yet, and removes the renders no fence needs any more (scripts/docs/diagrams.ts
// says why they are committed). The SVGs are drawn by mermaid's own bundle in headless Chromium; a diagram mermaid
// cannot render fails the command, naming it.
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { packageRoot } from "../../lib/paths.js";
import { launchChromium } from "./chromium.js";
import { DIAGRAMS_DIR, diagramStaleness, renderName, type Theme, THEMES } from "./diagrams.js";

const MERMAID_BUNDLE = createRequire(import.meta.url).resolve("mermaid/dist/mermaid.min.js");

/** Writes the renders of these diagrams (both themes) into `dir`, starting Chromium once; returns the files written. */
export async function renderDiagrams(sources: string[], dir: string): Promise<string[]> {
  const jobs = [...new Set(sources)].flatMap((source) => THEMES.map((theme) => ({ source, theme })));
  if (jobs.length === 0) return [];
  mkdirSync(dir, { recursive: true });
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    await page.setContent("<!DOCTYPE html><html><body></body></html>");
    await page.addScriptTag({ path: MERMAID_BUNDLE });
    const written: string[] = [];
    for (const [index, { source, theme }] of jobs.entries()) {
      const svg = await page.evaluate(
        async ({ source, theme, id }: { source: string; theme: Theme; id: string }) => {
          const mermaid = (
            window as unknown as {
              mermaid: { initialize(config: object): void; render(id: string, text: string): Promise<{ svg: string }> };
            }
          ).mermaid;
          mermaid.initialize({ startOnLoad: false, securityLevel: "strict", theme });
          try {
            const { svg } = await mermaid.render(id, source);
            // The SVG becomes an <img>, which must be well-formed XML; mermaid writes HTML labels (`<br>`) as HTML.
            const element = new DOMParser().parseFromString(svg, "text/html").querySelector("svg");
            return element ? new XMLSerializer().serializeToString(element) : { error: "mermaid returned no <svg>" };
          } catch (error) {
            return { error: String((error as Error).message ?? error) };
          }
        },
        { source, theme, id: `diagram-${index}` },
      );
      if (typeof svg !== "string")
        throw new Error(`mermaid cannot render the diagram starting "${source.split("\n")[0]}": ${svg.error}`);
      const path = join(dir, renderName(source, theme));
      writeFileSync(path, svg);
      written.push(path);
    }
    return written;
  } finally {
    await browser.close();
  }
}

async function main(): Promise<void> {
  const { missing, unused } = diagramStaleness();
  const sources = missing.map(({ source }) => source);
  for (const path of await renderDiagrams(sources, DIAGRAMS_DIR)) console.log(`wrote ${relative(packageRoot, path)}`);
  for (const name of unused) {
    rmSync(join(DIAGRAMS_DIR, name));
    console.log(`removed ${relative(packageRoot, join(DIAGRAMS_DIR, name))} (no fence uses it)`);
  }
  if (missing.length === 0 && unused.length === 0) console.log("every diagram is rendered");
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
