// Issue #6 / #12: how fast the conformance runner checks a deployment. Runs the runner in-process against the correct
// local catalog and pay servers (conformance/fault-servers) and, in the same run, a raw loop that sends the very
// requests the runner sent (same method, URL, headers and body, one after the other, to the same server; a signed
// pay request gets a fresh nonce and signature, as any client must send), so both loops pay the same server-side
// cost and the ratio is the runner's own cost per request: generation, validation, checks and reporting, against a
// plain fetch loop (the target names fetch; the runner itself sends with undici's leaner request API, and against a
// bare loop of that API the ratio is lower).
// Prints checks per second and that ratio. Run: npm run bench:conformance
import { hmacSha256Signer } from "../lib/pay-signature.js";
import { FAULT_SERVER_CREDENTIALS } from "../conformance/fault-servers/credentials.js";
import { startReferenceServer } from "../conformance/fault-servers/faults.js";
import { runConformance } from "../conformance/runner.js";
import { Transport } from "../conformance/send/transport.js";
import { CHECK_NAMES } from "../conformance/model/check-registry.js";
import type { ApiName } from "../lib/contract/index.js";
import { printTable } from "./support.js";

const MAX_EXAMPLES = Number(process.env.BENCH_MAX_EXAMPLES ?? 60);
const C = FAULT_SERVER_CREDENTIALS;

interface SentRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body?: string;
}

/** Runs `work` while recording every request the runner's transport sends. */
async function recordingRequests<T>(work: () => Promise<T>): Promise<{ result: T; sent: SentRequest[] }> {
  const sent: SentRequest[] = [];
  // eslint-disable-next-line @typescript-eslint/unbound-method -- put back as it was, and called with its own `this`
  const original = Transport.prototype.send;
  Transport.prototype.send = function (this: Transport, request) {
    sent.push({
      url: request.url,
      method: request.method,
      headers: { ...request.headers },
      ...(request.body !== undefined ? { body: request.body } : {}),
    });
    return original.call(this, request);
  };
  try {
    return { result: await work(), sent };
  } finally {
    Transport.prototype.send = original;
  }
}

/** A signed pay body again, with a fresh nonce and its signature; anything else as it was. */
async function freshlySigned(
  request: SentRequest,
  sign: ReturnType<typeof hmacSha256Signer>,
  nonce: number,
): Promise<SentRequest> {
  if (!request.body || !request.headers.authorization) return request;
  let body: unknown;
  try {
    body = JSON.parse(request.body);
  } catch {
    return request;
  }
  if (typeof body !== "object" || body === null || !("nonce" in body)) return request;
  const fresh = JSON.stringify({ ...body, nonce });
  return {
    ...request,
    body: fresh,
    headers: { ...request.headers, authorization: await sign(new TextEncoder().encode(fresh)) },
  };
}

/** The runner's requests again, as bare sequential fetches; requests per second. */
async function rawLoop(api: ApiName, sent: SentRequest[]): Promise<number> {
  const sign = hmacSha256Signer(C.PAY_SECRET);
  let nonce = Date.now() * 1000;
  const start = performance.now();
  for (const recorded of sent) {
    const request = api === "pay" ? await freshlySigned(recorded, sign, (nonce += 1)) : recorded;
    const response = await fetch(request.url, {
      method: request.method,
      headers: request.headers,
      body: request.body,
      redirect: "manual",
    });
    await response.arrayBuffer();
  }
  return sent.length / ((performance.now() - start) / 1000);
}

/** One in-process run of the runner against `url`, timed. */
async function timedRun(
  api: ApiName,
  url: string,
): Promise<{ seconds: number; requests: number; checks: number; failures: number }> {
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
    rateLimit: { limit: 1_000_000, windowSeconds: 1 },
    timeoutMs: 10_000,
    maxShrinks: 30,
    signal: new AbortController().signal,
  });
  const checks = report.checks.reduce((n, c) => n + c.passed + c.failed, 0);
  return {
    seconds: (performance.now() - start) / 1000,
    requests: report.requests,
    checks,
    failures: report.failures.length,
  };
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
    const { result: steady, sent } = await recordingRequests(() => timedRun(api, server.url));
    const raw = await rawLoop(api, sent);
    const rate = (run: typeof first) => run.requests / run.seconds;
    rows.push({
      api,
      requests: steady.requests,
      checks: steady.checks,
      "checks/s": steady.checks / steady.seconds,
      "runner req/s": rate(steady),
      "raw req/s": raw,
      "runner/raw": rate(steady) / raw,
      "first run/raw": rate(first) / raw,
      failures: steady.failures,
    });
  } finally {
    await server.close();
  }
}
printTable(rows);
console.log(
  `\nrunner/raw: the runner's requests per second (second run of the process) as a share of bare sequential fetches of the same\nrequests to the same server (target: at least 0.8); first run/raw: the same for the process's first run, which also compiles the validators.`,
);
