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
