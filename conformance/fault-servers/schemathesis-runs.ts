import type { ApiName } from "../../lib/contract/index.js";
import type { Fault } from "./faults.js";

/**
 * How fast Schemathesis may send to our test servers: links' fault servers and oracle count the contract's 30
 * requests in one-second windows, so a faster run gets 429s, which Schemathesis's checks take for faults; the other
 * servers have no limit.
 */
export function testServerRate(api: ApiName): string {
  return api === "links" ? "25/s" : "1000/s";
}

/**
 * What Schemathesis runs against `fault` (`npm run bench:schemathesis`, test/release/schemathesis-faults.test.ts): the
 * `contracts schemathesis` arguments that give the project the operations and writes of faultRunArgs (pay's nonces
 * in milliseconds, so that it need not wait a second a request), and the `st run` options after the base URL.
 */
export function faultSchemathesisArgs(fault: Fault): { project: string[]; seed: number; run: string[] } {
  const operations = fault.args.flatMap((arg, i) => (fault.args[i - 1] === "--operation" ? ["--operation", arg] : []));
  return {
    project: [
      fault.api,
      ...(fault.args.includes("--allow-writes") ? ["--allow-writes"] : []),
      ...operations,
      ...(fault.api === "pay" ? ["--nonce", "milliseconds"] : []),
    ],
    seed: 7,
    run: ["--max-examples", "3", "--rate-limit", testServerRate(fault.api)],
  };
}
