// Issue #4: start-up time of the four Prism mocks and requests per second of one mock, each as a ratio to a bare
// node:http server measured in the same run. Run: npm run bench:mock
import { portIsFree, startMocks } from "../mock/prism.js";
import { bareServerStartupMs, measureThroughput, printTable, startBareServer } from "./support.js";

const PORTS = { identity: 4240, links: 4241, catalog: 4242, pay: 4243 } as const;
const DURATION_MS = Number(process.env.BENCH_DURATION_MS ?? 3000);

for (const port of [...Object.values(PORTS), 4249]) {
  if (!(await portIsFree("127.0.0.1", port))) throw new Error(`port ${port} is in use; the bench needs 4240-4249`);
}

const bareStartup = await bareServerStartupMs(4249);
const startupBegin = performance.now();
const mocks = await startMocks({ ports: PORTS });
const prismStartup = performance.now() - startupBegin;

try {
  const request = () => fetch(`http://127.0.0.1:${PORTS.links}/api/account`, { headers: { Authorization: "Bearer bench-key" } });
  const sample = await request();
  const body = await sample.json();
  const bare = await startBareServer(body, { "X-RateLimit-Limit": "30", "X-RateLimit-Remaining": "29", "X-RateLimit-Reset": "1767268800" });
  try {
    // Alternate the two so that machine noise hits both alike.
    const prism1 = await measureThroughput(request, DURATION_MS / 2);
    const bare1 = await measureThroughput(() => fetch(`${bare.url}/api/account`, { headers: { Authorization: "Bearer bench-key" } }), DURATION_MS / 2);
    const prism2 = await measureThroughput(request, DURATION_MS / 2);
    const bare2 = await measureThroughput(() => fetch(`${bare.url}/api/account`, { headers: { Authorization: "Bearer bench-key" } }), DURATION_MS / 2);
    const prismRps = (prism1.perSecond + prism2.perSecond) / 2;
    const bareRps = (bare1.perSecond + bare2.perSecond) / 2;
    printTable([
      { measure: "start-up of all four mocks (ms)", prism: prismStartup, "bare node:http": bareStartup, ratio: prismStartup / bareStartup },
      { measure: "links GET /api/account (req/s)", prism: prismRps, "bare node:http": bareRps, ratio: prismRps / bareRps },
    ]);
    if (prism1.failures + prism2.failures > 0) console.log(`warning: ${prism1.failures + prism2.failures} non-2xx answers from Prism`);
  } finally {
    bare.server.close();
  }
} finally {
  await mocks.stop();
}
