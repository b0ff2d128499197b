// Shared pieces of the `contracts` CLI commands.
import { API_NAMES, type ApiName } from "./openapi.js";

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

export function parseApiName(name: string): ApiName {
  if (!(API_NAMES as readonly string[]).includes(name)) throw new UsageError(`unknown API "${name}"; expected one of ${API_NAMES.join(", ")}`);
  return name as ApiName;
}

export function parsePort(text: string, what: string): number {
  const port = Number(text);
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new UsageError(`${what} must be a port number from 1 to 65535, got "${text}"`);
  return port;
}

export function splitList(value: string | undefined): string[] {
  return (value ?? "").split(",").map((s) => s.trim()).filter(Boolean);
}

/** Resolves on the first SIGINT or SIGTERM, with the signal's name. */
export function untilSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    process.once("SIGINT", () => resolve("SIGINT"));
    process.once("SIGTERM", () => resolve("SIGTERM"));
  });
}

/**
 * Ports per API from a base port (identity on n, links n+1, catalog n+2, pay n+3) and `<api>=<port>` pairs,
 * the pairs winning over the base.
 */
export function parsePortAssignments(basePort: string | undefined, pairs: readonly string[]): Partial<Record<ApiName, number>> {
  const ports: Partial<Record<ApiName, number>> = {};
  if (basePort !== undefined) {
    const base = parsePort(basePort, "--base-port");
    for (const [offset, api] of API_NAMES.entries()) ports[api] = parsePort(String(base + offset), `--base-port + ${offset}`);
  }
  for (const pair of pairs) {
    const separator = pair.indexOf("=");
    if (separator < 0) throw new UsageError(`--port takes <api>=<port>, got "${pair}"`);
    ports[parseApiName(pair.slice(0, separator))] = parsePort(pair.slice(separator + 1), `--port ${pair.slice(0, separator)}`);
  }
  return ports;
}
