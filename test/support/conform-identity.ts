// Runs the real CLI (`contracts conform identity`) against an identity provider and reads back its JSON report;
// shared by the identity self-tests (test/conformance/identity*.test.ts).
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FAULT_SERVER_CREDENTIALS } from "../../conformance/fault-servers/credentials.js";
import type { RunReport } from "../../conformance/report.js";
import { runContracts } from "./processes.js";

const dir = mkdtempSync(join(tmpdir(), "conform-identity-"));

export async function conformIdentity(baseUrl: string, args: string[], env: Record<string, string> = {}) {
  const json = join(dir, `report-${Math.random().toString(36).slice(2)}.json`);
  const run = runContracts(["conform", "identity", "--base-url", baseUrl, "--seed", "7", "--max-examples", "2", "--json", json, ...args], { ...FAULT_SERVER_CREDENTIALS, ...env });
  const code = await run.exit;
  const report = JSON.parse(readFileSync(json, "utf8")) as RunReport;
  return { code, report, run, output: `${run.stdout()}\n${run.stderr()}` };
}

/** Names of the checks with at least one failure. */
export const failingChecks = (report: RunReport) => report.checks.filter((c) => c.failed > 0).map((c) => c.name);

/** One check's tally; fails the test when the report does not list it. */
export function checkOf(report: RunReport, name: string): RunReport["checks"][number] {
  const found = report.checks.find((c) => c.name === name);
  if (!found) throw new Error(`the report lists no check ${name}`);
  return found;
}
