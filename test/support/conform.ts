// Runs `contracts conform` in this process: the same runConformCommand the CLI runs, with the CLI's exit codes and
// error lines, writing to buffers instead of the process's streams. The self-tests that prove each check on a fault
// server run this way (a child process per run cost more than most runs themselves); the tests of the command as a
// process (exit codes, signals, what a shell sees) run the real CLI (conform-cli.ts). A test can also change the
// loaded contract for one run (conformance/fault-servers/contract-patch.ts): such a run waits for the runs on another
// contract, since the patch is seen by every run of this process.
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runConformCommand } from "../../conformance/conform-command.js";
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

/**
 * Runs on the same contract (no patch, or the same patches) go together; a run on another waits until they are done,
 * and the runs that come after it wait for it, in order. The first of a group applies its patches, the last restores
 * the contract.
 */
const contractLock = {
  /** The patches in force (as JSON) and how many runs hold them. */
  words: "[]",
  holders: 0,
  restore: () => {},
  waiting: [] as Array<{ patches: ContractPatch[]; enter: () => void; fail: (error: unknown) => void }>,
  admit(patches: ContractPatch[]) {
    if (this.holders === 0) {
      this.restore = patches.length > 0 ? patchContract(patches) : () => {};
      this.words = JSON.stringify(patches);
    }
    this.holders += 1;
  },
  async hold<T>(patches: ContractPatch[], run: () => Promise<T>): Promise<T> {
    if (this.waiting.length === 0 && (this.holders === 0 || this.words === JSON.stringify(patches)))
      this.admit(patches);
    else await new Promise<void>((enter, fail) => this.waiting.push({ patches, enter, fail }));
    try {
      return await run();
    } finally {
      this.holders -= 1;
      if (this.holders === 0) this.restore();
      // The next waiting run, and those right behind it on the same contract; a patch that cannot be made fails its
      // run only.
      for (
        let next = this.waiting[0];
        next && (this.holders === 0 || this.words === JSON.stringify(next.patches));
        next = this.waiting[0]
      ) {
        this.waiting.shift();
        try {
          this.admit(next.patches);
          next.enter();
        } catch (error) {
          next.fail(error);
        }
      }
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
  const code = await contractLock.hold(patches, run);
  let report: RunReport;
  try {
    report = JSON.parse(readFileSync(files.json, "utf8")) as RunReport;
  } catch {
    throw new Error(`no report (exit ${code}):\n${out.stdout}\n${out.stderr}`);
  }
  return { code, report, ...out, output: `${out.stdout}\n${out.stderr}`, files };
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
