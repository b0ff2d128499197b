// Starts an in-process sandbox on free ports (port 0: the sandbox reports its real URLs), with a fetch that checks
// every response against the contracts.
import { API_NAMES, type ApiName } from "../../../lib/contract/index.js";
import { type RunningSandbox, type SandboxOptions, startSandbox } from "../../../mock/sandbox/server.js";
import { contractFetch, type CheckedFetch } from "./contract-fetch.js";

export interface TestSandbox {
  sandbox: RunningSandbox;
  urls: Record<ApiName, string>;
  /** fetch that validates every contract response of this sandbox. */
  fetch: CheckedFetch;
  stop(): Promise<void>;
}

export function portsFrom(base: number): Record<ApiName, number> {
  return Object.fromEntries(API_NAMES.map((api, index) => [api, base + index])) as Record<ApiName, number>;
}

export async function startTestSandbox(options: Omit<SandboxOptions, "ports" | "host"> = {}): Promise<TestSandbox> {
  const sandbox = await startSandbox({
    ...options,
    host: "127.0.0.1",
    ports: { identity: 0, links: 0, catalog: 0, pay: 0 },
  });
  return { sandbox, urls: sandbox.urls, fetch: contractFetch(sandbox.urls), stop: () => sandbox.stop() };
}
