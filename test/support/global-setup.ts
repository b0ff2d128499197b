// Compiles the package once before the tests, so that tests run the same `contracts` binary a user gets.
// Type errors do not stop the emit (and `npm run typecheck` reports them); only a failure to emit stops the tests.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

export default function setup(): void {
  const root = fileURLToPath(new URL("../..", import.meta.url));
  const result = spawnSync(process.execPath, [`${root}node_modules/typescript/bin/tsc`, "-p", "tsconfig.build.json"], { cwd: root, encoding: "utf8" });
  if (result.status !== 0) {
    process.stderr.write(`tsc reported type errors (see \`npm run typecheck\`):\n${result.stdout.split("\n").slice(0, 10).join("\n")}\n`);
  }
  if (result.error || !existsSync(`${root}dist/bin/contracts.js`)) throw new Error(`could not compile the package: ${result.error ?? result.stdout}`);
}
