// Writes the generated pages of the docs site from the bundles (run by docs/.vitepress/config.ts each time VitePress
// starts, so `docs:dev`, `docs:build` and the tests always show the current contracts):
//   docs/reference/<api>/*.md       the reference: overview, one page per tag, webhooks, schemas (reference-page.ts)
//   docs/reference/<api>/quirks.md  every x-quirk
//   docs/reference/<api>/gaps.md    every x-undocumented
//   docs/public/redoc/<api>.html    the standalone Redoc page from generated/reference/
//   docs/public/specs/<api>.json    the bundled contract, for download
//   docs/changelog.md               CHANGELOG.md
//   docs/.vitepress/try-it.generated.json  the prefilled requests of the console (theme/TryIt.vue)
//   docs/reference/<api>/overlay.md with DOCS_OVERLAY=<file>: what a deployment's overlay changes (overlay-page.ts)
// All of them are git-ignored: only the specs and CHANGELOG.md are the source.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { API_NAMES } from "../../lib/contract/index.js";
import { loadOverlay, overlayApi, OverlayError, readOverlayFile } from "../../lib/contract/overlay.js";
import { bundlePath } from "../../lib/paths.js";
import { fromPackageRoot } from "../../lib/paths.js";
import { renderAnnotationPage } from "./annotations.js";
import { tryItApi, type TryItApi } from "./code-samples.js";
import { type ApiName, operationsOf, readBundle } from "./document.js";
import { OVERLAY_PAGE, overlayPage } from "./overlay-page.js";
import { overlayChanges } from "../../conformance/overlay/diff.js";
import { referencePageList, renderReferencePages } from "./reference-page.js";

const docsRoot = fromPackageRoot("docs");

/** Entries of docs/ that hold generated or configuration files, not hand-written pages. */
const NOT_HAND_WRITTEN = new Set(["reference", "public", ".vitepress", "changelog.md"]);

/** The markdown files people write (the guides and the home page), as absolute paths. */
export function handWrittenPages(dir = docsRoot): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (dir === docsRoot && NOT_HAND_WRITTEN.has(entry.name)) return [];
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return handWrittenPages(path);
    return entry.name.endsWith(".md") ? [path] : [];
  });
}

/** Each API with the title of its contract, for the navigation. */
export function apiTitles(): Array<{ api: ApiName; title: string }> {
  return API_NAMES.map((api) => ({ api, title: readBundle(api).info.title }));
}

/**
 * The deployment overlay the site shows (DOCS_OVERLAY, read by `docs:pages`, `docs:dev` and `docs:build` alike), with
 * the API it extends. Its `extends` must name the API, as `contracts overlay record` writes it: the site has no other
 * way to know which reference it belongs to.
 */
export function docsOverlay(file = process.env.DOCS_OVERLAY): { file: string; api: ApiName } | undefined {
  if (!file) return undefined;
  const api = overlayApi(readOverlayFile(file));
  if (!api) throw new OverlayError(`DOCS_OVERLAY=${file}: its extends names no API; set extends to <api>.json`);
  return { file: resolve(file), api };
}

/** The generated pages of one API's reference in reading order, as site paths with their sidebar titles. */
export function referenceNavigation(api: ApiName, overlay = docsOverlay()): Array<{ link: string; text: string }> {
  return [
    { link: `/reference/${api}/`, text: "Overview" },
    ...referencePageList(readBundle(api)).map(({ page, title }) => ({
      link: `/reference/${api}/${page}`,
      text: title,
    })),
    { link: `/reference/${api}/quirks`, text: "Quirks" },
    { link: `/reference/${api}/gaps`, text: "Gaps" },
    ...(overlay?.api === api ? [{ link: `/reference/${api}/${OVERLAY_PAGE.page}`, text: OVERLAY_PAGE.title }] : []),
  ];
}

/** Every generated page of the site, as URL paths (clean URLs, `/` for an index). */
export function generatedPagePaths(): string[] {
  const overlay = docsOverlay();
  return [
    "/changelog",
    ...API_NAMES.flatMap((api) => [
      ...referenceNavigation(api, overlay).map((entry) => entry.link),
      `/redoc/${api}.html`,
    ]),
  ];
}

/**
 * Writes a file only when its content changed, so the dev server does not reload for nothing and a reader running
 * at the same time (`npm test` type-checks while the docs test builds the site) never sees a file half written.
 */
function writeIfChanged(path: string, content: string | Buffer): void {
  let current: Buffer | undefined;
  try {
    current = readFileSync(path);
  } catch {
    current = undefined;
  }
  if (current?.equals(Buffer.from(content))) return;
  writeFileSync(path, content);
}

/** The changelog page: CHANGELOG.md as it is, read as plain markdown (never as a Vue template). */
export function renderChangelogPage(changelog = readFileSync(fromPackageRoot("CHANGELOG.md"), "utf8")): string {
  // HTML comments are notes for maintainers (and Vue would keep them as nodes); they are not for readers.
  const body = changelog.replace(/<!--[\s\S]*?-->\n?/g, "");
  return ["---", 'title: "Changelog"', "outline: [2, 3]", "---", "", "::: v-pre", body.trimEnd(), ":::", ""].join("\n");
}

/** Writes every generated page into `root`, with the page of `overlay` when there is one (DOCS_OVERLAY by default). */
export async function writeGeneratedPages(root = docsRoot, overlay = docsOverlay()): Promise<void> {
  const loaded = overlay && (await loadOverlay(overlay.file, overlay.api));
  const referenceDir = join(root, "reference");
  const redocDir = join(root, "public", "redoc");
  const specsDir = join(root, "public", "specs");
  mkdirSync(redocDir, { recursive: true });
  mkdirSync(specsDir, { recursive: true });
  writeIfChanged(join(root, "changelog.md"), renderChangelogPage());
  const consoles: Record<string, TryItApi> = {};
  for (const api of API_NAMES) {
    const doc = readBundle(api);
    consoles[api] = tryItApi(api, doc, operationsOf(doc));
    const dir = join(referenceDir, api);
    mkdirSync(dir, { recursive: true });
    const deployment =
      loaded?.api === api
        ? { ...OVERLAY_PAGE, operations: overlayChanges(loaded).operations.map((change) => change.operationId) }
        : undefined;
    const pages = renderReferencePages(api, doc, deployment);
    pages.set("quirks", renderAnnotationPage("quirk", { api, doc }));
    pages.set("gaps", renderAnnotationPage("gap", { api, doc }));
    if (loaded?.api === api) pages.set(OVERLAY_PAGE.page, overlayPage(loaded));
    for (const [page, markdown] of pages) writeIfChanged(join(dir, `${page}.md`), markdown);
    // A page of a tag that no longer exists must not stay on the site.
    for (const file of readdirSync(dir))
      if (!pages.has(file.replace(/\.md$/, ""))) rmSync(join(dir, file), { recursive: true, force: true });
    writeIfChanged(join(specsDir, `${api}.json`), readFileSync(bundlePath(api)));
    const redoc = fromPackageRoot("generated", "reference", `${api}.html`);
    try {
      writeIfChanged(join(redocDir, `${api}.html`), readFileSync(redoc));
    } catch (error) {
      throw new Error(`${redoc} is missing: run \`npm run generate\` (${(error as Error).message})`, { cause: error });
    }
  }
  mkdirSync(join(root, ".vitepress"), { recursive: true });
  writeIfChanged(join(root, ".vitepress", "try-it.generated.json"), `${JSON.stringify(consoles, null, 2)}\n`);
}

// `npm run docs:pages`: the type check reads try-it.generated.json, so it writes the pages first.
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await writeGeneratedPages();
