// Issue #6: how fast the conformance runner checks a deployment. Runs the runner in-process against the correct
// local catalog and pay servers (conformance/fault-servers) and, in the same run, a raw loop of the same number of
// sequential requests to the same server; prints checks per second and the ratio of the runner's request rate to
// the raw loop's (the cost of generation, validation and reporting per request). Run: npm run bench:conformance
import { hmacSha256Signer } from "../lib/pay-signature.js";
import { FAULT_SERVER_CREDENTIALS } from "../conformance/fault-servers/credentials.js";
import { startReferenceServer } from "../conformance/fault-servers/faults.js";
import { runConformance } from "../conformance/runner.js";
import { CHECK_NAMES } from "../conformance/checks.js";
import type { ApiName } from "../lib/contract/index.js";
import { printTable } from "./support.js";

const MAX_EXAMPLES = Number(process.env.BENCH_MAX_EXAMPLES ?? 60);
const C = FAULT_SERVER_CREDENTIALS;

/** The same count of sequential requests the runner sent, as bare fetches of one valid request. */
async function rawLoop(api: ApiName, url: string, count: number): Promise<number> {
  const sign = hmacSha256Signer(C.PAY_SECRET);
  const start = performance.now();
  for (let i = 0; i < count; i++) {
    let response: Response;
    if (api === "pay") {
      const body = JSON.stringify({ shop_id: C.PAY_SHOP_ID, nonce: Date.now() * 1000 + i });
      response = await fetch(`${url}/api/balance/`, { method: "POST", headers: { "Content-Type": "application/json", Authorization: await sign(new TextEncoder().encode(body)) }, body });
    } else response = await fetch(`${url}/admin/seller-api/me`, { headers: { "x-seller-api-key": C.CATALOG_API_KEY } });
    await response.arrayBuffer();
  }
  return count / ((performance.now() - start) / 1000);
}

/** One in-process run of the runner against `url`, timed. */
async function timedRun(api: ApiName, url: string): Promise<{ seconds: number; requests: number; checks: number; failures: number }> {
  const start = performance.now();
  const report = await runConformance({
    api,
    baseUrl: url,
    credentials: api === "pay" ? { shopId: C.PAY_SHOP_ID, secret: C.PAY_SECRET } : { apiKey: C.CATALOG_API_KEY },
    maxExamples: MAX_EXAMPLES,
    seed: 1,
    operations: [],
    checks: new Set(CHECK_NAMES),
    allowWrites: false,
    rateLimit: { limit: 1_000_000, windowMs: 1000 },
    timeoutMs: 10_000,
    maxShrinks: 30,
    signal: new AbortController().signal,
  });
  const checks = report.checks.reduce((n, c) => n + c.passed + c.failed, 0);
  return { seconds: (performance.now() - start) / 1000, requests: report.requests, checks, failures: report.failures.length };
}

const rows: Array<Record<string, string | number>> = [];
for (const api of ["catalog", "pay"] as const) {
  const server = await startReferenceServer(api);
  try {
    // One request before anything is timed: Node loads its fetch implementation on first use, a cost of the
    // process, not of the runner or the loop.
    await (await fetch(server.url)).arrayBuffer();
    // The first run of a process also compiles the contract's validators and warms the code up (a CLI run pays it
    // once); the second, same seed and same requests, is the steady per-request cost the target is about.
    const first = await timedRun(api, server.url);
    const steady = await timedRun(api, server.url);
    const raw = await rawLoop(api, server.url, steady.requests);
    const rate = (run: typeof first) => run.requests / run.seconds;
    rows.push({ api, requests: steady.requests, checks: steady.checks, "checks/s": steady.checks / steady.seconds, "runner req/s": rate(steady), "raw req/s": raw, "runner/raw": rate(steady) / raw, "first run/raw": rate(first) / raw, failures: steady.failures });
  } finally {
    await server.close();
  }
}
printTable(rows);
console.log(`\nrunner/raw: the runner's requests per second (second run of the process) as a share of a bare sequential fetch loop to the same\nserver (target: at least 0.8); first run/raw: the same for the process's first run, which also compiles the validators.`);
