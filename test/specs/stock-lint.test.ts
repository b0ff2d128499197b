// The bundles carry their rules: a consumer who lints generated/openapi/*.json with the stock rulesets alone
// (Spectral's `spectral:oas`, Redocly's `recommended`), without our .spectral.yaml and redocly.yaml, sees exactly the
// findings that specs/README.md lists and justifies ("The bundles carry their rules"), and no other.
import { execFile } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, expect, it } from "vitest";
import { API_NAMES } from "../../lib/contract/index.js";
import { repoRoot } from "../support/processes.js";
import { bundlePath, workspace } from "../third-party/support.js";

const run = promisify(execFile);
const space = workspace("stock-lint");
afterAll(() => space.remove());

/** The stdout of a linter (exit code 1 only says it found something). */
async function lint(name: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<string> {
  const options = { cwd: space.dir, maxBuffer: 64 * 1024 * 1024, env: { ...process.env, ...env } };
  try {
    return (await run(join(repoRoot, "node_modules", ".bin", name), args, options)).stdout;
  } catch (error) {
    const failed = error as { stdout?: string; message: string };
    if (!failed.stdout) throw new Error(`${name} printed nothing: ${failed.message}`, { cause: error });
    return failed.stdout;
  }
}

const apiOf = (file: string) => API_NAMES.find((api) => file.endsWith(`${api}.json`))!;

/** The README's table: one `<Tool> \`<rule>\`` row per justified finding, with the APIs it applies to. */
function justified(): string[] {
  const readme = readFileSync(join(repoRoot, "specs", "README.md"), "utf8");
  return [...readme.matchAll(/^ *\| (Spectral|Redocly) `([^`]+)` \| ([a-z, ]+) \| .+\|$/gm)]
    .flatMap(([, tool, rule, apis]) => apis!.split(", ").map((api) => `${tool} ${rule} ${api}`))
    .sort();
}

it("Spectral spectral:oas and Redocly recommended find only what specs/README.md justifies", async () => {
  const bundles = API_NAMES.map(bundlePath);
  writeFileSync(join(space.dir, "ruleset.json"), JSON.stringify({ extends: ["spectral:oas"] }));
  writeFileSync(join(space.dir, "redocly.yaml"), "extends:\n  - recommended\n");
  // Redocly prints one JSON report per file: one run per bundle.
  const [spectral, ...redocly] = await Promise.all([
    lint("spectral", ["lint", "-r", "ruleset.json", "-f", "json", ...bundles]),
    ...API_NAMES.map((api) =>
      lint("redocly", ["lint", "--config", "redocly.yaml", "--format=json", bundlePath(api)], {
        REDOCLY_TELEMETRY: "off",
        REDOCLY_SUPPRESS_UPDATE_NOTICE: "true",
      }),
    ),
  ]);
  const spectralFindings = (JSON.parse(spectral) as Array<{ code: string; source: string }>).map(
    (finding) => `Spectral ${finding.code} ${apiOf(finding.source)}`,
  );
  const redoclyFindings = redocly.flatMap((report, i) =>
    (JSON.parse(report) as { problems: Array<{ ruleId: string }> }).problems.map(
      (problem) => `Redocly ${problem.ruleId} ${API_NAMES[i]}`,
    ),
  );
  const found = [...new Set([...spectralFindings, ...redoclyFindings])].sort();
  expect(justified().length).toBeGreaterThan(0);
  expect(found).toEqual(justified());
}, 120_000);
