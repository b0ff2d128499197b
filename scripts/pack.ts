// `npm run pack -- <dir>`: builds the two published packages from this repository and writes their tarballs into
// <dir> (also what `npm run release` versions and the package tests install):
//
//   @platform/contracts        packages/contracts        types, the four clients, the bundled contracts
//   @platform/contracts-tools  packages/contracts-tools  the `contracts` CLI and the MSW handlers
//
// Each packages/<name>/package.json is the published manifest; its `files` are paths in this repository (compiled
// ones under dist/), copied as they are into a staging directory that `npm pack` then packs. The repository root
// stays the private development root: one build, one node_modules, one version.
//
// Before packing, each package is checked, so that a broken package fails here rather than at a user's:
// - its version is the root package.json's (the packages are versioned together);
// - each dependency range is the root's range for that package, i.e. the version the repository's tests ran with;
// - every module it ships imports only files it ships, its declared (peer) dependencies and, outside what a
//   browser loads, Node built-ins; what a browser loads (BROWSER_ENTRIES and everything they import) has no
//   Node built-in at all.
import { execFile } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { orphanOutputs } from "./build-if-stale.mjs";

const run = promisify(execFile);

export const PACKAGE_DIRS = ["contracts", "contracts-tools"] as const;

/** Export subpaths that browsers load: none of them, nor anything they import, may import a Node built-in. */
export const BROWSER_ENTRIES: Record<string, string[]> = {
  "@platform/contracts": ["./links", "./catalog", "./pay", "./identity"],
  "@platform/contracts-tools": ["./msw"],
};

export interface PackageManifest {
  name: string;
  version: string;
  files: string[];
  exports: Record<string, string | Record<string, string>>;
  bin?: Record<string, string>;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  engines?: Record<string, string>;
}

export interface PackedPackage {
  name: string;
  version: string;
  /** Absolute path of the tarball. */
  tarball: string;
  files: string[];
  /** Unpacked size in bytes, as npm reports it. */
  unpackedSize: number;
}

export function readManifest(file: string): PackageManifest {
  return JSON.parse(readFileSync(file, "utf8")) as PackageManifest;
}

/** The manifests of the published packages: packages/<dir>/package.json (those that exist under `root`). */
export function packageManifests(root: string): Array<{ dir: string; file: string; manifest: PackageManifest }> {
  return PACKAGE_DIRS.map((dir) => ({ dir, file: join(root, "packages", dir, "package.json") }))
    .filter(({ file }) => existsSync(file))
    .map(({ dir, file }) => ({ dir, file, manifest: readManifest(file) }));
}

/** What is wrong with a package's manifest against the root's version and dependency ranges. */
export function manifestProblems(root: string, manifest: PackageManifest): string[] {
  const rootManifest = readManifest(join(root, "package.json"));
  const tested = { ...rootManifest.devDependencies, ...rootManifest.dependencies };
  const problems: string[] = [];
  if (manifest.version !== rootManifest.version)
    problems.push(`version ${manifest.version} is not the root package.json's ${rootManifest.version}`);
  for (const [name, range] of Object.entries({ ...manifest.dependencies, ...manifest.peerDependencies })) {
    if (tested[name] === undefined) problems.push(`depends on ${name}, which the root package.json does not install`);
    else if (tested[name] !== range)
      problems.push(`depends on ${name}@${range}; the root package.json tests ${tested[name]}`);
  }
  return problems;
}

function listFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((name) => statSync(join(dir, name)).isFile())
    .map((name) => name.split("\\").join("/"));
}

const IMPORT_PATTERN =
  /(?:^|[\s;})])(?:import|export)\s*(?:[^'"();]*?\sfrom\s*)?["']([^"']+)["']|\bimport\(\s*["']([^"']+)["']\s*\)/g;

function importsOf(file: string): string[] {
  // Comments may show imports (usage samples); tsc keeps them, so they are dropped before looking.
  const text = readFileSync(file, "utf8")
    .replace(/\/\*[\s\S]*?\*\//g, "")
    .replace(/^\s*\/\/.*$/gm, "");
  return [...text.matchAll(IMPORT_PATTERN)].map((match) => (match[1] ?? match[2])!);
}

function packageNameOf(specifier: string): string {
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0]!;
}

function exportTarget(target: string | Record<string, string> | undefined): string | undefined {
  if (typeof target === "string") return target;
  return target?.default ?? target?.node;
}

/** Checks the imports of every module in a staged package (see the top of this file). */
export function importProblems(stage: string, manifest: PackageManifest): string[] {
  const declared = new Set(Object.keys({ ...manifest.dependencies, ...manifest.peerDependencies }));
  const problems: string[] = [];
  const modules = listFiles(stage).filter((f) => f.endsWith(".js"));
  const nodeImports = new Map<string, string[]>();
  const localImports = new Map<string, string[]>();
  for (const module of modules) {
    const locals: string[] = [];
    const builtins: string[] = [];
    for (const specifier of importsOf(join(stage, module))) {
      if (specifier.startsWith(".")) {
        const target = relative(stage, resolve(dirname(join(stage, module)), specifier))
          .split("\\")
          .join("/");
        if (!existsSync(join(stage, target)))
          problems.push(`${module} imports ${specifier}, which the package does not contain`);
        else locals.push(target);
      } else if (specifier.startsWith("node:")) {
        builtins.push(specifier);
      } else if (!declared.has(packageNameOf(specifier))) {
        problems.push(`${module} imports ${specifier}, which is not a dependency of ${manifest.name}`);
      }
    }
    localImports.set(module, locals);
    nodeImports.set(module, builtins);
  }
  for (const subpath of BROWSER_ENTRIES[manifest.name] ?? []) {
    const entry = exportTarget(manifest.exports[subpath])?.replace(/^\.\//, "");
    if (!entry) {
      problems.push(`the browser entry ${subpath} is not exported`);
      continue;
    }
    const seen = new Set<string>();
    const queue = [entry];
    while (queue.length > 0) {
      const module = queue.pop()!;
      if (seen.has(module)) continue;
      seen.add(module);
      for (const builtin of nodeImports.get(module) ?? [])
        problems.push(`${module} (loaded by ${manifest.name}/${subpath.slice(2)} in browsers) imports ${builtin}`);
      queue.push(...(localImports.get(module) ?? []));
    }
  }
  return problems;
}

export interface PackOptions {
  /**
   * A dist/ compiled from the current sources with tsconfig.build.json (the tests pass the checkout's, which their
   * global setup keeps fresh) instead of a clean build of its own; refused when it holds a file no source produces.
   */
  compiled?: string;
}

/** Builds, checks and packs both packages into `destination`. */
export async function packPackages(
  root: string,
  destination: string,
  options: PackOptions = {},
): Promise<PackedPackage[]> {
  mkdirSync(destination, { recursive: true });
  const work = mkdtempSync(join(tmpdir(), "contracts-pack-"));
  try {
    // A clean build of its own by default, so that no stale file of the repository's dist/ is shipped.
    const dist = options.compiled ?? join(work, "build", "dist");
    if (options.compiled) {
      const orphans = orphanOutputs(root, options.compiled);
      if (orphans.length > 0)
        throw new Error(
          `${options.compiled} holds files no source produces (run a clean build): ${orphans.join(", ")}`,
        );
    } else {
      await run(
        process.execPath,
        [
          join(root, "node_modules", "typescript", "bin", "tsc"),
          "-p",
          join(root, "tsconfig.build.json"),
          "--outDir",
          dist,
        ],
        { cwd: root },
      ).catch((error: Error & { stdout?: string }) =>
        Promise.reject(new Error(`the build failed:\n${error.stdout ?? String(error)}`)),
      );
    }
    const packed: PackedPackage[] = [];
    const manifests = packageManifests(root);
    if (manifests.length !== PACKAGE_DIRS.length)
      throw new Error(`expected ${PACKAGE_DIRS.map((dir) => `packages/${dir}/package.json`).join(" and ")}`);
    for (const { dir, manifest } of manifests) {
      const problems = manifestProblems(root, manifest).map((p) => `packages/${dir}/package.json: ${p}`);
      const stage = join(work, dir);
      mkdirSync(stage);
      for (const path of manifest.files) {
        const source =
          path === "dist" || path.startsWith("dist/") ? join(dist, path.slice("dist".length)) : join(root, path);
        if (!existsSync(source)) throw new Error(`packages/${dir}/package.json lists ${path}, which does not exist`);
        cpSync(source, join(stage, path), { recursive: true });
      }
      cpSync(join(root, "packages", dir, "README.md"), join(stage, "README.md"));
      cpSync(join(root, "LICENSE"), join(stage, "LICENSE"));
      writeFileSync(join(stage, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
      problems.push(...importProblems(stage, manifest));
      if (problems.length > 0) throw new Error(`${manifest.name} cannot be packed:\n  ${problems.join("\n  ")}`);
      const { stdout } = await run("npm", ["pack", stage, "--json", "--pack-destination", destination], {
        cwd: work,
        maxBuffer: 64 * 1024 * 1024,
      });
      const [result] = JSON.parse(stdout) as Array<{
        filename: string;
        unpackedSize: number;
        files: Array<{ path: string }>;
      }>;
      packed.push({
        name: manifest.name,
        version: manifest.version,
        tarball: join(destination, result!.filename),
        files: result!.files.map((f) => f.path).sort(),
        unpackedSize: result!.unpackedSize,
      });
    }
    return packed;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const destination = process.argv[2];
  if (!destination) {
    console.error("usage: npm run pack -- <dir>   (writes the tarballs of both packages into <dir>)");
    process.exit(2);
  }
  const root = fileURLToPath(new URL("..", import.meta.url));
  for (const p of await packPackages(root, resolve(destination))) {
    console.log(
      `${p.name}@${p.version}: ${p.tarball} (${p.files.length} files, ${(p.unpackedSize / 1e6).toFixed(1)} MB unpacked)`,
    );
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().catch((error: unknown) => {
    console.error(`pack: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  });
}
