// Starts one Prism mock server per API from the bundled contracts, waits until each answers, and stops them all.
import { type ChildProcess, spawn } from "node:child_process";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { dirname, join } from "node:path";
import { API_NAMES, type ApiName } from "../lib/openapi.js";
import { bundlePath } from "../lib/paths.js";

export const DEFAULT_MOCK_PORTS: Record<ApiName, number> = { identity: 4010, links: 4011, catalog: 4012, pay: 4013 };

export interface MockOptions {
  apis?: readonly ApiName[];
  host?: string;
  ports?: Partial<Record<ApiName, number>>;
  /** Generate data from the schemas instead of serving the named examples. */
  dynamic?: boolean;
  /** Forward Prism's request log (info level) instead of errors only. */
  verbose?: boolean;
  /** Where Prism's output goes when verbose; defaults to stderr. */
  log?: (line: string) => void;
  startTimeoutMs?: number;
}

export interface RunningMock {
  api: ApiName;
  url: string;
  port: number;
  pid: number;
}

export interface RunningMocks {
  mocks: RunningMock[];
  /** Resolves when every Prism process has exited. */
  stop(): Promise<void>;
  /** Resolves (never rejects) when one of the Prism processes exits on its own. */
  exited: Promise<{ api: ApiName; code: number | null }>;
}

/** A problem the user can fix (a port in use, a Prism that would not start), reported in one line. */
export class MockStartError extends Error {}

const prismBin = join(dirname(createRequire(import.meta.url).resolve("@stoplight/prism-cli/package.json")), "dist", "index.js");

export function portIsFree(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once("error", () => resolve(false));
    probe.listen({ host, port, exclusive: true }, () => probe.close(() => resolve(true)));
  });
}

async function waitUntilAnswering(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new MockStartError(`Prism for ${url} exited with code ${child.exitCode} while starting`);
    try {
      await fetch(url, { signal: AbortSignal.timeout(1000) });
      return; // any HTTP answer, even Prism's 404 for `/`, means it is serving
    } catch {
      await new Promise((r) => setTimeout(r, 150));
    }
  }
  throw new MockStartError(`Prism for ${url} did not answer within ${timeoutMs / 1000}s`);
}

function stopChild(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const killTimer = setTimeout(() => signalGroup(child, "SIGKILL"), 3000);
    child.once("exit", () => {
      clearTimeout(killTimer);
      resolve();
    });
    signalGroup(child, "SIGTERM");
  });
}

// Prism runs in its own process group, so that the whole group (and anything Prism forks) is stopped together.
function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    if (child.pid) process.kill(-child.pid, signal);
  } catch {
    // already gone
  }
}

export async function startMocks(options: MockOptions = {}): Promise<RunningMocks> {
  const apis = options.apis ?? API_NAMES;
  const host = options.host ?? "127.0.0.1";
  const ports = { ...DEFAULT_MOCK_PORTS, ...options.ports };
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));

  for (const api of apis) {
    if (!(await portIsFree(host, ports[api]))) {
      throw new MockStartError(`port ${ports[api]} on ${host} is already in use (wanted for the ${api} mock); free it or choose another with --port ${api}=<port>`);
    }
  }

  const children = new Map<ApiName, ChildProcess>();
  const stop = async () => {
    await Promise.all([...children.values()].map(stopChild));
  };
  let reportExit: (value: { api: ApiName; code: number | null }) => void = () => {};
  const exited = new Promise<{ api: ApiName; code: number | null }>((resolve) => (reportExit = resolve));

  try {
    const mocks = await Promise.all(
      apis.map(async (api): Promise<RunningMock> => {
        const port = ports[api];
        const args = [prismBin, "mock", "--host", host, "--port", String(port), "--verboseLevel", options.verbose ? "info" : "error"];
        // Without fillProperties=false the faker adds random properties, breaking our closed schemas.
        if (options.dynamic) args.push("--dynamic", "--json-schema-faker-fillProperties=false");
        args.push(bundlePath(api));
        const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"], detached: true });
        children.set(api, child);
        let output = "";
        const collect = (chunk: Buffer) => {
          const text = chunk.toString();
          if (options.verbose) for (const line of text.split("\n").filter(Boolean)) log(`[${api}] ${line}`);
          else output = (output + text).slice(-4000);
        };
        child.stdout?.on("data", collect);
        child.stderr?.on("data", collect);
        child.once("exit", (code) => reportExit({ api, code }));
        const url = `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
        try {
          await waitUntilAnswering(url, child, options.startTimeoutMs ?? 30_000);
        } catch (error) {
          const detail = output.trim().split("\n").at(-1);
          throw new MockStartError(`${(error as Error).message}${detail ? `: ${detail}` : ""}`);
        }
        return { api, url, port, pid: child.pid ?? -1 };
      }),
    );
    return { mocks, stop, exited };
  } catch (error) {
    await stop();
    throw error;
  }
}
