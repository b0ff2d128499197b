// Runs the real CLI (`contracts conform ...`) as a child process and reads back its JSON report: the runs against
// correct servers (test/conformance/faults.test.ts) and correct providers (identity.test.ts). The fault proofs run
// the same command in the test's own process (conform.ts).
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FAULT_SERVER_CREDENTIALS } from "../../conformance/fault-servers/credentials.js";
import type { RunReport } from "../../conformance/report/report.js";
import { type RunningCommand, runContracts } from "./processes.js";

const dir = mkdtempSync(join(tmpdir(), "conform-cli-"));

/**
 * The test servers are started for the test: there is no shop client to lock out, so a pay run numbers its nonces in
 * microseconds (no wait between two), unless the test names --nonce itself. The default, seconds, waits for the next
 * second for each nonce: test/conformance/nonce-modes.test.ts runs it.
 */
export function testNonces(args: string[]): string[] {
  return args[0] === "pay" && !args.includes("--nonce") ? [...args, "--nonce", "microseconds"] : args;
}

export interface CliRun {
  code: number | string;
  report: RunReport;
  run: RunningCommand;
  stdout: string;
  stderr: string;
  /** stdout and stderr together, for assertion messages. */
  output: string;
}

/**
 * `contracts conform <args> --json <file>` with the fault servers' credentials (and `env`); a run without a report
 * fails with the CLI's own output.
 */
export async function conformWithCli(args: string[], env: Record<string, string> = {}): Promise<CliRun> {
  const json = join(dir, `report-${Math.random().toString(36).slice(2)}.json`);
  const run = runContracts(["conform", ...testNonces(args), "--json", json], { ...FAULT_SERVER_CREDENTIALS, ...env });
  const code = await run.exit;
  let report: RunReport;
  try {
    report = JSON.parse(readFileSync(json, "utf8")) as RunReport;
  } catch (error) {
    throw new Error(`no report (exit ${code}): ${(error as Error).message}\n${run.stdout()}\n${run.stderr()}`, {
      cause: error,
    });
  }
  return { code, report, run, stdout: run.stdout(), stderr: run.stderr(), output: `${run.stdout()}\n${run.stderr()}` };
}

/** The arguments of the identity self-tests' runs against `baseUrl`: seed 7, two cases per operation. */
export function identityRunArgs(baseUrl: string, args: string[]): string[] {
  return ["identity", "--base-url", baseUrl, "--seed", "7", "--max-examples", "2", ...args];
}

/** The sign-in drivers a page is tried with: HTML forms (the default) and Chromium (--browser). */
export const SIGN_IN_DRIVERS = [
  ["form", []],
  ["browser", ["--browser"]],
] as const;

/** `contracts conform identity` against `baseUrl` (identityRunArgs). */
export function conformIdentity(baseUrl: string, args: string[], env: Record<string, string> = {}): Promise<CliRun> {
  return conformWithCli(identityRunArgs(baseUrl, args), env);
}

/** Names of the checks with at least one failure. */
export const failingChecks = (report: RunReport) => report.checks.filter((c) => c.failed > 0).map((c) => c.name);

/** One check's tally; fails the test when the report does not list it. */
export function checkOf(report: RunReport, name: string): RunReport["checks"][number] {
  const found = report.checks.find((c) => c.name === name);
  if (!found) throw new Error(`the report lists no check ${name}`);
  return found;
}

// Random valid products carry negative prices, which the contract allows (PriceCreate.amount has no minimum, its
// range "is not shown") but every catalog server here refuses, as a provider counting money in minor units would:
// a contract gap, reported. Correct catalog runs therefore create only the sequence's example product, the one
// creation that --max-writes 1 keeps for it.
// Two creations: the example's, and the Idempotency-Key sequence's; invalid data goes first and, refused, costs none.
export const noRandomProducts = (api: string) => (api === "catalog" ? ["--max-writes", "2"] : []);
