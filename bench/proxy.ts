// Issue 37: what `contracts proxy` costs the traffic it judges. The latency it adds (one request at a time) and its
// throughput (16 at a time), through the real CLI in its own process in front of the sandbox, as ratios to the same
// requests sent straight to the sandbox, both measured in this run, alternating over several rounds so that the
// noise of a shared machine hits both alike. Run: npm run bench:proxy
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawn } from "node:child_process";
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
const proxy = spawn(
  process.execPath,
  [
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
  ],
  { stdio: ["ignore", "pipe", "inherit"] },
);
const proxyUrl = await new Promise<string>((resolve, reject) => {
  let out = "";
  proxy.stdout.on("data", (chunk: Buffer) => {
    out += chunk.toString();
    const match = /at (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
    if (match) resolve(match[1]!);
  });
  proxy.once("exit", (code) => reject(new Error(`contracts proxy exited with ${code} before it listened:\n${out}`)));
});
const ended = new Promise<number | null>((resolve) => proxy.once("exit", (code) => resolve(code)));

const targets = {
  direct: () => fetch(`${sandbox.urls.links}${path}`, { headers }),
  proxy: () => fetch(`${proxyUrl}${path}`, { headers }),
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
  const times: Record<Target, number[]> = { direct: [], proxy: [] };
  const perSecond: Record<Target, number> = { direct: 0, proxy: 0 };
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
  const row = (name: Target) => ({
    path: name === "direct" ? "straight to the sandbox" : "through contracts proxy",
    "median ms": median(times[name]),
    "p95 ms": percentile(times[name], 0.95),
    "req/s (16 at a time)": perSecond[name],
    "x direct req/s": perSecond[name] / perSecond.direct,
  });
  printTable([row("direct"), row("proxy")]);
  const added = median(times.proxy) - median(times.direct);
  console.log(
    `\nlinks GET ${path}: the proxy adds ${added.toFixed(2)} ms to the median request (${(median(times.proxy) / median(times.direct)).toFixed(2)}x) and keeps ${(perSecond.proxy / perSecond.direct).toFixed(2)}x of the direct throughput`,
  );
  if (failures > 0) console.log(`warning: ${failures} non-2xx answers`);
} finally {
  proxy.kill("SIGTERM");
  const code = await ended;
  await sandbox.stop();
  // The proxy judged every exchange of the bench (the warm-up's too), and the sandbox's traffic passed.
  const judged = (JSON.parse(readFileSync(report, "utf8")) as { passive: { judged: number } }).passive.judged;
  console.log(`contracts proxy judged ${judged} exchanges (at least ${sent} measured) and exited with ${code}`);
}
