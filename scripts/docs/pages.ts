// Writes the generated pages of the docs site from the bundles (run by docs/.vitepress/config.ts each time VitePress
// starts, so `docs:dev`, `docs:build` and the tests always show the current contracts):
//   docs/reference/<api>/index.md   the reference (operations, webhooks, schemas, examples)
//   docs/reference/<api>/quirks.md  every x-quirk
//   docs/reference/<api>/gaps.md    every x-undocumented
//   docs/public/redoc/<api>.html    the standalone Redoc page from generated/reference/
// Both folders are git-ignored: only the specs are the source.
import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { API_NAMES } from "../../lib/openapi.js";
import { fromPackageRoot } from "../../lib/paths.js";
import { renderAnnotationPage } from "./annotations.js";
import { type ApiName, readBundle } from "./document.js";
import { renderReferencePage } from "./reference-page.js";

const docsRoot = fromPackageRoot("docs");

/** Folders of docs/ that hold generated or configuration files, not hand-written pages. */
const NOT_HAND_WRITTEN = new Set(["reference", "public", ".vitepress"]);

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

/** Writes a file only when its content changed, so the dev server does not reload for nothing. */
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

export function writeGeneratedPages(root = docsRoot): void {
  const referenceDir = join(root, "reference");
  const redocDir = join(root, "public", "redoc");
  for (const api of API_NAMES) {
    const doc = readBundle(api);
    const dir = join(referenceDir, api);
    mkdirSync(dir, { recursive: true });
    writeIfChanged(join(dir, "index.md"), renderReferencePage(api, doc));
    writeIfChanged(join(dir, "quirks.md"), renderAnnotationPage("quirk", { api, doc }));
    writeIfChanged(join(dir, "gaps.md"), renderAnnotationPage("gap", { api, doc }));
    mkdirSync(redocDir, { recursive: true });
    const redoc = fromPackageRoot("generated", "reference", `${api}.html`);
    try {
      copyFileSync(redoc, join(redocDir, `${api}.html`));
    } catch (error) {
      throw new Error(`${redoc} is missing: run \`npm run generate\` (${(error as Error).message})`);
    }
  }
}
