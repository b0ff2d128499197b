// Runs `contracts conform` in this process (the same runConformCommand the CLI runs), so that a test can change the
// loaded contract for one run (conformance/fault-servers/contract-patch.ts). Output is captured, not printed.
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runConformCommand } from "../../conformance/cli.js";
import { type ContractPatch, patchContract } from "../../conformance/fault-servers/contract-patch.js";
import type { RunReport } from "../../conformance/report.js";

const dir = mkdtempSync(join(tmpdir(), "conform-in-process-"));

export interface InProcessRun {
  code: number;
  report: RunReport;
  stdout: string;
  stderr: string;
  /** The files the run wrote (--json, and --junit when asked for). */
  files: { json: string; junit?: string };
}

export async function conformInProcess(args: string[], env: NodeJS.ProcessEnv, patches: ContractPatch[] = [], options: { junit?: boolean } = {}): Promise<InProcessRun> {
  const id = Math.random().toString(36).slice(2);
  const files = { json: join(dir, `${id}.json`), ...(options.junit ? { junit: join(dir, `${id}.xml`) } : {}) };
  const restore = patchContract(patches);
  const out = { stdout: "", stderr: "" };
  const original = { stdout: process.stdout.write, stderr: process.stderr.write };
  process.stdout.write = (chunk: string | Uint8Array) => ((out.stdout += chunk.toString()), true);
  process.stderr.write = (chunk: string | Uint8Array) => ((out.stderr += chunk.toString()), true);
  let code: number;
  try {
    code = await runConformCommand([...args, "--json", files.json, ...(files.junit ? ["--junit", files.junit] : [])], { ...process.env, ...env });
  } finally {
    process.stdout.write = original.stdout;
    process.stderr.write = original.stderr;
    restore();
  }
  let report: RunReport;
  try {
    report = JSON.parse(readFileSync(files.json, "utf8")) as RunReport;
  } catch {
    throw new Error(`no report (exit ${code}):\n${out.stdout}\n${out.stderr}`);
  }
  return { code, report, ...out, files };
}
