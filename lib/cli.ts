// Shared pieces of the `contracts` CLI commands.
import { readFileSync } from "node:fs";
import { inspect } from "node:util";
import { API_NAMES, type ApiName } from "./contract/index.js";

/** A mistake in the command line or a problem the user can fix: printed as one line, never as a stack trace. */
export class UsageError extends Error {
  constructor(
    message: string,
    /** 2 for a usage error; other codes for problems such as an unreachable target or a port in use. */
    readonly exitCode = 2,
  ) {
    super(message);
  }
}

/** What the CLI does with an error a command threw: a UsageError or a malformed option is the user's to fix and is
 * printed as one line with its exit code; anything else is a bug, printed whole with exit code 1. */
export function cliFailure(error: unknown): { code: number; text: string } {
  if (error instanceof UsageError) return { code: error.exitCode, text: `contracts: ${error.message}` };
  const parseError = (error as { code?: string } | undefined)?.code?.startsWith("ERR_PARSE_ARGS");
  if (parseError) return { code: 2, text: `contracts: ${(error as Error).message}` };
  return { code: 1, text: inspect(error) };
}

export function parseApiName(name: string): ApiName {
  if (!(API_NAMES as readonly string[]).includes(name))
    throw new UsageError(`unknown API "${name}"; expected one of ${API_NAMES.join(", ")}`);
  return name as ApiName;
}

export function parsePort(text: string, what: string): number {
  const port = Number(text);
  if (!Number.isInteger(port) || port < 1 || port > 65535)
    throw new UsageError(`${what} must be a port number from 1 to 65535, got "${text}"`);
  return port;
}

export function splitList(value: string | undefined): string[] {
  return (value ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
}

/**
 * Resolves, with a word saying why, when the command should stop: on the first SIGINT, SIGTERM or SIGHUP, or when
 * the process that started it is gone (a supervisor, `npm` or a terminal killed with SIGKILL cannot pass a signal
 * on, so the orphaned command would otherwise keep its ports).
 */
export function untilSignal(): Promise<string> {
  return new Promise((resolve) => {
    const orphaned = orphanCheck();
    const stop = (reason: string) => {
      clearInterval(watch);
      resolve(reason);
    };
    for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.once(signal, () => stop(signal));
    const watch = setInterval(() => {
      const reason = orphaned();
      if (reason) stop(reason);
    }, 250);
    watch.unref();
  });
}

/**
 * A check that names the reason once the process that started this one is gone. Linux reparents an orphan, and
 * process.ppid reads the current parent each time. `npm start` and `npx` run us through `sh -c`, which stays
 * between them and us (dash does not exec the command) and outlives an npm killed by SIGHUP or SIGKILL: through
 * such a shell, the shell's own parent is watched too (on Linux, where /proc tells).
 */
function orphanCheck(): () => string | undefined {
  const parent = process.ppid;
  const starter = isShellRunningCommand(parent) ? parentOf(parent) : undefined;
  return () => {
    if (process.ppid !== parent) return `parent process ${parent} exited`;
    if (starter !== undefined && parentOf(parent) !== starter)
      return `process ${starter}, which ran this command through sh -c, exited`;
    return undefined;
  };
}

function parentOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
  } catch {
    return undefined;
  }
}

function isShellRunningCommand(pid: number): boolean {
  try {
    const [program, flag] = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
    return /(^|\/)(sh|dash|bash|ash|zsh|ksh)$/.test(program ?? "") && flag === "-c";
  } catch {
    return false;
  }
}

/**
 * Ports per API from a base port (identity on n, links n+1, catalog n+2, pay n+3) and `<api>=<port>` pairs,
 * the pairs winning over the base.
 */
export function parsePortAssignments(
  basePort: string | undefined,
  pairs: readonly string[],
): Partial<Record<ApiName, number>> {
  const ports: Partial<Record<ApiName, number>> = {};
  if (basePort !== undefined) {
    const base = parsePort(basePort, "--base-port");
    for (const [offset, api] of API_NAMES.entries())
      ports[api] = parsePort(String(base + offset), `--base-port + ${offset}`);
  }
  for (const pair of pairs) {
    const separator = pair.indexOf("=");
    if (separator < 0) throw new UsageError(`--port takes <api>=<port>, got "${pair}"`);
    ports[parseApiName(pair.slice(0, separator))] = parsePort(
      pair.slice(separator + 1),
      `--port ${pair.slice(0, separator)}`,
    );
  }
  return ports;
}

/** A request rate as people write it: "30" (per minute), "30/m", "30/min", "30 / minute", "5/s", "900/hour". */
export function parseRequestRate(text: string): { limit: number; windowSeconds: number } | undefined {
  const match = /^(\d+)\s*(?:\/\s*(?:(s)(?:ec|econd)?|(m)(?:in|inute)?|(h)(?:r|our)?))?$/i.exec(text.trim());
  if (!match) return undefined;
  const limit = Number(match[1]);
  if (limit < 1) return undefined;
  const windowSeconds = match[2] ? 1 : match[4] ? 3600 : 60;
  return { limit, windowSeconds };
}
