// Issue 43: the runner follows a case one way, plan, then send, then judge, then report. The import rule of each
// stage (eslint.stages.js, part of the lint that `npm test` runs) is broken here on purpose, and the judge is the only
// code that records in the ledger.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { ESLint } from "eslint";
import tseslint from "typescript-eslint";
import { describe, expect, it } from "vitest";
import { importOf, LATER_STAGES, LIVE_COMMAND, STAGE_MESSAGE, STAGE_RULES } from "../../eslint.stages.js";
import { repoRoot } from "../support/processes.js";

/**
 * ESLint with the stage rules alone: they need no type information, so a file need not exist to be linted. The other
 * rules are off, so the files' directives that disable them are not reported as unused.
 */
const stageLint = () =>
  new ESLint({
    cwd: repoRoot,
    overrideConfigFile: true,
    overrideConfig: [
      {
        files: ["**/*.ts"],
        languageOptions: { parser: tseslint.parser },
        linterOptions: { reportUnusedDisableDirectives: "off" },
      },
      ...STAGE_RULES,
    ],
  });

const messagesOf = async (folder: string, source: string) => {
  const [result] = await stageLint().lintText(source, { filePath: join(repoRoot, folder, "probe.ts") });
  return result!.messages.map((message) => message.message);
};

describe("the runner's stages go one way", () => {
  for (const [folder, later] of Object.entries(LATER_STAGES))
    it(`${folder} may not import ${later.join(", ")}`, async () => {
      for (const stage of later) {
        const module = importOf(stage).replace("*", "anything.js");
        const found = await messagesOf(folder, `import type { T } from "${module}";\nexport type U = T;\n`);
        expect(found, `${folder} importing ${stage}`).toEqual([expect.stringContaining(STAGE_MESSAGE)]);
      }
      // What a stage may import passes: the shared types and the contract's words.
      expect(
        await messagesOf(folder, `import type { Exchange } from "../model/exchange.js";\nexport type E = Exchange;\n`),
      ).toEqual([]);
      expect(
        await messagesOf(folder, `import { isSuccess } from "../contract/words.js";\nexport const s = isSuccess;\n`),
      ).toEqual([]);
    });

  it("the live run's command imports neither the recorded traffic's nor the dispatch: conform-command.ts wires both", async () => {
    const lintCommand = async (source: string) => {
      const [result] = await stageLint().lintText(source, { filePath: join(repoRoot, LIVE_COMMAND.file) });
      return result!.messages.map((message) => message.message);
    };
    for (const module of ["./passive/cli.js", "./conform-command.js", "./proxy/cli.js", "./overlay/outcome.js"])
      expect(await lintCommand(`import { f } from "${module}";\nexport const g = f;\n`), module).toEqual([
        expect.stringContaining(STAGE_MESSAGE),
      ]);
    expect(await lintCommand(`import { f } from "./cli-options.js";\nexport const g = f;\n`)).toEqual([]);
  });

  it("plan, send and judge may import the stages before them", async () => {
    expect(
      await messagesOf("conformance/send", `import { prepare } from "../plan/cases.js";\nexport const p = prepare;\n`),
    ).toEqual([]);
    expect(
      await messagesOf(
        "conformance/judge",
        `import type { Arrival } from "../send/sender.js";\nexport type A = Arrival;\n`,
      ),
    ).toEqual([]);
  });

  it("the stages as they are keep the rule", async () => {
    const results = await stageLint().lintFiles([...Object.keys(LATER_STAGES), LIVE_COMMAND.file]);
    const broken = results.flatMap((result) =>
      result.messages.map((message) => `${relative(repoRoot, result.filePath)}:${message.line} ${message.message}`),
    );
    expect(broken).toEqual([]);
    expect(results.length).toBeGreaterThan(40);
  });
});

/** Every .ts file under a folder of the repository, relative to its root. */
function sourcesUnder(folder: string): string[] {
  return readdirSync(join(repoRoot, folder), { recursive: true, encoding: "utf8" })
    .filter((path) => path.endsWith(".ts"))
    .map((path) => join(folder, path));
}

describe("only the judge records", () => {
  it("no code outside conformance/judge/ and conformance/report/ adds to the ledger or records in it", () => {
    const writers = sourcesUnder("conformance").flatMap((file) =>
      readFileSync(join(repoRoot, file), "utf8")
        .split("\n")
        .flatMap((line, index) =>
          /ledger\.add|\.record\(/.test(line) ? [`${file}:${index + 1}: ${line.trim()}`] : [],
        ),
    );
    const outside = writers.filter((line) => !/^conformance\/(judge|report)\//.test(line));
    expect(outside).toEqual([]);
    // The pattern finds what it looks for: the judge records.
    expect(writers.some((line) => line.startsWith("conformance/judge/judge.ts"))).toBe(true);
  });
});
