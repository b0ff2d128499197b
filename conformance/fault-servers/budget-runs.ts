// The links fault servers run as a QA job would run them: the whole API, no --operation, with the default budget or
// none (--max-requests none), at the servers' own cap (30 requests per one-second window: the seed's 30 per minute
// in a window sixty times shorter). The budget test (test/conformance/budget.test.ts) and the benchmark
// (bench/conformance-budget.ts) compare what each run catches and what it costs.
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runConformCommand } from "../conform-command.js";
import type { RunReport } from "../report/report.js";
import { patchContract } from "./contract-patch.js";
import { FAULT_SERVER_CREDENTIALS, FAULTS, type Fault, startReferenceServer } from "./faults.js";

/** The links faults; each runs read-only unless it needs writes, and with --strict where its table entry has it. */
export const LINKS_FAULTS: Fault[] = FAULTS.filter((fault) => fault.api === "links");

export interface BudgetRun {
  /** The fault's name, or `clean` for the correct server. */
  name: string;
  writes: boolean;
  requests: number;
  /** Wall-clock milliseconds at the servers' one-second window. */
  durationMs: number;
  /** The checks that failed. */
  failing: string[];
  /** The fault's check failed (the clean server: nothing failed). */
  caught: boolean;
  notReached: number;
}

const dir = mkdtempSync(join(tmpdir(), "conform-budget-"));

/** One whole-API run against a fault server (or the correct one), with the default budget or none. */
export async function runLinksFault(
  fault: Fault | undefined,
  budget: "default" | "none",
  writes = fault?.args.includes("--allow-writes") ?? false,
): Promise<BudgetRun> {
  const server = fault ? await fault.start() : await startReferenceServer("links");
  const json = join(dir, `${fault?.name ?? "clean"}-${budget}-${writes ? "writes" : "read"}.json`);
  const args = [
    "links",
    "--base-url",
    server.url,
    "--seed",
    "7",
    "--rate-limit",
    "30/s",
    "--json",
    json,
    ...(writes ? ["--allow-writes"] : []),
    ...(fault?.args.includes("--strict") ? ["--strict"] : []),
    ...(budget === "none" ? ["--max-requests", "none"] : []),
  ];
  const restore = fault?.contract ? patchContract(fault.contract) : () => {};
  const started = performance.now();
  try {
    const io = { out: () => {}, err: () => {}, tty: false, signals: false };
    await runConformCommand(args, { ...process.env, ...FAULT_SERVER_CREDENTIALS }, io);
  } finally {
    restore();
    await server.close();
  }
  const durationMs = performance.now() - started;
  const report = JSON.parse(readFileSync(json, "utf8")) as RunReport;
  const failing = [...new Set(report.failures.filter((f) => !f.known).map((f) => f.check))].sort();
  return {
    name: fault?.name ?? "clean",
    writes,
    requests: report.requests,
    durationMs,
    failing,
    caught: fault ? failing.includes(fault.check) : failing.length === 0,
    notReached: report.budget?.notReached ?? 0,
  };
}
