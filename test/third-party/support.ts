// Runs the OpenAPI tools that integrators use on our bundles, each in a temporary directory of its own (some write
// relative to the working directory whatever output path they are given), with the repository's node_modules linked
// in so that their output resolves its imports (zod, @zodios/core, the hey-api client) the way an integrator's does.
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { API_NAMES, type ApiName } from "../../lib/contract/index.js";
import { repoRoot } from "../support/processes.js";

export const APIS: readonly ApiName[] = API_NAMES;
const run = promisify(execFile);
const bin = (name: string) => join(repoRoot, "node_modules", ".bin", name);

export interface Outcome {
  code: number;
  output: string;
}

/** Runs a tool of node_modules/.bin in `cwd`; never throws, the exit code and output say how it went. */
export async function tool(name: string, args: string[], cwd: string): Promise<Outcome> {
  try {
    const { stdout, stderr } = await run(bin(name), args, { cwd, maxBuffer: 64 * 1024 * 1024, timeout: 240_000 });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string; message: string };
    return { code: typeof failed.code === "number" ? failed.code : 1, output: failed.stdout ?? failed.message };
  }
}

/** A fresh temporary directory with node_modules linked in; removed by `remove`. */
export function workspace(prefix: string): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), `third-party-${prefix}-`));
  symlinkSync(join(repoRoot, "node_modules"), join(dir, "node_modules"), "dir");
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export const bundlePath = (api: ApiName) => join(repoRoot, "generated", "openapi", `${api}.json`);

/**
 * Generates clients from `bundles` (api -> path of a bundle) into `dir` with @hey-api/openapi-ts (`hey/<api>`),
 * openapi-zod-client (`zod/<api>.ts`) and orval (`orval/<api>/client.ts`), all at once. Returns each run's outcome.
 */
export async function generateClients(dir: string, bundles: Partial<Record<ApiName, string>>): Promise<Outcome[]> {
  const entries = Object.entries(bundles) as Array<[ApiName, string]>;
  const orvalProjects = Object.fromEntries(
    entries.map(([api, path]) => [
      api,
      // mode "single": in "split" mode orval 7 leaves the token request's oneOf branch types unimported.
      { input: { target: path }, output: { target: `orval/${api}/client.ts`, client: "fetch", mode: "single" } },
    ]),
  );
  writeFileSync(join(dir, "orval.config.cjs"), `module.exports = ${JSON.stringify(orvalProjects, null, 2)};\n`);
  mkdirSync(join(dir, "zod"), { recursive: true }); // openapi-zod-client does not create its output directory
  return Promise.all([
    tool("orval", ["--config", "orval.config.cjs"], dir),
    ...entries.flatMap(([api, path]) => [
      tool("openapi-ts", ["-i", path, "-o", `hey/${api}`, "-c", "@hey-api/client-fetch"], dir),
      tool("openapi-zod-client", [path, "-o", `zod/${api}.ts`, "--export-schemas", "--strict-objects"], dir),
    ]),
  ]);
}

/** `tsc --strict` over everything under `dir` (the generated clients and the quirk tests copied there). */
export function typeCheck(dir: string, include: string[]): Promise<Outcome> {
  const compilerOptions = {
    strict: true,
    noEmit: true,
    target: "ES2022",
    module: "ESNext",
    moduleResolution: "Bundler",
    // @hey-api/openapi-ts's client iterates Headers and FormData: it needs the DOM's iterable lib.
    lib: ["ES2022", "DOM", "DOM.Iterable"],
    skipLibCheck: true,
    types: [],
  };
  writeFileSync(join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions, include }, null, 2));
  return tool("tsc", ["-p", "tsconfig.json", "--pretty", "false"], dir);
}

/** Writes `dir/<api>-2XX.json`: the bundle with every `200` success declared as the range `2XX` again (issue 34). */
export function bundleWithRangeSuccess(dir: string, api: ApiName): string {
  const bundle = JSON.parse(readFileSync(bundlePath(api), "utf8"));
  for (const item of Object.values<Record<string, { responses?: Record<string, unknown> }>>(bundle.paths))
    for (const operation of Object.values(item)) {
      const { "200": success, ...others } = operation.responses ?? {};
      if (success !== undefined) operation.responses = { "2XX": success, ...others };
    }
  const path = join(dir, `${api}-2XX.json`);
  writeFileSync(path, JSON.stringify(bundle));
  return path;
}
