// Issue 37: what `contracts proxy` costs the traffic it judges. The latency it adds (one request at a time) and its
// throughput (16 at a time), through the real CLI in its own process in front of the sandbox, as ratios to the same
// requests sent straight to the sandbox and through its forwarding alone (no judge), all measured in this run and
// alternating over several rounds so that the noise of a shared machine hits them alike. Run: npm run bench:proxy
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawn } from "node:child_process";
import { pathToFileURL } from "node:url";
import { startSandbox } from "../mock/sandbox/server.js";
import { fromPackageRoot } from "../lib/paths.js";
import { measureThroughput, median, printTable, timeOne } from "./support.js";

const DURATION_MS = Number(process.env.BENCH_DURATION_MS ?? 3000);
const ROUNDS = 3;
const SEQUENTIAL = 200;
const path = "/api/domains?limit=10&page=1";
const headers = { Authorization: "Bearer demo-links-key" };

// The limit of 30 per minute is switched off: the bench measures forwarding and judging, not the refusals. (The
// sandbox then announces a cap of 10^9, which rate_limit_headers_consistent rightly fails: excluded here.)
const sandbox = await startSandbox({
  host: "127.0.0.1",
  ports: { identity: 0, links: 0, catalog: 0, pay: 0 },
  rateLimit: false,
});
const report = join(mkdtempSync(join(tmpdir(), "bench-proxy-")), "links.json");
/** Spawns a process that prints "at <url>" once it listens; its URL, and a promise of its exit code. */
async function listening(args: string[]): Promise<{ url: string; stop: () => Promise<number | null> }> {
  const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "inherit"] });
  const ended = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const match = /at (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (match) resolve(match[1]!);
    });
    child.once("exit", (code) =>
      reject(new Error(`${args.join(" ")} exited with ${code} before it listened:\n${out}`)),
    );
  });
  return {
    url,
    stop: () => {
      child.kill("SIGTERM");
      return ended;
    },
  };
}

const proxy = await listening([
  fromPackageRoot("dist", "bin", "contracts.js"),
  "proxy",
  "links",
  "--target",
  sandbox.urls.links,
  "--port",
  "0",
  "--json",
  report,
  "--exclude-check",
  "rate_limit_headers_consistent",
]);
// The same forwarding (conformance/proxy/forward.ts) with no judge behind it: what the hop alone costs, so that the
// rest of the proxy's cost is the judging.
const forwardOnly = await listening([
  "--input-type=module",
  "-e",
  `const { startRecordingProxy } = await import(${JSON.stringify(pathToFileURL(fromPackageRoot("dist", "conformance", "proxy", "forward.js")).href)});
const proxy = await startRecordingProxy({ target: new URL(${JSON.stringify(sandbox.urls.links)}), host: "127.0.0.1", port: 0, maxBodyBytes: 1048576, onExchange() {} });
console.log("at " + proxy.url);
process.on("SIGTERM", () => proxy.stop().then(() => process.exit(0)));`,
]);

const targets = {
  direct: () => fetch(`${sandbox.urls.links}${path}`, { headers }),
  forwarding: () => fetch(`${forwardOnly.url}${path}`, { headers }),
  proxy: () => fetch(`${proxy.url}${path}`, { headers }),
};
type Target = keyof typeof targets;

/** Milliseconds of each of `count` requests sent one after the other. */
async function latencies(send: () => Promise<Response>, count: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < count; i++) times.push(await timeOne(async () => (await send()).arrayBuffer()));
  return times;
}

const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.floor(values.length * p)]!;

let sent = 0;
try {
  // Warm up first (JIT, connection pools on both hops).
  for (const send of Object.values(targets)) await measureThroughput(send, 500);
  const times: Record<Target, number[]> = { direct: [], forwarding: [], proxy: [] };
  const perSecond: Record<Target, number> = { direct: 0, forwarding: 0, proxy: 0 };
  let failures = 0;
  for (let round = 0; round < ROUNDS; round++) {
    for (const name of Object.keys(targets) as Target[]) {
      times[name].push(...(await latencies(targets[name], SEQUENTIAL)));
      const load = await measureThroughput(targets[name], DURATION_MS / ROUNDS);
      perSecond[name] += load.perSecond / ROUNDS;
      failures += load.failures;
      if (name === "proxy") sent += SEQUENTIAL + load.requests;
    }
  }
  const label = {
    direct: "straight to the sandbox",
    forwarding: "its forwarding alone",
    proxy: "through contracts proxy",
  };
  const row = (name: Target) => ({
    path: label[name],
    "median ms": median(times[name]),
    "p95 ms": percentile(times[name], 0.95),
    "req/s (16 at a time)": perSecond[name],
    "x direct req/s": perSecond[name] / perSecond.direct,
  });
  printTable([row("direct"), row("forwarding"), row("proxy")]);
  const added = median(times.proxy) - median(times.direct);
  console.log(
    `\nlinks GET ${path}: the proxy adds ${added.toFixed(2)} ms to the median request (${(median(times.proxy) / median(times.direct)).toFixed(2)}x) and keeps ${(perSecond.proxy / perSecond.direct).toFixed(2)}x of the direct throughput (forwarding alone: ${(perSecond.forwarding / perSecond.direct).toFixed(2)}x; the rest is the judging)`,
  );
  if (failures > 0) console.log(`warning: ${failures} non-2xx answers`);
} finally {
  const code = await proxy.stop();
  await forwardOnly.stop();
  await sandbox.stop();
  // The proxy judged every exchange of the bench (the warm-up's too), and the sandbox's traffic passed.
  const judged = (JSON.parse(readFileSync(report, "utf8")) as { passive: { judged: number } }).passive.judged;
  console.log(`contracts proxy judged ${judged} exchanges (at least ${sent} measured) and exited with ${code}`);
}
