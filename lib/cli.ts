// Shared pieces of the `contracts` CLI commands.
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
