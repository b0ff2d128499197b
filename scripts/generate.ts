// Writes (or, with --check, verifies) everything in generated/ that is derived from specs/:
//   openapi: generated/openapi/<api>.json, one bundled document per API (Redocly CLI)
//   types:   generated/types/<api>.ts, from the bundle (openapi-typescript; output paths from redocly.yaml
//            x-openapi-ts)
//   reference: generated/reference/<api>.html, a standalone Redoc page that works offline (redocly build-docs
//              --inlineBundle), built from the readers' copy of the bundle (scripts/docs/reader-bundle.ts): code
//              samples at every operation and the quirks, gaps and assumptions that apply to it in its description
// Usage: tsx scripts/generate.ts [--check] [openapi|types|reference ...]
//        tsx scripts/generate.ts --overlay <file> --out <dir>: the bundle and the types of the API the overlay extends,
//        with the overlay applied, in <dir>/openapi/<api>.json and <dir>/types/<api>.ts (never in generated/: the
//        canonical contracts do not change)
import { execFile } from "node:child_process";
import { mkdtemp, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import openapiTS, { astToString, COMMENT_HEADER, type OpenAPI3 } from "openapi-typescript";
import { parse as parseYaml } from "yaml";
import type { ApiName, Document } from "../lib/contract/index.js";
import { readerBundle } from "./docs/reader-bundle.js";

const run = promisify(execFile);
const repoRoot = fileURLToPath(new URL("..", import.meta.url));
const KINDS = ["openapi", "types", "reference"] as const;
type Kind = (typeof KINDS)[number];

interface RedoclyApi {
  root: string;
  "x-openapi-ts": { output: string };
}

async function redoclyApis(): Promise<Record<string, RedoclyApi>> {
  const config = parseYaml(await readFile(join(repoRoot, "redocly.yaml"), "utf8")) as {
    apis: Record<string, RedoclyApi>;
  };
  return config.apis;
}

/** The bundled document of one API, as the JSON text we commit. */
async function bundle(api: string, workDir: string): Promise<string> {
  const out = join(workDir, `${api}.json`);
  await run(join(repoRoot, "node_modules/.bin/redocly"), ["bundle", api, "--output", out], {
    cwd: repoRoot,
    env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
  });
  return `${JSON.stringify(JSON.parse(await readFile(out, "utf8")), null, 2)}\n`;
}

// Redoc's sidebar footer loads the Redocly logo from a CDN even with --inlineBundle, and build-docs has no option to
// turn it off; the page must make no request at all, so the logo becomes an inline SVG of the same word. (Its icon
// CDN bases stay: they are only used for icons configured in a theme, which we have none of; test/docs proves that
// the pages load nothing from outside in a real browser.)
const REDOC_CDN_LOGOS = ["https://cdn.redoc.ly/redoc/logo-mini-full.svg", "https://cdn.redoc.ly/redoc/logo-mini.svg"];
const INLINE_REDOCLY_LOGO = `data:image/svg+xml,${encodeURIComponent(
  "<svg xmlns='http://www.w3.org/2000/svg' width='56' height='14'><text x='0' y='11' font-family='sans-serif' font-size='11' fill='#6b6b6b'>Redocly</text></svg>",
)}`;

/** The standalone reference page of one API: Redoc with its scripts inlined, telemetry off, no network request. */
async function reference(api: string, bundleJson: string, workDir: string): Promise<string> {
  const out = join(workDir, `${api}.html`);
  const readerCopy = join(workDir, `${api}.reader.json`);
  await writeFile(readerCopy, JSON.stringify(readerBundle(api as ApiName, JSON.parse(bundleJson) as Document)));
  await run(
    join(repoRoot, "node_modules/.bin/redocly"),
    ["build-docs", readerCopy, "--inlineBundle", "--output", out],
    {
      cwd: repoRoot,
      env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
    },
  );
  let html = await readFile(out, "utf8");
  for (const logo of REDOC_CDN_LOGOS) {
    if (!html.includes(logo))
      throw new Error(
        `redocly build-docs no longer references ${logo}; review the offline patch in scripts/generate.ts`,
      );
    html = html.replaceAll(logo, INLINE_REDOCLY_LOGO);
  }
  return html;
}

async function types(bundleJson: string): Promise<string> {
  const ast = await openapiTS(JSON.parse(bundleJson) as OpenAPI3, { silent: true });
  return `${COMMENT_HEADER}${astToString(ast)}`;
}

/** Every derived file of the requested kinds, keyed by its path relative to the repository. */
export async function renderGeneratedFiles(kinds: readonly Kind[] = KINDS): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  const workDir = await mkdtemp(join(tmpdir(), "contracts-generate-"));
  try {
    const apis = await redoclyApis();
    await Promise.all(
      Object.entries(apis).map(async ([api, config]) => {
        const bundled = await bundle(api, workDir);
        if (kinds.includes("openapi")) files.set(`generated/openapi/${api}.json`, bundled);
        if (kinds.includes("types")) files.set(config["x-openapi-ts"].output, await types(bundled));
        if (kinds.includes("reference"))
          files.set(`generated/reference/${api}.html`, await reference(api, bundled, workDir));
      }),
    );
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
  return new Map([...files].sort(([a], [b]) => a.localeCompare(b)));
}

/** `--overlay <file> --out <dir>`: the overlaid bundle and its types, written outside generated/. */
async function generateOverlaid(file: string, out: string | undefined): Promise<void> {
  if (!out) throw new Error("generate: --overlay needs --out <dir>, where the overlaid bundle and types are written");
  const outDir = resolve(out);
  if (!relative(join(repoRoot, "generated"), outDir).startsWith("..") || outDir === resolve(repoRoot))
    throw new Error(
      `generate: --out ${out} is generated/ or the repository: the canonical files are never overwritten`,
    );
  const { loadOverlay } = await import("../lib/contract/overlay.js");
  const { api, document } = await loadOverlay(file);
  const bundled = `${JSON.stringify(document, null, 2)}\n`;
  const written = [join(outDir, "openapi", `${api}.json`), join(outDir, "types", `${api}.ts`)];
  await mkdir(dirname(written[0]!), { recursive: true });
  await mkdir(dirname(written[1]!), { recursive: true });
  await writeFile(written[0]!, bundled);
  await writeFile(written[1]!, await types(bundled));
  for (const path of written) console.log(`wrote ${path} (${api} with the overlay ${file})`);
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const overlayAt = args.indexOf("--overlay");
  if (overlayAt >= 0) {
    const outAt = args.indexOf("--out");
    return generateOverlaid(args[overlayAt + 1] ?? "", outAt >= 0 ? args[outAt + 1] : undefined);
  }
  const check = args.includes("--check");
  const unknown = args.filter((a) => a !== "--check" && !KINDS.includes(a as Kind));
  if (unknown.length > 0) {
    console.error(`generate: unknown argument ${unknown.join(", ")}; expected --check and/or ${KINDS.join(", ")}`);
    process.exit(2);
  }
  const kinds = args.filter((a): a is Kind => KINDS.includes(a as Kind));
  const files = await renderGeneratedFiles(kinds.length > 0 ? kinds : KINDS);
  const stale: string[] = [];
  for (const [path, content] of files) {
    const absolute = join(repoRoot, path);
    const current = await readFile(absolute, "utf8").catch(() => undefined);
    if (current === content) continue;
    if (check) {
      stale.push(path);
    } else {
      await mkdir(dirname(absolute), { recursive: true });
      await writeFile(absolute, content);
      console.log(`wrote ${relative(repoRoot, absolute)}`);
    }
  }
  if (check && stale.length > 0) {
    console.error(`generated files are stale (run \`npm run generate\` and commit):\n  ${stale.join("\n  ")}`);
    process.exit(1);
  }
  if (check) console.log(`generated/ is up to date (${files.size} files)`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
