// Issue 43: a check's name is a key of the registry (conformance/model/check-registry.ts). A misspelt name in code
// does not compile, and on the command line it is a usage error that says how to list the names.
import { join } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { selectChecks } from "../../conformance/judge/checks.js";
import { repoRoot } from "../support/processes.js";

/** The parsed files of the libraries and the repository, shared by the calls: parsing them is most of the work. */
const parsed = new Map<string, ts.SourceFile | undefined>();

/** The type errors of a module written beside the runner's code, compiled with the repository's options. */
function typeErrors(source: string): string[] {
  const file = join(repoRoot, "conformance/judge/probe-check-name.ts");
  const { config } = ts.readConfigFile(join(repoRoot, "tsconfig.json"), (path) => ts.sys.readFile(path));
  const { options } = ts.parseJsonConfigFileContent(config, ts.sys, repoRoot);
  const host = ts.createCompilerHost(options);
  const readFile = host.readFile.bind(host);
  host.readFile = (path) => (path === file ? source : readFile(path));
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (path) => path === file || fileExists(path);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (path, ...rest) => {
    if (path === file) return getSourceFile(path, ...rest);
    if (!parsed.has(path)) parsed.set(path, getSourceFile(path, ...rest));
    return parsed.get(path);
  };
  const program = ts.createProgram([file], { ...options, noEmit: true }, host);
  return ts
    .getPreEmitDiagnostics(program, program.getSourceFile(file))
    .map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n"));
}

const verdictWith = (name: string) =>
  `import { verdictOf } from "./verdict.js";\nexport const verdict = verdictOf("${name}", "listDomains", "", undefined, "example");\n`;

describe("check names", () => {
  it("a misspelt check name in code does not compile; the registry's name does", () => {
    expect(typeErrors(verdictWith("not_a_server_error"))).toEqual([]);
    expect(typeErrors(verdictWith("not_a_servr_error"))).toEqual([
      expect.stringContaining(`Argument of type '"not_a_servr_error"' is not assignable`),
    ]);
  }, 60_000);

  it("a misspelt check name on the command line is a usage error that says how to list them", () => {
    expect(() => selectChecks(["not_a_servr_error"])).toThrow(
      'unknown check "not_a_servr_error"; run `contracts conform --list-checks`',
    );
    expect(() => selectChecks([], ["idempotenc"])).toThrow('unknown check "idempotenc"');
    expect([...selectChecks(["idempotency"])]).toEqual(["idempotency"]);
  });
});
