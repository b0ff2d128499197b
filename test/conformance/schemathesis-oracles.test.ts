// Real Schemathesis with the files `contracts schemathesis` writes, on the independent servers written from the seeds
// (conformance/oracle: links with HTTP error statuses and with errors in HTTP 200, catalog, pay): no failure and no
// error, on one seed (test/release/schemathesis-proof.test.ts runs five). And the hooks module's own checks.
import { describe, expect, it } from "vitest";
import { fromPackageRoot } from "../../lib/paths.js";
import { repoRoot, runToEnd } from "../support/processes.js";
import { ORACLE_RUNS, runOnOracle } from "../support/schemathesis.js";

describe("Schemathesis on the independent oracles (conformance/oracle)", () => {
  // Side by side, each on its own server: the links runs mostly wait for their one-second windows.
  it.concurrent.for(ORACLE_RUNS.map((oracle) => [oracle.name, oracle] as const))(
    "%s: no failure and no error, with writes",
    { timeout: 600_000 },
    async ([, oracle], { expect }) => {
      const run = await runOnOracle(oracle, 1);
      expect(run.code, run.output).toBe(0);
      expect(run.requests, run.output).toBeGreaterThan(20);
    },
  );
});

it("the hooks module is linted and formatted by ruff, every function annotated (conformance/schemathesis/ruff.toml)", async () => {
  const ruff = fromPackageRoot(".venv-schemathesis", "bin", "ruff");
  const config = ["--config", "conformance/schemathesis/ruff.toml", "conformance/schemathesis/hooks.py"];
  for (const args of [
    ["check", ...config],
    ["format", "--check", ...config],
  ]) {
    const run = await runToEnd(ruff, args, repoRoot);
    expect(run.status, `ruff ${args.join(" ")}\n${run.stdout}${run.stderr}`).toBe(0);
  }
});
