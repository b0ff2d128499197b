// Measuring helpers shared by the bench scripts. Every bench compares against a baseline measured in the same run
// and prints ratios: absolute numbers on a shared, noisy machine mean little.
import { type ChildProcess, spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface LoadResult {
  requests: number;
  seconds: number;
  perSecond: number;
  failures: number;
}

/** Sends requests from `concurrency` loops for `durationMs` and counts the answers. */
export async function measureThroughput(
  send: () => Promise<Response>,
  durationMs = 3000,
  concurrency = 16,
): Promise<LoadResult> {
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
export async function startBareServer(
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ url: string; server: Server }> {
  const payload = JSON.stringify(body);
  const server = createServer((request, response) => {
    request.resume();
    request.on("end", () => response.writeHead(200, { "Content-Type": "application/json", ...headers }).end(payload));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

export interface StartedProcess {
  child: ChildProcess;
  /** Milliseconds from spawning until every port answered an HTTP request. */
  startupMs: number;
  /** CPU time the process tree had used by then: the start-up's cost, less sensitive to a busy machine. */
  startupCpuMs: number;
  /** Sends SIGTERM and resolves when the process has exited. */
  stop(): Promise<void>;
}

/** Spawns a server process and times it until each of `ports` on 127.0.0.1 answers. */
export async function startProcess(
  command: string,
  args: string[],
  ports: number[],
  cwd?: string,
): Promise<StartedProcess> {
  const start = performance.now();
  const child = spawn(command, args, { cwd, stdio: "ignore" });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const answers = async (port: number) => {
    try {
      await (await fetch(`http://127.0.0.1:${port}/`)).arrayBuffer();
      return true;
    } catch {
      return false;
    }
  };
  while (!(await Promise.all(ports.map(answers))).every(Boolean)) {
    if (child.exitCode !== null)
      throw new Error(`${command} ${args.join(" ")} exited with code ${child.exitCode} before it answered`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  const startupMs = performance.now() - start;
  return {
    child,
    startupMs,
    startupCpuMs: treeUsage(child.pid!).cpuMs,
    stop: async () => {
      child.kill("SIGTERM");
      await exited;
    },
  };
}

/** A bare node:http server process answering every request with the same JSON body and headers: the baseline. */
export function startBareServerProcess(
  port: number,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<StartedProcess> {
  const payload = JSON.stringify(body);
  const script = `const h = ${JSON.stringify({ "Content-Type": "application/json", ...headers })}; const b = ${JSON.stringify(payload)};
require("node:http").createServer((q, s) => { q.resume(); q.on("end", () => s.writeHead(200, h).end(b)); }).listen(${port}, "127.0.0.1");`;
  return startProcess(process.execPath, ["-e", script], [port]);
}

interface ProcessStatus {
  ppid: number;
  rssBytes: number;
  cpuMs: number;
}

/** What /proc says about every process (Linux). */
function allProcesses(): Map<number, ProcessStatus> {
  const processes = new Map<number, ProcessStatus>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      // Fields after the command name: state ppid ... utime (14th field overall) stime (15th), in clock ticks of 10 ms.
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      const status = readFileSync(`/proc/${entry}/status`, "utf8");
      processes.set(Number(entry), {
        ppid: Number(fields[1]),
        rssBytes: Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? 0) * 1024,
        cpuMs: (Number(fields[11]) + Number(fields[12])) * 10,
      });
    } catch {
      // the process ended while we looked
    }
  }
  return processes;
}

/** Resident memory and CPU time so far of a process and every process below it. */
export function treeUsage(pid: number): { rssBytes: number; cpuMs: number } {
  const processes = allProcesses();
  const tree = [pid];
  for (let i = 0; i < tree.length; i++) for (const [child, p] of processes) if (p.ppid === tree[i]) tree.push(child);
  const members = tree.flatMap((member) => processes.get(member) ?? []);
  return {
    rssBytes: members.reduce((sum, p) => sum + p.rssBytes, 0),
    cpuMs: members.reduce((sum, p) => sum + p.cpuMs, 0),
  };
}

export function printTable(rows: Array<Record<string, string | number>>): void {
  const keys = Object.keys(rows[0] ?? {});
  const cell = (value: string | number) => (typeof value === "number" ? value.toFixed(value < 10 ? 2 : 0) : value);
  const widths = keys.map((k) => Math.max(k.length, ...rows.map((r) => cell(r[k]!).length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join("  ");
  console.log(line(keys));
  for (const row of rows) console.log(line(keys.map((k) => cell(row[k]!))));
}
