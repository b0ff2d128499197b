// Where the package's own files are, whether this code runs from source (lib/) or compiled (dist/lib/).
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

function findPackageRoot(from: string): string {
  let dir = from;
  while (!existsSync(join(dir, "package.json")) || !existsSync(join(dir, "specs"))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`cannot find the contracts package root above ${from}`);
    dir = parent;
  }
  return dir;
}

export const packageRoot = findPackageRoot(dirname(fileURLToPath(import.meta.url)));

export function fromPackageRoot(...segments: string[]): string {
  return join(packageRoot, ...segments);
}

/** The bundled contract of one API on disk: generated/openapi/<api>.json. */
export function bundlePath(api: string): string {
  return fromPackageRoot("generated", "openapi", `${api}.json`);
}
