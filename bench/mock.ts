// Issues #4 and #15: the Prism mocks as users start them (`npm start`: npm and the one mock process) against a bare
// node:http server process, measured in the same run: start-up until every port answers, the CPU time used until
// then (the start-up's cost; on a busy machine the wall time mostly measures the wait for a core), resident memory
// of the whole process tree, and requests per second of one mock. Targets: `npm start` answers on all four ports
// within 3 s and its tree holds at most 300 MB. Run: npm run bench:mock (after `npm run build`, as `npm start` expects)
import { portIsFree } from "../mock/prism.js";
import { fromPackageRoot } from "../lib/paths.js";
import { measureThroughput, printTable, startBareServerProcess, startProcess, treeUsage } from "./support.js";

const BASE_PORT = 4240;
const BARE_PORT = 4249;
const MOCK_PORTS = [0, 1, 2, 3].map((offset) => BASE_PORT + offset);
const LINKS_PORT = BASE_PORT + 1;
const DURATION_MS = Number(process.env.BENCH_DURATION_MS ?? 3000);
const MB = 1024 * 1024;

for (const port of [...MOCK_PORTS, BARE_PORT]) {
  if (!(await portIsFree("127.0.0.1", port)))
    throw new Error(`port ${port} is in use; the bench needs ${BASE_PORT}-${BARE_PORT}`);
}

const mock = await startProcess(
  "npm",
  ["start", "--silent", "--", "--base-port", String(BASE_PORT)],
  MOCK_PORTS,
  fromPackageRoot(),
);
const request = (port: number) => () =>
  fetch(`http://127.0.0.1:${port}/api/account`, { headers: { Authorization: "Bearer bench-key" } });
try {
  const sample = await request(LINKS_PORT)();
  const rateHeaders = Object.fromEntries([...sample.headers].filter(([name]) => name.startsWith("x-ratelimit-")));
  const bare = await startBareServerProcess(BARE_PORT, await sample.json(), rateHeaders);
  try {
    const idleRss = { mock: treeUsage(mock.child.pid!).rssBytes, bare: treeUsage(bare.child.pid!).rssBytes };
    // Alternate the two so that machine noise hits both alike.
    const mock1 = await measureThroughput(request(LINKS_PORT), DURATION_MS / 2);
    const bare1 = await measureThroughput(request(BARE_PORT), DURATION_MS / 2);
    const mock2 = await measureThroughput(request(LINKS_PORT), DURATION_MS / 2);
    const bare2 = await measureThroughput(request(BARE_PORT), DURATION_MS / 2);
    const loadedRss = { mock: treeUsage(mock.child.pid!).rssBytes, bare: treeUsage(bare.child.pid!).rssBytes };
    const mockRps = (mock1.perSecond + mock2.perSecond) / 2;
    const bareRps = (bare1.perSecond + bare2.perSecond) / 2;
    printTable([
      {
        measure: "start-up until every port answers (ms)",
        "npm start (4 mocks)": mock.startupMs,
        "bare node:http": bare.startupMs,
        ratio: mock.startupMs / bare.startupMs,
        target: "< 3000 ms",
      },
      {
        measure: "CPU time used until then (ms)",
        "npm start (4 mocks)": mock.startupCpuMs,
        "bare node:http": bare.startupCpuMs,
        ratio: mock.startupCpuMs / bare.startupCpuMs,
        target: "",
      },
      {
        measure: "resident memory of the tree, idle (MB)",
        "npm start (4 mocks)": idleRss.mock / MB,
        "bare node:http": idleRss.bare / MB,
        ratio: idleRss.mock / idleRss.bare,
        target: "<= 300 MB",
      },
      {
        measure: "resident memory of the tree, after load (MB)",
        "npm start (4 mocks)": loadedRss.mock / MB,
        "bare node:http": loadedRss.bare / MB,
        ratio: loadedRss.mock / loadedRss.bare,
        target: "<= 300 MB",
      },
      {
        measure: "links GET /api/account (req/s)",
        "npm start (4 mocks)": mockRps,
        "bare node:http": bareRps,
        ratio: mockRps / bareRps,
        target: "",
      },
    ]);
    if (mock1.failures + mock2.failures > 0)
      console.log(`warning: ${mock1.failures + mock2.failures} non-2xx answers from Prism`);
  } finally {
    await bare.stop();
  }
} finally {
  await mock.stop();
}
