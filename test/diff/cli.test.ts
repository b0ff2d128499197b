// `contracts diff` as a user runs it: the compiled CLI, real files, the report, --json and the exit codes.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runContracts } from "../support/processes.js";
import { fixturesDir } from "./fixture.js";

const fixtures = `${fixturesDir}/`;
const scratch = mkdtempSync(join(tmpdir(), "contracts-diff-cli-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

async function diff(...args: string[]) {
  const command = runContracts(["diff", ...args]);
  const code = await command.exit;
  return { code, stdout: command.stdout(), stderr: command.stderr() };
}

describe("contracts diff", () => {
  it("prints the breaking changes first and exits 1 when there is one", async () => {
    const { code, stdout } = await diff(`${fixtures}webhooks/old.yaml`, `${fixtures}webhooks/new.yaml`);
    expect(code).toBe(1);
    expect(stdout).toMatch(
      /^Events API 1\.0\.0 -> 2\.0\.0\n10 breaking changes, 6 non-breaking changes\n\nBreaking:\n/,
    );
    expect(stdout).toContain(
      '  [enum-widened] webhook orderPaid (POST): request body application/json .currency (you receive)\n      values added: "gbp"\n',
    );
    expect(stdout.indexOf("Non-breaking:")).toBeGreaterThan(stdout.indexOf("[operation-removed]"));
  });

  it("exits 0 when every change is backward compatible, and when nothing changed", async () => {
    const older = join(scratch, "older.json");
    const newer = join(scratch, "newer.json");
    const doc = {
      openapi: "3.1.0",
      info: { title: "Tiny", version: "1.0.0" },
      paths: { "/a": { get: { responses: { "200": { description: "A." } } } } },
    };
    writeFileSync(older, JSON.stringify(doc));
    writeFileSync(
      newer,
      JSON.stringify({
        ...doc,
        info: { title: "Tiny", version: "1.1.0" },
        paths: { ...doc.paths, "/b": doc.paths["/a"] },
      }),
    );
    const safe = await diff(older, newer);
    expect(safe).toMatchObject({ code: 0, stderr: "" });
    expect(safe.stdout).toBe(
      "Tiny 1.0.0 -> 1.1.0\n0 breaking changes, 1 non-breaking change\n\nNon-breaking:\n  [operation-added] GET /b\n      GET /b added\n",
    );
    expect(await diff(older, older)).toMatchObject({
      code: 0,
      stdout: "Tiny 1.0.0 -> 1.0.0\nNo changes to the contract.\n",
    });
  });

  it("prints the result as JSON with --json", async () => {
    const { code, stdout } = await diff("--json", `${fixtures}parameters/old.yaml`, `${fixtures}parameters/new.yaml`);
    expect(code).toBe(1);
    const result = JSON.parse(stdout);
    expect(result.before).toEqual({ title: "Catalog API", version: "1.0.0" });
    expect(result.breaking).toBe(result.changes.filter((c: { breaking: boolean }) => c.breaking).length);
    expect(result.changes).toContainEqual({
      rule: "required-parameter-added",
      breaking: true,
      direction: "sent",
      operations: ["GET /items"],
      where: "header parameter Tenant",
      message: "required header parameter Tenant added",
      pointer: "/paths/~1items/get/parameters/8",
    });
  });

  it("rejects what it cannot compare with exit code 2 and one line", async () => {
    const external = join(scratch, "external.yaml");
    writeFileSync(
      external,
      "openapi: 3.1.0\ninfo: { title: X, version: 1.0.0 }\npaths:\n  /a:\n    $ref: './paths/a.yaml'\n",
    );
    const notOpenApi = join(scratch, "package.json");
    writeFileSync(notOpenApi, '{"name": "x"}');
    const broken = join(scratch, "broken.json");
    writeFileSync(broken, "{");
    const cases: Array<[string[], RegExp]> = [
      [[external, external], /refers to another file \(\$ref "\.\/paths\/a\.yaml"\); bundle it first/],
      [[notOpenApi, notOpenApi], /is not an OpenAPI 3 document/],
      [[broken, broken], /broken\.json is not valid JSON/],
      [[join(scratch, "missing.yaml"), external], /cannot read .*missing\.yaml: ENOENT/],
      [[external], /diff takes two files, <old> and <new>; got 1/],
    ];
    for (const [args, message] of cases) {
      const { code, stdout, stderr } = await diff(...args);
      expect({ code, stdout }, args.join(" ")).toEqual({ code: 2, stdout: "" });
      expect(stderr).toMatch(message);
      expect(stderr.trim().split("\n")).toHaveLength(1);
    }
  });

  it("is listed by `contracts --help` and explains itself with --help", async () => {
    const help = runContracts(["--help"]);
    expect(await help.exit).toBe(0);
    expect(help.stdout()).toMatch(/diff +compare two versions of a contract; exit code 1 on a breaking change/);
    const own = await diff("--help");
    expect(own.code).toBe(0);
    expect(own.stdout).toMatch(/^contracts diff <old> <new> \[--json\]/);
  });
});
