// The versioning rules, the CI gate (scripts/check-breaking.ts) and the release plan (scripts/release.ts), run on
// small repositories laid out in temporary folders: releases/<version>/<api>.json, generated/openapi/<api>.json,
// package.json and CHANGELOG.md, with the contracts taken from the differ's fixtures.
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import type { Document } from "../../lib/contract/index.js";
import { checkBreakingChanges } from "../../scripts/check-breaking.js";
import { applyRelease, CHANGELOG_INTRO, planRelease, setInfoVersion } from "../../scripts/release.js";
import { bumpVersion, isBreakingBump } from "../../scripts/releases.js";
import { repoRoot } from "../support/processes.js";
import { fixture } from "./fixture.js";

const withVersion = (doc: Document, version: string): Document => ({ ...doc, info: { ...doc.info, version } });

const roots: string[] = [];
afterEach(() => roots.splice(0).forEach((root) => rmSync(root, { recursive: true, force: true })));

interface Layout {
  packageVersion: string;
  releaseVersion?: string;
  released?: Record<string, Document>;
  current: Record<string, Document>;
  changelog?: string;
}

function repository(layout: Layout): string {
  const root = mkdtempSync(join(tmpdir(), "contracts-release-"));
  roots.push(root);
  writeFileSync(
    join(root, "package.json"),
    `${JSON.stringify({ name: "fixture", version: layout.packageVersion }, null, 2)}\n`,
  );
  writeFileSync(join(root, "CHANGELOG.md"), layout.changelog ?? CHANGELOG_INTRO);
  const write = (dir: string, docs: Record<string, Document>) => {
    mkdirSync(join(root, dir), { recursive: true });
    for (const [api, doc] of Object.entries(docs))
      writeFileSync(join(root, dir, `${api}.json`), JSON.stringify(doc, null, 2));
  };
  if (layout.released) write(`releases/${layout.releaseVersion ?? "0.1.0"}`, layout.released);
  write("generated/openapi", layout.current);
  return root;
}

const ordersBefore = fixture("request-bodies", "old"); // 1.0.0
const ordersBreaking = fixture("request-bodies", "new"); // 2.0.0, with breaking changes
const ordersUnbumped = withVersion(ordersBreaking, "1.0.0");
const ordersAddition: Document = {
  ...ordersBefore,
  paths: {
    ...ordersBefore.paths,
    "/receipts": { get: { operationId: "listReceipts", responses: { "200": { description: "The receipts." } } } },
  },
};

describe("versioning rules (npm caret semantics)", () => {
  it.each([
    ["1.4.2", "breaking", "2.0.0"],
    ["1.4.2", "feature", "1.5.0"],
    ["1.4.2", "fix", "1.4.3"],
    ["0.1.0", "breaking", "0.2.0"],
    ["0.1.0", "feature", "0.1.1"],
    ["0.0.3", "breaking", "0.0.4"],
  ] as const)("%s with a %s change becomes %s", (from, level, to) => {
    expect(bumpVersion(from, level)).toBe(to);
    expect(isBreakingBump(from, to)).toBe(level === "breaking");
  });

  it("treats any later version outside ^from as a breaking bump, and nothing else", () => {
    expect(isBreakingBump("0.1.0", "1.0.0")).toBe(true);
    expect(isBreakingBump("1.2.0", "1.9.9")).toBe(false);
    expect(isBreakingBump("2.0.0", "1.0.0")).toBe(false);
  });
});

describe("CI gate: check-breaking", () => {
  it("passes when there is no release to compare with", () => {
    expect(checkBreakingChanges(repository({ packageVersion: "0.1.0", current: { orders: ordersBefore } }))).toEqual({
      verdicts: [],
      packageProblems: [],
      passed: true,
    });
  });

  it("passes when nothing changed, and a backward-compatible change without any bump", () => {
    for (const current of [ordersBefore, ordersAddition]) {
      const result = checkBreakingChanges(
        repository({ packageVersion: "0.1.0", released: { orders: ordersBefore }, current: { orders: current } }),
      );
      expect(result.passed).toBe(true);
      expect(result.verdicts[0]!.problems).toEqual([]);
    }
  });

  it("fails an unannounced breaking change and says each step that announces it", () => {
    const result = checkBreakingChanges(
      repository({ packageVersion: "0.1.0", released: { orders: ordersBefore }, current: { orders: ordersUnbumped } }),
    );
    expect(result.passed).toBe(false);
    expect(result.verdicts[0]!.problems).toEqual([
      "info.version of orders is 1.0.0; a breaking change needs 2.0.0 or later (released: 1.0.0)",
      'CHANGELOG.md has no "### orders 2.0.0" entry announcing it',
      "package.json version is 0.1.0; a breaking change of a contract needs 0.2.0 or later (released: 0.1.0)",
    ]);
  });

  it("fails when only the changelog entry is missing", () => {
    const result = checkBreakingChanges(
      repository({ packageVersion: "0.2.0", released: { orders: ordersBefore }, current: { orders: ordersBreaking } }),
    );
    expect(result.verdicts[0]!.problems).toEqual(['CHANGELOG.md has no "### orders 2.0.0" entry announcing it']);
  });

  it("passes a breaking change announced by a major version, a changelog entry and a package bump", () => {
    const changelog = `${CHANGELOG_INTRO}\n### orders 2.0.0\n\nOrders need a currency now.\n`;
    const result = checkBreakingChanges(
      repository({
        packageVersion: "0.2.0",
        released: { orders: ordersBefore },
        current: { orders: ordersBreaking },
        changelog,
      }),
    );
    expect(result.verdicts[0]!.problems).toEqual([]);
    expect(result.passed).toBe(true);
    expect(result.verdicts[0]!.summary).toMatch(
      /^orders 1\.0\.0 -> 2\.0\.0: \d+ breaking, \d+ non-breaking since release 0\.1\.0 \(announced\)$/,
    );
  });

  it("compares with the latest release and treats a removed contract as breaking", () => {
    const root = repository({
      packageVersion: "0.3.0",
      releaseVersion: "0.10.0",
      released: { orders: ordersBefore, tree: fixture("schemas", "old") },
      current: { orders: ordersBefore },
    });
    mkdirSync(join(root, "releases", "0.9.0"));
    const result = checkBreakingChanges(root);
    expect(result.release).toBe("0.10.0");
    expect(result.verdicts.find((v) => v.api === "tree")!.problems).toEqual([
      'CHANGELOG.md has no "### tree removed" entry announcing it',
      "package.json version is 0.3.0; a breaking change of a contract needs 0.11.0 or later (released: 0.10.0)",
    ]);
  });

  it("exits 1 from the command line and prints the breaking changes", async () => {
    const root = repository({
      packageVersion: "0.1.0",
      released: { orders: ordersBefore },
      current: { orders: ordersUnbumped },
    });
    const run = promisify(execFile)(process.execPath, [
      join(repoRoot, "node_modules/tsx/dist/cli.mjs"),
      join(repoRoot, "scripts/check-breaking.ts"),
      "--root",
      root,
    ]);
    const failure = await run.then(
      () => undefined,
      (error: { code: number; stdout: string; stderr: string }) => error,
    );
    expect(failure?.code).toBe(1);
    expect(failure?.stdout).toContain(
      "[required-property-added] POST /orders: request body application/json .currency (you send)",
    );
    expect(failure?.stderr).toContain("unannounced breaking change");
  });
});

describe("release plan", () => {
  const date = "2026-01-02";

  it("bumps a contract with a breaking change and the package by the caret rule, and writes the changelog from the diff", () => {
    const changelog = CHANGELOG_INTRO.replace(
      /-->\n$/,
      "-->\n\nA note for everybody.\n\n### orders 2.0.0\n\nWhy orders changed.\n",
    );
    const root = repository({
      packageVersion: "0.1.0",
      released: { orders: ordersBefore, tree: fixture("schemas", "old") },
      current: { orders: ordersUnbumped, tree: fixture("schemas", "old") },
      changelog,
    });
    const plan = planRelease(root, { date });
    expect(plan.version).toBe("0.2.0");
    expect(plan.contracts.map((c) => [c.api, c.from, c.to, c.level])).toEqual([
      ["orders", "1.0.0", "2.0.0", "breaking"],
      ["tree", "1.0.0", "1.0.0", undefined],
    ]);
    const unreleased = plan.changelog.slice(
      plan.changelog.indexOf("## Unreleased"),
      plan.changelog.indexOf("## 0.2.0"),
    );
    expect(unreleased).not.toContain("note"); // the notes moved into the release
    const section = plan.changelog.slice(plan.changelog.indexOf("## 0.2.0 - 2026-01-02"));
    expect(section.split("\n").slice(0, 9)).toEqual([
      "## 0.2.0 - 2026-01-02",
      "",
      "A note for everybody.",
      "",
      "### orders 2.0.0",
      "",
      "Why orders changed.",
      "",
      "Breaking changes:",
    ]);
    expect(section).toContain(
      "- POST /orders, PUT /orders/{id} request body application/json .currency: required property `currency` added (`required-property-added`)",
    );
    expect(section).toContain("Backward-compatible changes:");
    expect(section).not.toContain("### tree");
  });

  it("bumps a backward-compatible change by the next number and keeps a version already bumped by hand", () => {
    const root = repository({
      packageVersion: "0.1.0",
      released: { orders: ordersBefore, tree: fixture("schemas", "old") },
      current: { orders: ordersAddition, tree: fixture("schemas", "new") },
    });
    const plan = planRelease(root, { date });
    expect(plan.contracts.map((c) => [c.api, c.to, c.level])).toEqual([
      ["orders", "1.1.0", "feature"],
      ["tree", "2.0.0", "breaking"],
    ]);
    expect(plan.version).toBe("0.2.0");
    expect(
      planRelease(
        repository({
          packageVersion: "0.1.0",
          released: { orders: ordersBefore },
          current: { orders: ordersAddition },
        }),
        { date },
      ).version,
    ).toBe("0.1.1");
  });

  it("refuses a version too low for the changes, including the released one", () => {
    const root = repository({
      packageVersion: "0.1.0",
      released: { orders: ordersBefore },
      current: { orders: ordersUnbumped },
    });
    expect(() => planRelease(root, { version: "0.1.5" })).toThrow(
      "version 0.1.5 is too low: the changes since 0.1.0 need 0.2.0 or later",
    );
    expect(planRelease(root, { version: "1.0.0" }).version).toBe("1.0.0");
    const unchanged = repository({
      packageVersion: "0.1.1",
      releaseVersion: "0.1.1",
      released: { orders: ordersBefore },
      current: { orders: ordersBefore },
    });
    expect(() => planRelease(unchanged, { version: "0.1.1" })).toThrow(
      "version 0.1.1 is too low: the changes since 0.1.1 need 0.1.2 or later",
    );
    expect(planRelease(unchanged, {}).version).toBe("0.1.2");
  });

  it("edits only the info.version line of each real spec", () => {
    for (const api of ["identity", "links", "catalog", "pay"]) {
      const text = readFileSync(join(repoRoot, "specs", `${api}.yaml`), "utf8");
      const edited = setInfoVersion(text, "7.8.9").split("\n");
      const changed = text.split("\n").filter((lineText, i) => lineText !== edited[i]);
      expect(changed, api).toHaveLength(1);
      expect(changed[0], api).toMatch(/^ {2}version: /);
    }
  });
});

describe("both published packages", () => {
  const withPackages = (root: string, versions: Record<string, string>) => {
    for (const [dir, version] of Object.entries(versions)) {
      mkdirSync(join(root, "packages", dir), { recursive: true });
      writeFileSync(
        join(root, "packages", dir, "package.json"),
        `${JSON.stringify({ name: `@platform/${dir}`, version }, null, 2)}\n`,
      );
    }
    return root;
  };
  const versionOf = (root: string, dir: string) =>
    JSON.parse(readFileSync(join(root, "packages", dir, "package.json"), "utf8")).version;

  it("the release writes its version into both manifests, and the gate then passes", async () => {
    const root = withPackages(
      repository({
        packageVersion: "0.1.0",
        released: { orders: ordersBefore },
        current: { orders: withVersion(ordersBreaking, "2.0.0") },
      }),
      { contracts: "0.1.0", "contracts-tools": "0.1.0" },
    );
    const plan = planRelease(root, { date: "2026-01-02" });
    await applyRelease(root, plan);
    expect([versionOf(root, "contracts"), versionOf(root, "contracts-tools")]).toEqual(["0.2.0", "0.2.0"]);
    expect(JSON.parse(readFileSync(join(root, "package.json"), "utf8")).version).toBe("0.2.0");
    const gate = checkBreakingChanges(root);
    expect(gate.packageProblems).toEqual([]);
    expect(gate.passed).toBe(true);
  });

  it("the gate fails when a package's version is not the root's", () => {
    const root = withPackages(
      repository({ packageVersion: "0.1.0", released: { orders: ordersBefore }, current: { orders: ordersBefore } }),
      { contracts: "0.1.0", "contracts-tools": "0.1.1" },
    );
    const gate = checkBreakingChanges(root);
    expect(gate.packageProblems).toEqual([
      "packages/contracts-tools/package.json (@platform/contracts-tools) has version 0.1.1, not the root package.json's 0.1.0",
    ]);
    expect(gate.passed).toBe(false);
  });
});
