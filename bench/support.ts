// Measuring helpers shared by the bench scripts. Every bench compares against a baseline measured in the same run
// and prints ratios: absolute numbers on a shared, noisy machine mean little.
import { spawn } from "node:child_process";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface LoadResult {
  requests: number;
  seconds: number;
  perSecond: number;
  failures: number;
}

/** Sends requests from `concurrency` loops for `durationMs` and counts the answers. */
export async function measureThroughput(send: () => Promise<Response>, durationMs = 3000, concurrency = 16): Promise<LoadResult> {
  const start = performance.now();
  const deadline = start + durationMs;
  let requests = 0;
  let failures = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < deadline) {
        const response = await send();
        await response.arrayBuffer();
        requests += 1;
        if (!response.ok) failures += 1;
      }
    }),
  );
  const seconds = (performance.now() - start) / 1000;
  return { requests, seconds, perSecond: requests / seconds, failures };
}

/** Milliseconds one call of `fn` takes. */
export async function timeOne(fn: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

export function median(values: number[]): number {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
}

/** A bare node:http server answering every request with the same JSON body and headers: the baseline. */
export async function startBareServer(body: unknown, headers: Record<string, string> = {}): Promise<{ url: string; server: Server }> {
  const payload = JSON.stringify(body);
  const server = createServer((request, response) => {
    request.resume();
    request.on("end", () => response.writeHead(200, { "Content-Type": "application/json", ...headers }).end(payload));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

/** Milliseconds from spawning a bare node:http server process until it answers: the start-up baseline. */
export async function bareServerStartupMs(port: number): Promise<number> {
  const start = performance.now();
  const child = spawn(process.execPath, ["-e", `require("node:http").createServer((q, s) => s.end("{}")).listen(${port}, "127.0.0.1")`], { stdio: "ignore" });
  try {
    for (;;) {
      try {
        await fetch(`http://127.0.0.1:${port}/`);
        return performance.now() - start;
      } catch {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    }
  } finally {
    child.kill();
  }
}

export function printTable(rows: Array<Record<string, string | number>>): void {
  const keys = Object.keys(rows[0] ?? {});
  const cell = (value: string | number) => (typeof value === "number" ? value.toFixed(value < 10 ? 2 : 0) : value);
  const widths = keys.map((k) => Math.max(k.length, ...rows.map((r) => cell(r[k]!).length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join("  ");
  console.log(line(keys));
  for (const row of rows) console.log(line(keys.map((k) => cell(row[k]!))));
}
