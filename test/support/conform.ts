// Runs `contracts conform` in this process: the same runConformCommand the CLI runs, with the CLI's exit codes and
// error lines, writing to buffers instead of the process's streams. The self-tests that prove each check on a fault
// server run this way (a child process per run cost more than most runs themselves); the tests of the command as a
// process (exit codes, signals, what a shell sees) run the real CLI (conform-cli.ts). A test can also change the
// loaded contract for one run (conformance/fault-servers/contract-patch.ts): such a run waits for the others and
// holds the contract alone, since the patch is seen by every run of this process.
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runConformCommand } from "../../conformance/cli.js";
import { type ContractPatch, patchContract } from "../../conformance/fault-servers/contract-patch.js";
import { FAULT_SERVER_CREDENTIALS } from "../../conformance/fault-servers/credentials.js";
import type { RunReport } from "../../conformance/report/report.js";
import { cliFailure } from "../../lib/cli.js";
import { identityRunArgs, testNonces } from "./conform-cli.js";

const dir = mkdtempSync(join(tmpdir(), "conform-in-process-"));

export interface InProcessRun {
  code: number;
  report: RunReport;
  stdout: string;
  stderr: string;
  /** stdout and stderr together, for assertion messages. */
  output: string;
  /** The files the run wrote (--json, and --junit when asked for). */
  files: { json: string; junit?: string };
}

/** Runs without a patch go together; a run with one waits until they are done, and the others wait for it. */
const contractLock = {
  shared: 0,
  exclusive: Promise.resolve(),
  drained: [] as Array<() => void>,
  async withShared<T>(run: () => Promise<T>): Promise<T> {
    await this.exclusive;
    this.shared += 1;
    try {
      return await run();
    } finally {
      this.shared -= 1;
      if (this.shared === 0) this.drained.splice(0).forEach((resolve) => resolve());
    }
  },
  async withExclusive<T>(run: () => Promise<T>): Promise<T> {
    const previous = this.exclusive;
    let release = () => {};
    this.exclusive = new Promise<void>((resolve) => (release = resolve));
    await previous;
    if (this.shared > 0) await new Promise<void>((resolve) => this.drained.push(resolve));
    try {
      return await run();
    } finally {
      release();
    }
  },
};

export async function conformInProcess(
  args: string[],
  env: NodeJS.ProcessEnv,
  patches: ContractPatch[] = [],
  options: { junit?: boolean } = {},
): Promise<InProcessRun> {
  const id = Math.random().toString(36).slice(2);
  const files = { json: join(dir, `${id}.json`), ...(options.junit ? { junit: join(dir, `${id}.xml`) } : {}) };
  const out = { stdout: "", stderr: "" };
  const io = {
    out: (text: string) => void (out.stdout += text),
    err: (text: string) => void (out.stderr += text),
    tty: false,
    signals: false,
  };
  const argv = [...testNonces(args), "--json", files.json, ...(files.junit ? ["--junit", files.junit] : [])];
  const run = async () => {
    try {
      return await runConformCommand(argv, { ...process.env, ...env }, io);
    } catch (error) {
      const { code, text } = cliFailure(error);
      io.err(`${text}\n`);
      return code;
    }
  };
  const code =
    patches.length === 0
      ? await contractLock.withShared(run)
      : await contractLock.withExclusive(() => withPatches(patches, run));
  let report: RunReport;
  try {
    report = JSON.parse(readFileSync(files.json, "utf8")) as RunReport;
  } catch {
    throw new Error(`no report (exit ${code}):\n${out.stdout}\n${out.stderr}`);
  }
  return { code, report, ...out, output: `${out.stdout}\n${out.stderr}`, files };
}

async function withPatches<T>(patches: ContractPatch[], run: () => Promise<T>): Promise<T> {
  const restore = patchContract(patches);
  try {
    return await run();
  } finally {
    restore();
  }
}

/**
 * `contracts conform identity` against `baseUrl` in this process (identityRunArgs), with the fault servers'
 * credentials.
 */
export function conformIdentityInProcess(
  baseUrl: string,
  args: string[],
  env: NodeJS.ProcessEnv = {},
): Promise<InProcessRun> {
  return conformInProcess(identityRunArgs(baseUrl, args), { ...FAULT_SERVER_CREDENTIALS, ...env });
}
