// A local run of the pinned Schemathesis (scripts/schemathesis-install.sh puts it in .venv-schemathesis/) on a project
// that `contracts schemathesis` wrote: what the tests and `npm run bench:schemathesis` run, as a user's `st run` would.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import type { ApiName } from "../../lib/contract/index.js";
import { fromPackageRoot } from "../../lib/paths.js";

const run = promisify(execFile);

export const LOCAL_ST = fromPackageRoot(".venv-schemathesis", "bin", "st");

/** Installs the pinned Schemathesis into .venv-schemathesis/ unless it is there already (idempotent, quiet). */
export async function installSchemathesis(): Promise<void> {
  await run("bash", [fromPackageRoot("scripts", "schemathesis-install.sh")], { timeout: 600_000 });
}

export interface LocalRun {
  /** Schemathesis's exit code: 0 when it found no failure and no error. */
  code: number;
  output: string;
}

/** `st run <api>.openapi.json --url <baseUrl> --seed <seed> ...more` in the project folder, with `env` added. */
export async function runLocalSchemathesis(
  dir: string,
  api: ApiName,
  baseUrl: string,
  options: { seed: number; env: Record<string, string>; more?: string[] },
): Promise<LocalRun> {
  const args = [
    "run",
    `${api}.openapi.json`,
    "--url",
    baseUrl,
    "--seed",
    String(options.seed),
    ...(options.more ?? []),
  ];
  return run(LOCAL_ST, args, {
    cwd: dir,
    env: { ...process.env, ...options.env, NO_COLOR: "1" },
    timeout: 900_000,
    maxBuffer: 64 << 20,
  }).then(
    ({ stdout, stderr }) => ({ code: 0, output: stdout + stderr }),
    (error: { code?: number | string; stdout?: string; stderr?: string; message: string }) => ({
      code: typeof error.code === "number" ? error.code : 2,
      output: `${error.stdout ?? ""}${error.stderr ?? ""}${typeof error.code === "number" ? "" : error.message}`,
    }),
  );
}
