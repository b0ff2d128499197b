// Mermaid diagrams of the docs pages, rendered to SVG when the site is built instead of in the reader's browser:
// client-side rendering failed intermittently under load ("Syntax error in text" for a valid diagram), and a
// pre-rendered image needs no script and no network. Each ```mermaid fence becomes a light and a dark image; the
// SVGs are rendered by mermaid's own bundle in headless Chromium and cached by content hash, so a build only starts
// the browser when a diagram changed. A diagram mermaid cannot render fails the build.
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fromPackageRoot } from "../../lib/paths.js";
import { launchChromium } from "./chromium.js";

const require = createRequire(import.meta.url);
const MERMAID_BUNDLE = require.resolve("mermaid/dist/mermaid.min.js");
const MERMAID_VERSION = (
  JSON.parse(readFileSync(require.resolve("mermaid/package.json"), "utf8")) as { version: string }
).version;
const THEMES = ["default", "dark"] as const;
type Theme = (typeof THEMES)[number];

const diagramCacheDir = fromPackageRoot("docs", ".vitepress", "cache", "diagrams");

const FENCE = /^```mermaid[ \t]*\n([\s\S]*?)^```[ \t]*$/gm;

export function mermaidSources(markdown: string): string[] {
  return [...markdown.matchAll(FENCE)].map((match) => match[1]!);
}

function cachePath(source: string, theme: Theme): string {
  const hash = createHash("sha256").update(`${MERMAID_VERSION}\n${theme}\n${source}`).digest("hex").slice(0, 24);
  return join(diagramCacheDir, `${hash}.svg`);
}

function cached(source: string, theme: Theme): string | undefined {
  try {
    return readFileSync(cachePath(source, theme), "utf8");
  } catch {
    return undefined;
  }
}

/** Renders every diagram (in both themes) that is not in the cache yet; starts Chromium only if there is one. */
export async function renderMissingDiagrams(sources: string[]): Promise<void> {
  const missing = [...new Set(sources)].flatMap((source) =>
    THEMES.filter((theme) => cached(source, theme) === undefined).map((theme) => ({ source, theme })),
  );
  if (missing.length === 0) return;
  mkdirSync(diagramCacheDir, { recursive: true });
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    await page.setContent("<!DOCTYPE html><html><body></body></html>");
    await page.addScriptTag({ path: MERMAID_BUNDLE });
    for (const [index, { source, theme }] of missing.entries()) {
      const svg = await page.evaluate(
        async ({ source, theme, id }) => {
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
      writeFileSync(cachePath(source, theme), svg);
    }
  } finally {
    await browser.close();
  }
}

/** The light and dark images of a rendered diagram; its `accTitle` becomes the alternative text. */
function diagramHtml(source: string): string {
  const alt = (source.match(/^\s*accTitle:\s*(.+)$/m)?.[1] ?? "Diagram").replaceAll('"', "&quot;");
  const images = THEMES.map((theme) => {
    const svg = cached(source, theme);
    if (svg === undefined) throw new Error(`the diagram starting "${source.split("\n")[0]}" has not been rendered`);
    // The drawing's own size: a phone shows it at that size (labels as mermaid drew them), scrolling inside the figure.
    const [width, height] = (svg.match(/viewBox="[-\d.]+ [-\d.]+ ([\d.]+) ([\d.]+)"/)?.slice(1) ?? []).map((n) =>
      Math.ceil(Number(n)),
    );
    const size = width && height ? ` width="${width}" height="${height}"` : "";
    return `<img class="diagram-${theme}" src="data:image/svg+xml;base64,${Buffer.from(svg).toString("base64")}"${size} alt="${alt}">`;
  });
  return `<figure class="diagram">${images.join("")}</figure>`;
}

/** The page with each ```mermaid fence replaced by its images (rendering any diagram not rendered yet). */
export async function replaceMermaidFences(markdown: string): Promise<string> {
  await renderMissingDiagrams(mermaidSources(markdown));
  return markdown.replace(FENCE, (_fence, source: string) => `\n${diagramHtml(source)}\n`);
}
