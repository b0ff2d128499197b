// hooks.py's credential probes, called from the pinned Schemathesis's own Python on a project `contracts schemathesis`
// wrote: a header's name is case-insensitive (RFC 9110 §5.1), so a credential the case holds as `x-seller-api-key`
// is the one the request sent as `X-Seller-Api-Key`. And the module's own house rules (ruff). Whole runs against
// servers: schemathesis-run.test.ts.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, it } from "vitest";
import { runSchemathesisCommand } from "../../conformance/schemathesis/cli.js";
import { fromPackageRoot } from "../../lib/paths.js";
import { repoRoot, runToEnd } from "../support/processes.js";

const PROBE = `
import json, sys
from pathlib import Path
sys.path.insert(0, ".")
import schemathesis
from schemathesis.config import SchemathesisConfig
import hooks

# An empty config: the project's schemathesis.toml would load hooks.py a second time.
bundle = json.loads(Path("catalog.openapi.json").read_text(encoding="utf-8"))
operation = schemathesis.openapi.from_dict(bundle, config=SchemathesisConfig()).find_operation_by_id("getShop")
case = operation.Case(headers={"x-seller-api-key": "the-right-key"})
probes = hooks.credential_probes(case, {"X-Seller-Api-Key": "the-right-key", "Accept": "*/*"})
print(json.dumps({what: dict(probe.headers or {}) for what, probe in probes.items()}))
`;

it("catalog: without credentials drops the key, a wrong one replaces it, whatever the case of its name", async () => {
  const dir = join(mkdtempSync(join(tmpdir(), "st-hooks-")), "catalog");
  expect(runSchemathesisCommand(["catalog", "--out", dir], { out: () => {} })).toBe(0);
  const python = fromPackageRoot(".venv-schemathesis", "bin", "python");
  const run = await runToEnd(python, ["-c", PROBE], dir);
  expect(run.stderr).toBe("");
  expect(run.status).toBe(0);
  const probes = JSON.parse(run.stdout) as Record<string, Record<string, string>>;
  const values = (headers: Record<string, string>) =>
    Object.entries(headers)
      .filter(([name]) => name.toLowerCase() === "x-seller-api-key")
      .map(([, value]) => value);
  expect(values(probes["without credentials"]!)).toEqual([]);
  const wrong = values(probes["with a wrong credential"]!);
  expect(wrong).toHaveLength(1);
  expect(wrong[0]).not.toBe("the-right-key");
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
