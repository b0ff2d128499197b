// Issue 16: no file outside specs/ and generated/ spells an identity endpoint path; code finds operations by
// operationId in the bundle and a live provider through its discovery document. The paths come from the bundle
// itself, so a path added to specs/identity.yaml is guarded from then on.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { gitOutput } from "../support/processes.js";
import identityBundle from "../../generated/openapi/identity.json" with { type: "json" };

const ROOT = new URL("../../", import.meta.url);
const TEXT_FILE = /\.(ts|mjs|js|vue|md|json|ya?ml)$/;
/** Derived from the spec or the spec itself. */
const DERIVED = /^(specs|generated)\//;
/** The README and the hand-written pages write paths as they are, so that their commands run as copied (issue 36);
 * test/docs/operation-paths.test.ts keeps every path they write equal to the contracts'. */
const CHECKED_PAGES = /^(README\.md|docs\/(?!\.vitepress\/).*\.md)$/;
/** Files that must keep a path, each with its reason. */
const ALLOWED: Record<string, string> = {
  "releases/0.1.0/identity.json":
    "the frozen bundle of release 0.1.0, which `contracts diff` compares against; a released contract is never edited.",
  "conformance/seed-sentences.yaml":
    "the seed-sentence table quotes every sentence of the seeds word for word, the identity endpoint table included.",
  "test/support/consent-pages.ts":
    "GitHub's consent form posts to GitHub's own authorize path, which the seed's provider happens to share.",
  "test/support/stock-oidc-provider.ts":
    "a stock provider configured from the seed's endpoint table, not from our contract: an independent provider must not take its paths from the reading it checks.",
};

/** The path templates, `{name}` standing for any one segment; a match must not run on into a longer name. */
function pathPattern(paths: string[]): RegExp {
  const alternatives = paths.map((path) =>
    path.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\\?\{[^}]+\\?\}/g, "[^/\\s\"'`]+"),
  );
  return new RegExp(`(${alternatives.join("|")})(?![\\w-])`, "g");
}

async function trackedTextFiles(): Promise<string[]> {
  return (await gitOutput(["ls-files", "-z"]))
    .split("\0")
    .filter((file) => TEXT_FILE.test(file) && !DERIVED.test(file) && !CHECKED_PAGES.test(file) && !(file in ALLOWED));
}

function spellings(pattern: RegExp, files: string[]): string[] {
  const found: string[] = [];
  for (const file of files) {
    let text: string;
    try {
      text = readFileSync(new URL(file, ROOT), "utf8");
    } catch {
      continue; // listed by git but deleted in the work tree
    }
    text.split("\n").forEach((line, index) => {
      for (const match of line.matchAll(pattern)) found.push(`${file}:${index + 1}: ${match[1]}`);
    });
  }
  return found;
}

describe("identity endpoint paths", () => {
  const paths = Object.keys(identityBundle.paths);

  it("are read from the bundle (the guard has something to guard)", () => {
    expect(paths.length).toBeGreaterThanOrEqual(5);
    expect(pathPattern(paths).test(`fetch(\`\${issuer}${paths[0]}\`)`)).toBe(true);
    expect(pathPattern(paths).test(`${paths[0]}-other`)).toBe(false);
  });

  it("are spelled in no tracked file outside specs/ and generated/", async () => {
    const files = await trackedTextFiles();
    expect(files.length).toBeGreaterThan(50);
    expect(
      spellings(pathPattern(paths), files),
      "use the operationId (and the discovery document against a live provider)",
    ).toEqual([]);
  });

  it("are spelled in every file allowed to keep them (so the list stays honest)", () => {
    for (const file of Object.keys(ALLOWED))
      expect(spellings(pathPattern(paths), [file]).length, file).toBeGreaterThan(0);
  });
});
