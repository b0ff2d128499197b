// A fresh checkout of this repository in a scratch directory, for the release proofs that start where a new user or
// writer starts: the files a clone of this checkout has (the tracked ones, and the new ones git does not ignore, as the
// working tree has them, so that uncommitted work is proven too) and none of what git ignores (node_modules/, dist/,
// the docs caches, .tmp/).
import { copyFileSync, existsSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { gitOutput, repoRoot } from "./processes.js";

export async function freshCheckout(dir: string): Promise<void> {
  const files = (await gitOutput(["ls-files", "-z", "--cached", "--others", "--exclude-standard"])).split("\0");
  // A tracked file deleted in the working tree is listed too; a clone of the work would not have it.
  for (const file of new Set(files.filter((file) => file && existsSync(join(repoRoot, file))))) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    copyFileSync(join(repoRoot, file), join(dir, file));
  }
}
