// Released versions of the contracts and the versioning rules shared by `npm run release` and the CI gate.
//
// releases/<package version>/<api>.json holds the bundles exactly as released. The last release is the baseline
// that CI compares generated/openapi/<api>.json against, so the gate works on a fresh clone without git tags.
//
// Versions follow semver with npm's caret rule: a breaking change bumps the leftmost non-zero number (1.4.2 ->
// 2.0.0, 0.3.1 -> 0.4.0), so `^<old>` never installs it; a backward-compatible change bumps the next one (1.4.2 ->
// 1.5.0, 0.3.1 -> 0.3.2); anything else (descriptions, examples) bumps the patch.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import semver from "semver";
import { diffDocuments, type DiffResult } from "../lib/diff/index.js";
import type { Document } from "../lib/contract/index.js";
import { escapeRegExp } from "../lib/regexp.js";

export type Level = "breaking" | "feature" | "fix";
const LEVELS: Level[] = ["fix", "feature", "breaking"];

export function higherLevel(a: Level | undefined, b: Level | undefined): Level | undefined {
  if (!a || !b) return a ?? b;
  return LEVELS.indexOf(a) >= LEVELS.indexOf(b) ? a : b;
}

/** The smallest version after `version` that announces a change of this level. */
export function bumpVersion(version: string, level: Level): string {
  const v = semver.parse(version);
  if (!v) throw new Error(`"${version}" is not a semver version`);
  if (level === "fix") return semver.inc(v, "patch")!;
  const leftmost = v.major > 0 ? "major" : v.minor > 0 ? "minor" : "patch";
  const next = { major: "minor", minor: "patch", patch: "patch" } as const;
  return semver.inc(v, level === "breaking" ? leftmost : next[leftmost])!;
}

/** True when `to` announces a breaking change over `from`: later, and outside `^from`. */
export function isBreakingBump(from: string, to: string): boolean {
  return semver.gt(to, from) && !semver.satisfies(to, `^${from}`);
}

export interface Release {
  version: string;
  dir: string;
  /** API name -> released bundle file. */
  bundles: Map<string, string>;
}

export function listReleases(root: string): Release[] {
  const base = join(root, "releases");
  if (!existsSync(base)) return [];
  return readdirSync(base)
    .filter((name) => semver.valid(name))
    .sort(semver.compare)
    .map((version) => {
      const dir = join(base, version);
      const files = readdirSync(dir).filter((f) => f.endsWith(".json"));
      return { version, dir, bundles: new Map(files.map((f) => [f.slice(0, -".json".length), join(dir, f)])) };
    });
}

export function latestRelease(root: string): Release | undefined {
  return listReleases(root).at(-1);
}

/** API name -> bundle file for the current bundles in generated/openapi/. */
export function currentBundles(root: string): Map<string, string> {
  const dir = join(root, "generated", "openapi");
  const files = existsSync(dir)
    ? readdirSync(dir)
        .filter((f) => f.endsWith(".json"))
        .sort()
    : [];
  return new Map(files.map((f) => [f.slice(0, -".json".length), join(dir, f)]));
}

export function readDocument(file: string): Document {
  return JSON.parse(readFileSync(file, "utf8")) as Document;
}

export function packageVersion(root: string): string {
  return (JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { version: string }).version;
}

export function readChangelog(root: string): string {
  const file = join(root, "CHANGELOG.md");
  return existsSync(file) ? readFileSync(file, "utf8") : "";
}

/** The heading that announces a version of one contract: `### links 0.2.0` (or `### links removed`). */
export function changelogHeading(api: string, version: string): string {
  return `### ${api} ${version}`;
}

export function changelogHasEntry(changelog: string, api: string, version: string): boolean {
  return new RegExp(`^${escapeRegExp(changelogHeading(api, version))}[ \\t]*$`, "m").test(changelog);
}

/** How one contract changed since a release. */
export interface ContractChange {
  api: string;
  released?: Document;
  current?: Document;
  /** Absent when the contract is new or was removed. */
  diff?: DiffResult;
  /** The level of the change; undefined when the bundle is byte-for-byte the same. */
  level?: Level;
}

export function compareWithRelease(root: string, release: Release | undefined): ContractChange[] {
  const current = currentBundles(root);
  const apis = [...new Set([...(release?.bundles.keys() ?? []), ...current.keys()])].sort();
  return apis.map((api) => {
    const releasedFile = release?.bundles.get(api);
    const currentFile = current.get(api);
    const released = releasedFile ? readDocument(releasedFile) : undefined;
    const now = currentFile ? readDocument(currentFile) : undefined;
    if (!released || !now) return { api, released, current: now, level: released ? "breaking" : "feature" };
    const diff = diffDocuments(released, now);
    const identical = JSON.stringify(released) === JSON.stringify(now);
    const level: Level | undefined =
      diff.breaking > 0 ? "breaking" : diff.changes.length > 0 ? "feature" : identical ? undefined : "fix";
    return { api, released, current: now, diff, level };
  });
}
