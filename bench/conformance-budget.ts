// Issue #35: what the default budget costs and what it catches. Runs `contracts conform links` as a QA job would
// (the whole API, no --operation) against the correct links server and every links fault server, once with the
// default budget (60 requests read-only, 90 with --allow-writes) and once with none (--max-requests none). The servers
// keep the seed's cap of 30 requests per window, in one-second windows instead of one-minute ones, so the whole
// benchmark takes minutes. The duration at 30/min is the requests over the cap (the issue's arithmetic: 60 requests,
// 2 minutes); beside it, the measured run scaled by the 60 times longer window, which on a busy machine also scales
// every millisecond the runner and the server spend, and so overstates.
// Prints, per server: requests, duration at 30/min and whether the fault was caught, for both runs.
// Run: npm run bench:conformance (after bench/conformance.ts), or npx tsx bench/conformance-budget.ts
import { LINKS_FAULTS, runLinksFault } from "../conformance/fault-servers/budget-runs.js";
import { printTable } from "./support.js";

const WINDOW_SCALE = 60;
const CAP_PER_MINUTE = 30;
const minutes = (seconds: number) =>
  `${Math.floor(seconds / 60)}m${String(Math.round(seconds % 60)).padStart(2, "0")}s`;
const atCap = (requests: number) => minutes((requests / CAP_PER_MINUTE) * 60);
const measured = (ms: number) => minutes((ms * WINDOW_SCALE) / 1000);

const servers = [
  { fault: undefined, writes: false },
  { fault: undefined, writes: true },
  ...LINKS_FAULTS.map((fault) => ({ fault, writes: fault.args.includes("--allow-writes") })),
];
const rows: Array<Record<string, string | number>> = [];
let missed = 0;
for (const { fault, writes } of servers) {
  const budgeted = await runLinksFault(fault, "default", writes);
  const unlimited = await runLinksFault(fault, "none", writes);
  if (unlimited.caught && !budgeted.caught) missed += 1;
  rows.push({
    server: fault?.name ?? "clean (nothing to catch)",
    run: writes ? "writes" : "read-only",
    check: fault?.check ?? "-",
    "default: requests": budgeted.requests,
    "at 30/min": atCap(budgeted.requests),
    "measured x60": measured(budgeted.durationMs),
    caught: fault ? (budgeted.caught ? "yes" : "NO") : budgeted.caught ? "passes" : "FAILS",
    "unlimited: requests": unlimited.requests,
    "at 30/min ": atCap(unlimited.requests),
    "measured x60 ": measured(unlimited.durationMs),
    "caught ": fault ? (unlimited.caught ? "yes" : "NO") : unlimited.caught ? "passes" : "FAILS",
    "default/unlimited": budgeted.requests / unlimited.requests,
  });
}
printTable(rows);
console.log(
  `\n${missed === 0 ? "Every" : `${missed} fault(s) NOT caught by the default budget; not every`} fault an unlimited run ` +
    `catches is caught with the default budget (60 requests read-only, 90 with --allow-writes).`,
);
process.exit(missed === 0 ? 0 : 1);
