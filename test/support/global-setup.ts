// Compiles the package before the tests, so that tests run the same `contracts` binary a user gets; skipped when
// dist/ is newer than every source (after `npm install`, whose prepare script builds, or an earlier run).
// Type errors do not stop the emit (and `npm run typecheck` reports them); only a failure to emit stops the tests.
import { existsSync } from "node:fs";
import { buildIfStale, cli } from "../../scripts/build-if-stale.mjs";

export default function setup(): void {
  const result = buildIfStale("pipe");
  if (result && result.status !== 0) {
    process.stderr.write(`tsc reported type errors (see \`npm run typecheck\`):\n${result.stdout.split("\n").slice(0, 10).join("\n")}\n`);
  }
  if (result?.error || !existsSync(cli)) throw new Error(`could not compile the package: ${result?.error ?? result?.stdout}`);
}
