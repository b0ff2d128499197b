// Mermaid diagrams of the docs pages, shown as pre-rendered SVG images instead of being rendered in the reader's
// browser: client-side rendering failed intermittently under load ("Syntax error in text" for a valid diagram), and a
// pre-rendered image needs no script and no network. Each ```mermaid fence has a light and a dark image, rendered by
// `npm run docs:diagrams` (scripts/docs/render-diagrams.ts, in headless Chromium) and committed in DIAGRAMS_DIR, named
// by a hash of the fence and of mermaid's version. The site (docs:dev, docs:build) only reads them, so that writers
// need Node alone: a fence whose render is not there fails its page, naming the command that renders it, and
// test/docs/diagrams.test.ts fails when a render is missing or no fence uses it any more.
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join, relative } from "node:path";
import { fromPackageRoot, packageRoot } from "../../lib/paths.js";
import { handWrittenPages } from "./pages.js";

export const DIAGRAMS_DIR = fromPackageRoot("docs", ".vitepress", "diagrams");
export const RENDER_COMMAND = "npm run docs:diagrams";
export const THEMES = ["default", "dark"] as const;
export type Theme = (typeof THEMES)[number];

const MERMAID_VERSION = (
  JSON.parse(readFileSync(createRequire(import.meta.url).resolve("mermaid/package.json"), "utf8")) as {
    version: string;
  }
).version;

const FENCE = /^```mermaid[ \t]*\n([\s\S]*?)^```[ \t]*$/gm;

export function mermaidSources(markdown: string): string[] {
  return [...markdown.matchAll(FENCE)].map((match) => match[1]!);
}

/** The file name of a diagram's render in one theme: another mermaid draws it anew. */
export function renderName(source: string, theme: Theme): string {
  const hash = createHash("sha256").update(`${MERMAID_VERSION}\n${source}`).digest("hex").slice(0, 24);
  return `${hash}-${theme}.svg`;
}

function firstLine(source: string): string {
  return source.split("\n")[0]!;
}

export interface NeededRender {
  /** Where the fence is, for messages: "docs/guide/pay.md: sequenceDiagram (dark)". */
  fence: string;
  source: string;
}

/** Every render the fences of these pages need, by file name. */
export function neededRenders(pages = handWrittenPages()): Map<string, NeededRender> {
  const needed = new Map<string, NeededRender>();
  for (const page of pages)
    for (const source of mermaidSources(readFileSync(page, "utf8")))
      for (const theme of THEMES)
        needed.set(renderName(source, theme), {
          fence: `${relative(packageRoot, page)}: ${firstLine(source)} (${theme})`,
          source,
        });
  return needed;
}

/** The renders these pages need that are not in the directory, and those in it that none of them needs. */
export function diagramStaleness(
  pages = handWrittenPages(),
  dir = DIAGRAMS_DIR,
): { missing: NeededRender[]; unused: string[] } {
  const present = new Set(existsSync(dir) ? readdirSync(dir).filter((name) => name.endsWith(".svg")) : []);
  const needed = neededRenders(pages);
  return {
    missing: [...needed].filter(([name]) => !present.has(name)).map(([, render]) => render),
    unused: [...present].filter((name) => !needed.has(name)).sort(),
  };
}

function committedRender(source: string, theme: Theme, dir: string): string {
  const path = join(dir, renderName(source, theme));
  if (!existsSync(path))
    throw new Error(
      `the diagram starting "${firstLine(source)}" has no ${theme} render (${relative(packageRoot, path)}): ` +
        `run \`${RENDER_COMMAND}\` (needs Chromium) and commit what it writes`,
    );
  return readFileSync(path, "utf8");
}

/** The light and dark images of a rendered diagram; its `accTitle` becomes the alternative text. */
function diagramHtml(source: string, dir: string): string {
  const alt = (source.match(/^\s*accTitle:\s*(.+)$/m)?.[1] ?? "Diagram").replaceAll('"', "&quot;");
  const images = THEMES.map((theme) => {
    const svg = committedRender(source, theme, dir);
    // The drawing's own size: a phone shows it at that size (labels as mermaid drew them), scrolling inside the figure.
    const [width, height] = (svg.match(/viewBox="[-\d.]+ [-\d.]+ ([\d.]+) ([\d.]+)"/)?.slice(1) ?? []).map((n) =>
      Math.ceil(Number(n)),
    );
    const size = width && height ? ` width="${width}" height="${height}"` : "";
    return `<img class="diagram-${theme}" src="data:image/svg+xml;base64,${Buffer.from(svg).toString("base64")}"${size} alt="${alt}">`;
  });
  return `<figure class="diagram">${images.join("")}</figure>`;
}

/** The page with each ```mermaid fence replaced by its committed images; throws when one has not been rendered. */
export function replaceMermaidFences(markdown: string, dir = DIAGRAMS_DIR): string {
  return markdown.replace(FENCE, (_fence, source: string) => `\n${diagramHtml(source, dir)}\n`);
}
