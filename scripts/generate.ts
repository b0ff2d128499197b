// Writes (or, with --check, verifies) everything in generated/ that is derived from specs/:
//   openapi: generated/openapi/<api>.json, one bundled document per API (Redocly CLI)
//   types:   generated/types/<api>.ts, from the bundle (openapi-typescript; output paths from redocly.yaml x-openapi-ts)
// Usage: tsx scripts/generate.ts [--check] [openapi|types ...]
import { execFile } from "node:child_process";
import { mkdtemp, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import openapiTS, { astToString, COMMENT_HEADER } from "openapi-typescript";
import { parse as parseYaml } from "yaml";

const run = promisify(execFile);
const repoRoot = fileURLToPath(new URL("..", import.meta.url));
const KINDS = ["openapi", "types"] as const;
type Kind = (typeof KINDS)[number];

interface RedoclyApi {
  root: string;
  "x-openapi-ts": { output: string };
}

async function redoclyApis(): Promise<Record<string, RedoclyApi>> {
  const config = parseYaml(await readFile(join(repoRoot, "redocly.yaml"), "utf8")) as { apis: Record<string, RedoclyApi> };
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

async function types(bundleJson: string): Promise<string> {
  const ast = await openapiTS(JSON.parse(bundleJson), { silent: true });
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
      }),
    );
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
  return new Map([...files].sort(([a], [b]) => a.localeCompare(b)));
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
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
