// Issue #5: requests per second of the sandbox on a links list call, as a ratio to a bare node:http server and to
// the Prism mock, all measured in this run (target: at least 0.5x bare node:http). Run: npm run bench:sandbox
import { portIsFree, startMocks } from "../mock/prism.js";
import { startSandbox } from "../mock/sandbox/server.js";
import { measureThroughput, printTable, startBareServer } from "./support.js";

const SANDBOX_PORTS = { identity: 4480, links: 4481, catalog: 4482, pay: 4483 } as const;
const PRISM_PORT = 4485;
const DURATION_MS = Number(process.env.BENCH_DURATION_MS ?? 3000);
const ROUNDS = 3;
const TARGET = 0.5;

for (const port of [...Object.values(SANDBOX_PORTS), PRISM_PORT]) {
  if (!(await portIsFree("127.0.0.1", port))) throw new Error(`port ${port} is in use; the bench needs 4480-4485`);
}

// The limit of 30 per minute is switched off: the bench measures the handling, not the refusals.
const sandbox = await startSandbox({ ports: SANDBOX_PORTS, rateLimit: false });
const prism = await startMocks({ apis: ["links"], ports: { links: PRISM_PORT } });
const path = "/api/domains?limit=10&page=1";
const headers = { Authorization: "Bearer demo-links-key" };

try {
  const sample = await fetch(`${sandbox.urls.links}${path}`, { headers });
  const rateHeaders = Object.fromEntries([...sample.headers].filter(([name]) => name.startsWith("x-ratelimit-")));
  const bare = await startBareServer(await sample.json(), rateHeaders);
  const targets = {
    sandbox: () => fetch(`${sandbox.urls.links}${path}`, { headers }),
    bare: () => fetch(`${bare.url}${path}`, { headers }),
    prism: () => fetch(`http://127.0.0.1:${PRISM_PORT}${path}`, { headers }),
  };
  try {
    const entries = Object.entries(targets) as Array<[keyof typeof targets, () => Promise<Response>]>;
    // Warm up first (JIT, connection pools), then alternate the three over several rounds, so that the noise of a
    // shared machine hits all three alike.
    for (const [, send] of entries) await measureThroughput(send, 500);
    const totals = { sandbox: 0, bare: 0, prism: 0 };
    let failures = 0;
    for (let round = 0; round < ROUNDS; round++) {
      for (const [name, send] of entries) {
        const result = await measureThroughput(send, DURATION_MS / ROUNDS);
        totals[name] += result.perSecond / ROUNDS;
        failures += result.failures;
      }
    }
    printTable([
      { server: "bare node:http", "req/s": totals.bare, "x bare": 1, "x prism": totals.bare / totals.prism },
      {
        server: "sandbox",
        "req/s": totals.sandbox,
        "x bare": totals.sandbox / totals.bare,
        "x prism": totals.sandbox / totals.prism,
      },
      { server: "prism mock", "req/s": totals.prism, "x bare": totals.prism / totals.bare, "x prism": 1 },
    ]);
    const ratio = totals.sandbox / totals.bare;
    console.log(
      `\nlinks GET ${path}: sandbox at ${ratio.toFixed(2)}x bare node:http (target at least ${TARGET}x): ${ratio >= TARGET ? "met" : "NOT met"}`,
    );
    if (failures > 0) console.log(`warning: ${failures} non-2xx answers`);
  } finally {
    bare.server.close();
  }
} finally {
  await prism.stop();
  await sandbox.stop();
}
