// What several test files need and only one should make, once per test run: the docs site's build, the packed
// tarballs, the application with both packages installed. The global setup gives each run a directory of its own
// (test/support/global-setup.ts); the first file that asks for an artifact makes it there, the others wait for it.
// Files run in separate workers (processes), so the directory, not a variable, says who makes it and when it is done.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { inject } from "vitest";

declare module "vitest" {
  export interface ProvidedContext {
    /** An empty directory of this test run for what its files share; removed when the run ends. */
    sharedRunDir: string;
  }
}

/**
 * The directory of `name` in this run's shared directory: made by `make` here, or by another test file of this run.
 * A failure is every asker's failure, with the maker's error.
 */
export async function oncePerRun(
  name: string,
  make: (dir: string) => Promise<void>,
  timeoutMs: number,
): Promise<string> {
  const runDir = inject("sharedRunDir");
  const dir = join(runDir, name);
  const done = join(runDir, `${name}.done`);
  const failed = join(runDir, `${name}.failed`);
  let maker = true;
  try {
    mkdirSync(dir); // atomic: exactly one file of the run makes it
  } catch {
    maker = false;
  }
  if (maker) {
    try {
      await make(dir);
      writeFileSync(done, "");
    } catch (error) {
      writeFileSync(failed, error instanceof Error ? (error.stack ?? error.message) : String(error));
      throw error;
    }
    return dir;
  }
  const deadline = Date.now() + timeoutMs;
  while (!existsSync(done)) {
    if (existsSync(failed))
      throw new Error(`${name}, made by another test file, failed:\n${readFileSync(failed, "utf8")}`);
    if (Date.now() > deadline) throw new Error(`${name} was not made within ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return dir;
}
