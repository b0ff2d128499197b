// Issue #38: writes per second and p99 latency of links domain/add with --data, the durable journal (an answer waits
// for its fdatasync, shared by concurrent requests) against the way before it (answer at once, rewrite the whole
// file 25 ms later, losing the last writes on a crash), measured in this run, alternating, with the in-memory
// sandbox for reference. Target: durable at least 0.5x the old way. Run: npm run bench:sandbox-writes
import { mkdtempSync, rmSync } from "node:fs";
import { open, rename } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defaultConfig } from "../mock/sandbox/config.js";
import { createLinksApi } from "../mock/sandbox/links.js";
import { nodeListener } from "../mock/sandbox/node-adapter.js";
import { startSandbox } from "../mock/sandbox/server.js";
import { type SandboxState, seedState } from "../mock/sandbox/state.js";
import { printTable } from "./support.js";

const DURATION_MS = Number(process.env.BENCH_DURATION_MS ?? 3000);
const ROUNDS = 3;
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const TARGET = 0.5;
/** Every domain added is new (a repeated one is refused with 409, which would measure a refusal). */
let domainNumber = 0;
const directory = mkdtempSync(join(tmpdir(), "bench-sandbox-writes-"));

/** The sandbox's persistence before #38: answer at once, then rewrite the whole state file 25 ms later. */
async function startOldWay(file: string): Promise<{ url: string; stop(): Promise<void> }> {
  const config = defaultConfig();
  const state: SandboxState = await seedState(config);
  let timer: ReturnType<typeof setTimeout> | undefined;
  let writing = Promise.resolve();
  const writeFile = async () => {
    timer = undefined;
    const handle = await open(`${file}.tmp`, "w");
    await handle.writeFile(JSON.stringify(state));
    await handle.sync();
    await handle.close();
    await rename(`${file}.tmp`, file);
  };
  const schedule = () => {
    timer ??= setTimeout(() => {
      writing = writing.then(writeFile);
    }, 25);
  };
  const api = createLinksApi(state.links, { config: config.links, rateLimit: false, onChange: schedule });
  const server: Server = createServer((req, res) => listener(req, res));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const listener = nodeListener(api, {
    name: "links",
    baseUrl: url,
    listenHost: "127.0.0.1",
    maxBodyBytes: 1024 * 1024,
    access: { allowedHosts: [], allowedOrigins: [] },
    commit: () => Promise.resolve(),
  });
  return {
    url,
    async stop() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await writing;
    },
  };
}

interface WriteResult {
  perSecond: number;
  p99Ms: number;
  failures: number;
}

/** domain/add from CONCURRENCY loops for `durationMs`: answers per second and the 99th percentile latency. */
async function measureWrites(baseUrl: string, durationMs: number): Promise<WriteResult> {
  const latencies: number[] = [];
  let failures = 0;
  const start = performance.now();
  const deadline = start + durationMs;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < deadline) {
        const sent = performance.now();
        const response = await fetch(`${baseUrl}/api/domain/add`, {
          method: "POST",
          headers: { authorization: "Bearer demo-links-key", "content-type": "application/json" },
          body: JSON.stringify({ domain: `https://d${++domainNumber}.example.com` }),
        });
        await response.arrayBuffer();
        latencies.push(performance.now() - sent);
        if (!response.ok) failures += 1;
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  const seconds = (performance.now() - start) / 1000;
  return {
    perSecond: latencies.length / seconds,
    p99Ms: latencies[Math.floor(latencies.length * 0.99)] ?? 0,
    failures,
  };
}

const durable = await startSandbox({
  ports: { identity: 0, links: 0, catalog: 0, pay: 0 },
  rateLimit: false,
  dataFile: join(directory, "durable.json"),
});
const memory = await startSandbox({ ports: { identity: 0, links: 0, catalog: 0, pay: 0 }, rateLimit: false });
const old = await startOldWay(join(directory, "old.json"));
const targets = { durable: durable.urls.links, old: old.url, memory: memory.urls.links };
type Name = keyof typeof targets;

try {
  for (const url of Object.values(targets)) await measureWrites(url, 500); // warm up
  const totals: Record<Name, { perSecond: number; p99Ms: number }> = {
    durable: { perSecond: 0, p99Ms: 0 },
    old: { perSecond: 0, p99Ms: 0 },
    memory: { perSecond: 0, p99Ms: 0 },
  };
  let failures = 0;
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, url] of Object.entries(targets) as Array<[Name, string]>) {
      const result = await measureWrites(url, DURATION_MS / ROUNDS);
      totals[name].perSecond += result.perSecond / ROUNDS;
      totals[name].p99Ms = Math.max(totals[name].p99Ms, result.p99Ms);
      failures += result.failures;
    }
  }
  const row = (label: string, name: Name) => ({
    "links domain/add": label,
    "writes/s": totals[name].perSecond,
    "p99 ms": totals[name].p99Ms,
    "x old": totals[name].perSecond / totals.old.perSecond,
  });
  printTable([
    row("--data, before #38 (answer, then rewrite the file 25 ms later)", "old"),
    row("--data, durable (answer after the journal's fdatasync)", "durable"),
    row("in memory (no --data)", "memory"),
  ]);
  const ratio = totals.durable.perSecond / totals.old.perSecond;
  console.log(
    `\nlinks domain/add with --data, ${CONCURRENCY} concurrent clients: durable at ${ratio.toFixed(2)}x the old way ` +
      `(target at least ${TARGET}x): ${ratio >= TARGET ? "met" : "NOT met"}; p99 ${totals.durable.p99Ms.toFixed(1)} ms ` +
      `against ${totals.old.p99Ms.toFixed(1)} ms`,
  );
  if (failures > 0) console.log(`warning: ${failures} non-2xx answers`);
} finally {
  await Promise.all([durable.stop(), memory.stop(), old.stop()]);
  rmSync(directory, { recursive: true, force: true });
}
