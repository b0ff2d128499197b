// CI gate (`npm run check:breaking`, part of `npm test`): compares every bundle in generated/openapi/ with the last
// release in releases/ and fails on a breaking change that is not announced. A breaking change of a contract is
// announced by (1) its info.version bumped as a breaking change, (2) a `### <api> <version>` entry in
// CHANGELOG.md and (3) the package version bumped as a breaking change too, since its clients and types change.
// The two published packages (packages/contracts, packages/contracts-tools) carry the root package.json's version,
// so the gate also fails when either manifest has another version.
// Usage: tsx scripts/check-breaking.ts [--root <dir>]
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import semver from "semver";
import { formatReport } from "../lib/diff/index.js";
import { packageManifests } from "./pack.js";
import {
  bumpVersion,
  changelogHasEntry,
  compareWithRelease,
  type ContractChange,
  isBreakingBump,
  latestRelease,
  packageVersion,
  readChangelog,
} from "./releases.js";

export interface Verdict extends ContractChange {
  /** What must be fixed before this can merge; empty when the contract passes. */
  problems: string[];
  summary: string;
}

export interface GateResult {
  release?: string;
  verdicts: Verdict[];
  /** Published packages whose version is not the root package.json's. */
  packageProblems: string[];
  passed: boolean;
}

/** The published packages are versioned together: each manifest carries the root package.json's version. */
export function packageVersionProblems(root: string): string[] {
  const version = packageVersion(root);
  return packageManifests(root)
    .filter(({ manifest }) => manifest.version !== version)
    .map(
      ({ dir, manifest }) =>
        `packages/${dir}/package.json (${manifest.name}) has version ${manifest.version}, not the root package.json's ${version}`,
    );
}

export function checkBreakingChanges(root: string): GateResult {
  const release = latestRelease(root);
  const packageProblems = packageVersionProblems(root);
  if (!release) return { verdicts: [], packageProblems, passed: packageProblems.length === 0 };
  const changelog = readChangelog(root);
  const pkgVersion = packageVersion(root);
  const verdicts = compareWithRelease(root, release).map((change): Verdict => {
    const { api, released, current, diff } = change;
    const problems: string[] = [];
    const announce = (version: string) => {
      if (!changelogHasEntry(changelog, api, version))
        problems.push(`CHANGELOG.md has no "### ${api} ${version}" entry announcing it`);
      if (!isBreakingBump(release.version, pkgVersion)) {
        problems.push(
          `package.json version is ${pkgVersion}; a breaking change of a contract needs ${bumpVersion(release.version, "breaking")} or later (released: ${release.version})`,
        );
      }
    };
    if (!current) {
      announce("removed");
      return { ...change, problems, summary: `${api}: removed since release ${release.version}` };
    }
    if (!released || !diff)
      return { ...change, problems, summary: `${api} ${current.info.version}: new since release ${release.version}` };
    const [from, to] = [released.info.version, current.info.version];
    if (!semver.valid(to)) problems.push(`info.version "${to}" of ${api} is not a semver version`);
    else if (semver.lt(to, from)) problems.push(`info.version of ${api} went back from ${from} to ${to}`);
    else if (diff.breaking > 0) {
      const announced = isBreakingBump(from, to);
      if (!announced)
        problems.push(
          `info.version of ${api} is ${to}; a breaking change needs ${bumpVersion(from, "breaking")} or later (released: ${from})`,
        );
      announce(announced ? to : bumpVersion(from, "breaking"));
    }
    const counts = `${diff.breaking} breaking, ${diff.changes.length - diff.breaking} non-breaking`;
    const state = diff.breaking > 0 && problems.length === 0 ? " (announced)" : "";
    return {
      ...change,
      problems,
      summary: `${api} ${from} -> ${to}: ${counts} since release ${release.version}${state}`,
    };
  });
  return {
    release: release.version,
    verdicts,
    packageProblems,
    passed: packageProblems.length === 0 && verdicts.every((v) => v.problems.length === 0),
  };
}

function main(): void {
  const { values } = parseArgs({ options: { root: { type: "string" } } });
  const root = values.root ?? fileURLToPath(new URL("..", import.meta.url));
  const result = checkBreakingChanges(root);
  for (const problem of result.packageProblems) console.error(`check-breaking: ${problem} (npm run release sets both)`);
  if (result.packageProblems.length > 0) process.exitCode = 1;
  if (!result.release) {
    console.log("check-breaking: no release in releases/ yet; nothing to compare (run `npm run release` to cut one)");
    return;
  }
  for (const verdict of result.verdicts) {
    console.log(verdict.summary);
    if (verdict.problems.length === 0) continue;
    if (verdict.diff) console.log(formatReport(verdict.diff).replace(/^/gm, "    "));
    for (const problem of verdict.problems) console.log(`  - ${problem}`);
  }
  if (!result.passed) {
    console.error(
      "\ncheck-breaking: unannounced breaking change. Either make the change backward compatible, or announce it:" +
        " `npm run release` bumps the versions, writes CHANGELOG.md and snapshots the bundles (docs/guide/versioning.md).",
    );
    process.exitCode = 1;
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main();
