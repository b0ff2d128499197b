// Compiles the package (tsc -p tsconfig.build.json into dist/) only when a source is newer than its output, so that
// `npm start` and the test run share one build and skip it when `npm install` (prepare) or an earlier run made it.
// Plain JavaScript so that it runs before anything is compiled.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { setImmediate } from "node:timers/promises";
import { fileURLToPath, pathToFileURL } from "node:url";
import { markBinExecutable } from "./bin-executable.mjs";

export const root = fileURLToPath(new URL("..", import.meta.url));
const config = join(root, "tsconfig.build.json");
/** @type {unknown} */
const buildConfig = JSON.parse(readFileSync(config, "utf8"));
const { include, compilerOptions } = /** @type {{ include: string[], compilerOptions: { outDir: string } }} */ (
  buildConfig
);
const outDir = join(root, compilerOptions.outDir);
export const cli = join(outDir, "bin", "contracts.js");

/** @param {string} dir @returns {Generator<string>} */
function* sourcesUnder(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* sourcesUnder(path);
    else if (entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts") && !entry.name.endsWith(".test.ts"))
      yield path; // tsconfig.build.json excludes tests
  }
}

/** @param {string} path */
const mtime = (path) => (existsSync(path) ? statSync(path).mtimeMs : -Infinity);

/**
 * Compiled files under `dist` that no source of tsconfig.build.json produces (a deleted or moved module's output,
 * which tsc leaves behind, or the output of an older configuration): `x.js` and `x.d.ts` come from `x.ts` under one
 * of its `include` folders; a JSON module is copied from the same path. Paths relative to `dist`.
 * @param {string} packageRoot
 * @param {string} dist
 * @returns {string[]}
 */
export function orphanOutputs(packageRoot, dist) {
  /** @type {unknown} */
  const parsed = JSON.parse(readFileSync(join(packageRoot, "tsconfig.build.json"), "utf8"));
  const config = /** @type {{ include: string[] }} */ (parsed);
  /** @param {string} file */
  const compiledFrom = (file) => {
    if (file.endsWith(".json")) return existsSync(join(packageRoot, file));
    const source = file.replace(/(\.d\.ts|\.js)$/, ".ts");
    return (
      source !== file &&
      config.include.some((dir) => source.startsWith(`${dir}/`)) &&
      existsSync(join(packageRoot, source))
    );
  };
  return readdirSync(dist, { recursive: true, encoding: "utf8" })
    .filter((name) => statSync(join(dist, name)).isFile())
    .map((name) => name.split("\\").join("/"))
    .filter((file) => !compiledFrom(file));
}

/** The first reason to compile, or undefined when every output is newer than its source and the configs. */
export function staleness() {
  if (!existsSync(cli)) return `${relative(root, cli)} does not exist`;
  const orphan = orphanOutputs(root, outDir)[0];
  if (orphan) return `dist/${orphan} has no source any more`;
  const configChanged = Math.max(mtime(config), mtime(join(root, "tsconfig.json")));
  if (configChanged > mtime(cli)) return "the TypeScript configuration changed";
  for (const dir of include) {
    if (!existsSync(join(root, dir))) continue;
    for (const source of sourcesUnder(join(root, dir))) {
      const output = join(outDir, relative(root, source)).replace(/\.ts$/, ".js");
      if (mtime(source) > mtime(output)) return `${relative(root, source)} is newer than its output`;
    }
  }
  // tsc copies the JSON modules (the bundled contracts) as they are: a spec edited and bundled again changes them
  // alone when the types stay the same.
  for (const file of readdirSync(outDir, { recursive: true, encoding: "utf8" })) {
    if (file.endsWith(".json") && mtime(join(root, file)) > mtime(join(outDir, file)))
      return `${file} is newer than its copy in dist/`;
  }
  return undefined;
}

/**
 * Compiles when stale and says why on stderr. Returns tsc's result (status, output), or undefined when the build
 * was fresh. tsc still emits on type errors (`npm run check:ts` reports them).
 * @param {"inherit" | "pipe"} stdio
 * @returns {import("node:child_process").SpawnSyncReturns<string> | undefined}
 */
export function buildIfStale(stdio = "inherit") {
  const reason = staleness();
  if (!reason) return undefined;
  process.stderr.write(`contracts: compiling, since ${reason} (tsc -p tsconfig.build.json)...\n`);
  // tsc leaves a deleted or moved module's output behind; the package must not ship it.
  if (existsSync(outDir)) for (const orphan of orphanOutputs(root, outDir)) rmSync(join(outDir, orphan));
  const tsc = spawnSync(process.execPath, [join(root, "node_modules", "typescript", "bin", "tsc"), "-p", config], {
    cwd: root,
    stdio,
    encoding: "utf8",
  });
  if (existsSync(join(outDir, "bin", "contracts.js"))) markBinExecutable();
  return tsc;
}

/**
 * `npm start` and `npm run sandbox`: runs `contracts <command>` from this checkout in this very process (no child),
 * compiled first only when stale. package.json starts the script with `exec`, so that npm's own child is this
 * process: the SIGINT or SIGTERM npm passes on reaches the command (a `sh -c` in between would die of SIGTERM and
 * hold SIGINT back). Extra arguments go to the command: `npm start -- --api links --dynamic`.
 * @param {string} command
 */
export async function runCli(command) {
  // Until the command watches the signals itself (lib/signals.ts, from the first moment of bin/contracts.js), they
  // are held here: a signal while tsc compiles (seconds) killed this process half-started, with tsc running on.
  /** @type {NodeJS.Signals | undefined} */
  let received;
  /** @param {NodeJS.Signals} signal */
  const hold = (signal) => void (received ??= signal);
  const signals = /** @type {const} */ (["SIGINT", "SIGTERM", "SIGHUP"]);
  for (const signal of signals) process.on(signal, hold);
  try {
    const tsc = buildIfStale();
    await setImmediate(); // a signal that came during the build is delivered now
    if (received) {
      process.stderr.write(`${received}: stopping before contracts ${command} started\n`);
      process.exit(0);
    }
    if (tsc && tsc.status !== 0) process.exit(tsc.status ?? 1);
    process.argv = [process.execPath, cli, command, ...process.argv.slice(2)];
    await import(pathToFileURL(cli).href); // its signal watch begins as it loads
  } finally {
    for (const signal of signals) process.off(signal, hold);
  }
  // One that came while it loaded, maybe before its watch began, is passed on: the watch stops it once it is up.
  if (received) process.kill(process.pid, received);
}

// `npm install` (prepare): compiles only when stale, so that the install npx makes of this checkout for
// `npx contracts` (a link, whose prepare npm runs again) does not compile a fresh build once more.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const tsc = buildIfStale();
  if (tsc) process.exitCode = tsc.error ? 1 : (tsc.status ?? 1);
}
