// Issue #48: per fault server, whether `contracts conform` catches the fault and whether Schemathesis does with the
// files `contracts schemathesis` writes, with the requests each sent (the server's own log) and the time each took.
// Both run on the same seed with the same few examples per operation; conform with the fault's own arguments, and
// Schemathesis on the project written with the same --operation and --allow-writes (so both see the same
// operations), as faultSchemathesisArgs sets it, the test of the same runs (test/release/schemathesis-faults.test.ts)
// too. Installs the pinned Schemathesis first when it is missing.
// Run: npm run bench:schemathesis
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runConformCommand } from "../conformance/conform-command.js";
import { patchContract } from "../conformance/fault-servers/contract-patch.js";
import { FAULT_SERVER_CREDENTIALS, FAULTS, faultRunArgs } from "../conformance/fault-servers/faults.js";
import { faultSchemathesisArgs } from "../conformance/fault-servers/schemathesis-runs.js";
import { runSchemathesisCommand } from "../conformance/schemathesis/cli.js";
import { installSchemathesis, runLocalSchemathesis } from "../conformance/schemathesis/local-run.js";
import { printTable } from "./support.js";

const quiet = { out: () => {}, err: () => {} };
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

await installSchemathesis();
const only = process.argv[2];
const rows: Array<Record<string, string | number>> = [];
const totals = { conform: 0, schemathesis: 0, faults: 0 };
for (const fault of FAULTS.filter((each) => !only || each.api === only)) {
  const undo = fault.contract ? patchContract(fault.contract) : () => {};
  const server = await fault.start();
  try {
    const conformStart = Date.now();
    const code = await runConformCommand(
      faultRunArgs(fault, server.url),
      { ...FAULT_SERVER_CREDENTIALS },
      quiet as never,
    ).catch(() => 2);
    const conformMs = Date.now() - conformStart;
    const conformRequests = server.log.length;

    const { project, seed, run } = faultSchemathesisArgs(fault);
    const dir = join(mkdtempSync(join(tmpdir(), "st-bench-")), fault.api);
    runSchemathesisCommand([...project, "--out", dir], { out: () => {} });
    const stStart = Date.now();
    const { code: stCode } = await runLocalSchemathesis(dir, fault.api, server.url, {
      seed,
      env: { ...FAULT_SERVER_CREDENTIALS, IDENTITY_ACCESS_TOKEN: "none" },
      more: run,
    });
    const stMs = Date.now() - stStart;
    totals.faults += 1;
    if (code === 1) totals.conform += 1;
    if (stCode === 1) totals.schemathesis += 1;
    rows.push({
      fault: fault.name,
      check: fault.check,
      conform: code === 1 ? "caught" : "missed",
      "conform requests": conformRequests,
      "conform time": seconds(conformMs),
      schemathesis: stCode === 1 ? "caught" : stCode === 0 ? "missed" : `error (exit ${stCode})`,
      "st requests": server.log.length - conformRequests,
      "st time": seconds(stMs),
    });
    console.error(`${fault.name}: conform ${code}, schemathesis ${stCode}`);
  } finally {
    await server.close();
    undo();
  }
}
printTable(rows);
console.log(
  `\n${totals.faults} fault servers: contracts conform caught ${totals.conform}, Schemathesis with our files ${totals.schemathesis}`,
);
