// Helpers to run the real CLI as a child process and to find processes it may have left behind.
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterEachFile } from "./file-end.js";

export const repoRoot = fileURLToPath(new URL("../..", import.meta.url));
export const contractsBin = `${repoRoot}dist/bin/contracts.js`;

export interface RunningCommand {
  child: ChildProcessWithoutNullStreams;
  stdout: () => string;
  stderr: () => string;
  /** Resolves with the exit code (or the signal name) when the command ends. */
  exit: Promise<number | string>;
  waitForOutput(pattern: RegExp, timeoutMs?: number): Promise<string>;
}

// A command still running when its test file ends belongs to a test that failed or timed out: it is killed, so that
// it does not burn a core for the rest of the run, or outlive it.
const running = new Set<ChildProcessWithoutNullStreams>();
afterEachFile(() => {
  for (const child of running) child.kill("SIGKILL");
});

export function runContracts(args: string[], env: NodeJS.ProcessEnv = {}): RunningCommand {
  return spawnCommand(process.execPath, [contractsBin, ...args], repoRoot, env);
}

/** How long after a command exits its output may still arrive before `exit` resolves without the rest. */
const OUTPUT_DRAIN_MS = 2_000;

/** Runs any command (e.g. an installed `contracts` binary) with the output collected as runContracts does. */
export function spawnCommand(
  command: string,
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv = {},
): RunningCommand {
  const child = spawn(command, args, { cwd, env: { ...process.env, ...env } });
  let out = "";
  let err = "";
  child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (err += chunk.toString()));
  running.add(child);
  const exit = new Promise<number | string>((resolve) =>
    child.once("exit", (code, signal) => {
      running.delete(child);
      // The last of the output can still be in the pipes at "exit" (a usage error's one line was seen missing); it
      // is read by "close", which a process the command left behind holding the pipes would delay for ever.
      const timer = setTimeout(() => resolve(code ?? signal ?? -1), OUTPUT_DRAIN_MS);
      child.once("close", () => {
        clearTimeout(timer);
        resolve(code ?? signal ?? -1);
      });
    }),
  );
  return {
    child,
    stdout: () => out,
    stderr: () => err,
    exit,
    async waitForOutput(pattern, timeoutMs = 60_000) {
      const deadline = Date.now() + timeoutMs;
      while (!pattern.test(out)) {
        if (child.exitCode !== null && !pattern.test(await exit.then(() => out))) {
          throw new Error(`command exited (${child.exitCode}) before printing ${pattern}:\n${out}\n${err}`);
        }
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${pattern}:\n${out}\n${err}`);
        await new Promise((r) => setTimeout(r, 100));
      }
      return out;
    },
  };
}

/** Runs a command to its end and returns its exit code and output. Tests never run a child synchronously: a worker
 * blocked for 60 s misses vitest's own messages ("Timeout calling onTaskUpdate"); the run fails, every test green. */
export async function runToEnd(
  command: string,
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv = {},
): Promise<{ status: number | string; stdout: string; stderr: string }> {
  const run = spawnCommand(command, args, cwd, env);
  const status = await run.exit;
  return { status, stdout: run.stdout(), stderr: run.stderr() };
}

/** What `git <args>` prints in this checkout. */
export async function gitOutput(args: string[]): Promise<string> {
  const git = await runToEnd("git", args, repoRoot);
  if (git.status !== 0) throw new Error(`git ${args.join(" ")} exited ${git.status}: ${git.stderr}`);
  return git.stdout;
}

/** PIDs of live processes whose command line contains `fragment`. */
export function processesMatching(fragment: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, "utf8").replaceAll("\0", " ");
      const state = readFileSync(`/proc/${entry}/stat`, "utf8").split(") ")[1]?.[0];
      if (cmdline.includes(fragment) && state !== "Z") pids.push(Number(entry));
    } catch {
      // the process ended while we looked
    }
  }
  return pids;
}

/** `pid` and every live process below it (children, grandchildren, ...), read from /proc. */
export function processTree(pid: number): number[] {
  const parents = new Map<number, number>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = statOf(Number(entry));
    if (stat && stat.state !== "Z") parents.set(Number(entry), stat.ppid);
  }
  const tree = parents.has(pid) ? [pid] : [];
  for (let i = 0; i < tree.length; i++) {
    for (const [child, parent] of parents) if (parent === tree[i]) tree.push(child);
  }
  return tree;
}

/** Whether `pid` is a live process (a zombie, dead but not yet reaped, is not). */
export function isAlive(pid: number): boolean {
  const stat = statOf(pid);
  return stat !== undefined && stat.state !== "Z";
}

/** The command line of a process, arguments separated by spaces ("" once it is gone). */
export function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ").trim();
  } catch {
    return "";
  }
}

function statOf(pid: number): { state: string; ppid: number } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const [state, ppid] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return { state: state!, ppid: Number(ppid) };
  } catch {
    return undefined;
  }
}
