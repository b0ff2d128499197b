// `npm run release [-- --version <x.y.z>] [-- --dry-run]`: cuts a release of the package and its contracts.
//   1. compares every bundle with the last release (contracts diff) and picks each contract's next info.version
//      from the kind of change (scripts/releases.ts: breaking, feature, fix), keeping a version already bumped by hand;
//   2. picks the package version from the largest change (or takes --version, if it is at least that);
//   3. writes info.version into specs/<api>.yaml and the package version into package.json and into the manifests of
//      both published packages (packages/contracts, packages/contracts-tools: versioned together), regenerates
//      generated/;
//   4. snapshots generated/openapi/<api>.json into releases/<version>/ (the baseline of the CI gate);
//   5. writes the release's section of CHANGELOG.md from the diff, moving the notes written under "Unreleased".
import { execFile } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs, promisify } from "node:util";
import semver from "semver";
import { parse as parseYaml } from "yaml";
import type { Change, DiffResult } from "../lib/diff/index.js";
import { locateOperations } from "../lib/contract/index.js";
import { checkBreakingChanges } from "./check-breaking.js";
import { packageManifests } from "./pack.js";
import {
  bumpVersion,
  changelogHeading,
  compareWithRelease,
  currentBundles,
  higherLevel,
  latestRelease,
  type Level,
  packageVersion,
  readChangelog,
} from "./releases.js";

const run = promisify(execFile);

export interface ContractRelease {
  api: string;
  /** The released info.version; undefined for a contract released for the first time. */
  from?: string;
  /** The info.version of this release; `removed` for a contract that is gone. */
  to: string;
  level?: Level;
  diff?: DiffResult;
  operations: number;
  webhooks: number;
}

export interface ReleasePlan {
  from?: string;
  version: string;
  date: string;
  contracts: ContractRelease[];
  /** The whole CHANGELOG.md after the release. */
  changelog: string;
}

export const CHANGELOG_INTRO = `# Changelog

Every release of this package and of each contract in it, newest first. Versions follow semver with npm's caret
rule (docs/guide/versioning.md): a breaking change bumps the leftmost non-zero number.
\`npm run release\` writes each release's entries from \`contracts diff\`.

## Unreleased

<!-- Notes for the next release go here; \`npm run release\` moves them into it. To announce a breaking change of a
contract before the release, bump its info.version and add a heading \`### <api> <new version>\` here. -->
`;

export function planRelease(root: string, options: { version?: string; date?: string } = {}): ReleasePlan {
  const release = latestRelease(root);
  const date = options.date ?? new Date().toISOString().slice(0, 10);
  const contracts = compareWithRelease(root, release).map((change): ContractRelease => {
    const doc = change.current ?? change.released!;
    const operations = locateOperations(doc);
    const counts = {
      operations: operations.filter((op) => !op.webhook).length,
      webhooks: operations.filter((op) => op.webhook).length,
    };
    if (!change.current)
      return { api: change.api, from: change.released!.info.version, to: "removed", level: "breaking", ...counts };
    const current = change.current.info.version;
    if (!change.released || !change.level)
      return { api: change.api, from: change.released?.info.version, to: current, level: change.level, ...counts };
    const required = bumpVersion(change.released.info.version, change.level);
    const to = semver.gte(current, required) ? current : required;
    return {
      api: change.api,
      from: change.released.info.version,
      to,
      level: change.level,
      diff: change.diff,
      ...counts,
    };
  });

  let version = packageVersion(root);
  if (release) {
    const level = contracts.reduce<Level | undefined>((max, c) => higherLevel(max, c.level), undefined) ?? "fix";
    const required = bumpVersion(release.version, level);
    version = options.version ?? (semver.gte(version, required) ? version : required);
    if (!semver.valid(version)) throw new Error(`--version "${version}" is not a semver version`);
    if (semver.lt(version, required))
      throw new Error(`version ${version} is too low: the changes since ${release.version} need ${required} or later`);
  } else if (options.version) {
    version = options.version;
  }
  return {
    from: release?.version,
    version,
    date,
    contracts,
    changelog: writeChangelog(readChangelog(root), version, date, contracts, !release),
  };
}

function changeLine(change: Change): string {
  const where = [change.operations.join(", "), change.where].filter(Boolean).join(" ") || change.pointer;
  return `- ${where}: ${change.message} (\`${change.rule}\`)`;
}

/** The text of one contract's entry, after any notes written by hand under the same heading. */
function contractEntry(contract: ContractRelease, initial: boolean): string {
  if (contract.to === "removed") return "The contract was removed from the package.";
  if (initial || !contract.diff) {
    const count = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
    return `${initial ? "First release" : "New contract"}: ${count(contract.operations, "operation")}${contract.webhooks > 0 ? `, ${count(contract.webhooks, "webhook")}` : ""}.`;
  }
  const breaking = contract.diff.changes.filter((c) => c.breaking);
  const other = contract.diff.changes.filter((c) => !c.breaking);
  const parts: string[] = [];
  if (breaking.length > 0) parts.push("Breaking changes:", "", ...breaking.map(changeLine));
  if (other.length > 0)
    parts.push(...(parts.length > 0 ? [""] : []), "Backward-compatible changes:", "", ...other.map(changeLine));
  return parts.length > 0 ? parts.join("\n") : "Descriptions and examples only.";
}

/** CHANGELOG.md with the release's section inserted below "Unreleased", whose notes move into it. */
export function writeChangelog(
  current: string,
  version: string,
  date: string,
  contracts: ContractRelease[],
  initial: boolean,
): string {
  const text = current.includes("## Unreleased")
    ? current
    : `${CHANGELOG_INTRO}\n${current.replace(/^# Changelog\s*/, "")}`;
  const start = text.indexOf("## Unreleased");
  const bodyStart = text.indexOf("\n", start) + 1;
  const next = text.slice(bodyStart).search(/^## /m);
  const bodyEnd = next < 0 ? text.length : bodyStart + next;
  const notes = text
    .slice(bodyStart, bodyEnd)
    .replace(/<!--[\s\S]*?-->/g, "")
    .trim();

  // Hand-written notes: a general part, then `### <heading>` parts that join the contract entry of that heading.
  const [general = "", ...sections] = notes.split(/^(?=### )/m);
  const byHeading = new Map(
    sections.map((s) => [s.split("\n")[0]!.trim(), s.slice(s.indexOf("\n") + 1).trim()] as const),
  );
  const entries = contracts
    .filter((c) => initial || c.level !== undefined)
    .map((c) => {
      const heading = changelogHeading(c.api, c.to);
      const handWritten = byHeading.get(heading);
      byHeading.delete(heading);
      return [heading, ...(handWritten ? [handWritten] : []), contractEntry(c, initial)].join("\n\n");
    });
  const leftover = [...byHeading].map(([heading, body]) => `${heading}\n\n${body}`);
  const section = [
    `## ${version} - ${date}`,
    ...(general.trim() ? [general.trim()] : []),
    ...entries,
    ...leftover,
  ].join("\n\n");
  const comment = CHANGELOG_INTRO.slice(CHANGELOG_INTRO.indexOf("<!--"));
  return `${text.slice(0, bodyStart)}\n${comment}\n${section}\n${bodyEnd < text.length ? `\n${text.slice(bodyEnd)}` : ""}`;
}

/** Sets info.version in the text of a YAML spec, leaving every other byte alone. */
export function setInfoVersion(yamlText: string, version: string): string {
  const pattern =
    /^(info:[ \t]*\r?\n(?:(?:[ \t]+.*)?\r?\n)*?[ \t]{2}version:[ \t]*)(["']?)[^"'\r\n#]*?\2([ \t]*(?:#.*)?)$/m;
  if (!pattern.test(yamlText)) throw new Error("no info.version line found");
  const updated = yamlText.replace(
    pattern,
    (_, head: string, quote: string, tail: string) => `${head}${quote}${version}${quote}${tail}`,
  );
  const parsed = parseYaml(updated) as { info?: { version?: unknown } };
  if (parsed.info?.version !== version)
    throw new Error(`info.version is ${JSON.stringify(parsed.info?.version)} after the edit, not ${version}`);
  return updated;
}

export async function applyRelease(root: string, plan: ReleasePlan): Promise<void> {
  let specsChanged = false;
  for (const contract of plan.contracts) {
    const file = join(root, "specs", `${contract.api}.yaml`);
    if (contract.to === "removed" || !existsSync(file)) continue;
    const text = readFileSync(file, "utf8");
    const updated = setInfoVersion(text, contract.to);
    if (updated !== text) writeFileSync(file, updated);
    specsChanged ||= updated !== text;
  }
  if (packageVersion(root) !== plan.version)
    await run("npm", ["version", plan.version, "--no-git-tag-version"], { cwd: root });
  for (const { file, manifest } of packageManifests(root)) {
    if (manifest.version !== plan.version)
      writeFileSync(file, `${JSON.stringify({ ...manifest, version: plan.version }, null, 2)}\n`);
  }
  if (specsChanged)
    await run(
      process.execPath,
      [join(root, "node_modules", "tsx", "dist", "cli.mjs"), join(root, "scripts", "generate.ts")],
      { cwd: root },
    );
  const target = join(root, "releases", plan.version);
  mkdirSync(target, { recursive: true });
  for (const [api, file] of currentBundles(root)) copyFileSync(file, join(target, `${api}.json`));
  writeFileSync(join(root, "CHANGELOG.md"), plan.changelog);
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { version: { type: "string" }, "dry-run": { type: "boolean", default: false } },
  });
  const root = fileURLToPath(new URL("..", import.meta.url));
  const plan = planRelease(root, { version: values.version });
  console.log(`release ${plan.from ?? "(none)"} -> ${plan.version}`);
  for (const c of plan.contracts)
    console.log(`  ${c.api.padEnd(10)} ${c.from ?? "(new)"} -> ${c.to}${c.level ? ` (${c.level})` : " (unchanged)"}`);
  if (values["dry-run"]) {
    console.log("\n--dry-run: nothing written. The CHANGELOG.md section would be:\n");
    const section = plan.changelog.slice(plan.changelog.indexOf(`## ${plan.version} `));
    console.log(section.slice(0, section.search(/\n## /) >= 0 ? section.search(/\n## /) : undefined));
    return;
  }
  await applyRelease(root, plan);
  const gate = checkBreakingChanges(root);
  console.log(
    `\nwrote specs/*.yaml info.version, package.json and packages/*/package.json, generated/, releases/${plan.version}/ and CHANGELOG.md (gate: ${gate.passed ? "passes" : "FAILS"})`,
  );
  console.log("Review the CHANGELOG.md section, then commit.");
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().catch((error: unknown) => {
    console.error(`release: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  });
}
