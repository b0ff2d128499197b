import type { Fault } from "./faults.js";

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
    run: ["--max-examples", "3", "--rate-limit", "1000/s"],
  };
}
