// After a build: marks the compiled `contracts` command executable. tsc writes a new file without the executable
// bit, and npm sets it only when it links the bin; `npx contracts` in a checkout whose npx cache entry already exists
// (a clone at the same path as before) runs the file as it is, and a fresh build failed with "Permission denied".
// `npm run build` runs this file; scripts/build-if-stale.mjs calls the function.
import { chmodSync } from "node:fs";
import { pathToFileURL } from "node:url";

export function markBinExecutable() {
  chmodSync(new URL("../dist/bin/contracts.js", import.meta.url), 0o755);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) markBinExecutable();
