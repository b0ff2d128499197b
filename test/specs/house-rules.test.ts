// The Spectral house rules of .spectral.yaml that keep the provenance marks machine-readable: every x-assumption and
// x-provider-refuses is one sentence saying why, and x-error-envelope has its shape. Runs the real Spectral CLI on a
// copy of a contract with broken marks.
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { fromPackageRoot } from "../../lib/paths.js";

const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), "house-rules-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface SpectralResult {
  code: string;
  path: string[];
}

async function lint(yamlText: string): Promise<SpectralResult[]> {
  const file = join(dir, "spec.yaml");
  writeFileSync(file, yamlText);
  const cli = fromPackageRoot("node_modules", ".bin", "spectral");
  const args = ["lint", file, "--ruleset", fromPackageRoot(".spectral.yaml"), "--format", "json", "--quiet"];
  // Spectral exits 1 when it finds anything; the JSON report is on stdout either way.
  const { stdout } = await run(cli, args, { maxBuffer: 16 * 1024 * 1024 }).catch((error: { stdout?: string }) => ({
    stdout: error.stdout ?? "[]",
  }));
  return JSON.parse(stdout) as SpectralResult[];
}

describe("house rules on x-assumption, x-provider-refuses and x-error-envelope", () => {
  const pay = readFileSync(fromPackageRoot("specs", "pay.yaml"), "utf8");

  it("pass on the contract as it is", async () => {
    const codes = (await lint(pay)).map((r) => r.code);
    for (const rule of ["assumption-is-one-sentence", "provider-refuses-is-one-sentence", "error-envelope-declared"])
      expect(codes).not.toContain(rule);
  }, 60_000);

  it("refuse an empty assumption, a refusal without its source sentence and a malformed envelope", async () => {
    const broken = pay
      .replace('x-assumption: The seed says only "page (integer)"; our clients count pages from 1.', 'x-assumption: ""')
      .replace(/x-provider-refuses: ".*"/, "x-provider-refuses: true")
      .replace("x-error-envelope:\n  property: type\n", "x-error-envelope:\n  field: type\n");
    expect(broken).not.toBe(pay);
    const results = await lint(broken);
    const at = (code: string) => results.filter((r) => r.code === code).map((r) => r.path.join("."));
    expect(at("assumption-is-one-sentence")).toEqual([
      "components.schemas.ListOrdersRequest.properties.page.x-assumption",
    ]);
    expect(at("provider-refuses-is-one-sentence")).toEqual([
      "components.securitySchemes.requestSignature.x-provider-refuses",
    ]);
    expect(at("error-envelope-declared").length).toBeGreaterThan(0);
  }, 60_000);
});
