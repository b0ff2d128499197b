// Issue 43: a check's name is a key of the registry (conformance/model/check-registry.ts). A misspelt name in code
// does not compile, and on the command line it is a usage error that says how to list the names.
import { describe, expect, it } from "vitest";
import { selectChecks } from "../../conformance/judge/checks.js";
import { typeErrorsBesideTheJudge } from "../support/type-errors.js";

const verdictWith = (name: string) =>
  `import { verdictOf } from "./verdict.js";\nexport const verdict = verdictOf("${name}", "listDomains", "", undefined, "example");\n`;

describe("check names", () => {
  it("a misspelt check name in code does not compile; the registry's name does", async () => {
    const [right, misspelt] = await typeErrorsBesideTheJudge([
      verdictWith("not_a_server_error"),
      verdictWith("not_a_servr_error"),
    ]);
    expect(right).toEqual([]);
    expect(misspelt).toEqual([expect.stringContaining(`Argument of type '"not_a_servr_error"' is not assignable`)]);
  }, 300_000);

  it("a misspelt check name on the command line is a usage error that says how to list them", () => {
    expect(() => selectChecks(["not_a_servr_error"])).toThrow(
      'unknown check "not_a_servr_error"; run `contracts conform --list-checks`',
    );
    expect(() => selectChecks([], ["idempotenc"])).toThrow('unknown check "idempotenc"');
    expect([...selectChecks(["idempotency"])]).toEqual(["idempotency"]);
  });
});
