// Schemathesis with the files `contracts schemathesis` writes, with writes, over five seeds: no failure and no error
// on the sandbox's four APIs (no secret in the report, no operation the project leaves out in the sandbox's log) and
// on the independent servers written from the seeds (conformance/oracle: links with HTTP error statuses and with
// errors in HTTP 200, catalog, pay). npm test runs the sandbox read-only on seed 1
// (test/conformance/schemathesis-run.test.ts); this file, like everything under test/release/, runs where releases
// are proven: in CI (CI=true) and with `npm run test:release`.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { API_NAMES } from "../../lib/contract/index.js";
import {
  expectCleanSandboxRun,
  ORACLE_RUNS,
  runOnOracle,
  sandboxProject,
  startLoggedSandbox,
} from "../support/schemathesis.js";

const SEEDS = [1, 2, 3, 4, 5];
let logged: Awaited<ReturnType<typeof startLoggedSandbox>>;

beforeAll(async () => {
  logged = await startLoggedSandbox();
}, 600_000);
afterAll(() => logged?.sandbox.stop());

describe.each(SEEDS)("seed %i", (seed) => {
  it.each(API_NAMES)(
    "the sandbox's %s, with writes: no failure, no error, and no operation the project leaves out is called",
    async (api) => {
      const reached = await expectCleanSandboxRun(logged, api, ["--allow-writes"], seed);
      // The log sees what a read-only project leaves out once writes are allowed: the check of the left-out
      // operations (here and in npm test's read-only runs) can fail.
      const readOnly = sandboxProject(api, []);
      if (readOnly.excluded.size > 0)
        expect([...reached].filter((id) => readOnly.excluded.has(id)).length).toBeGreaterThan(0);
    },
    600_000,
  );
});

// Side by side, each on its own server: the links runs mostly wait for their one-second windows.
describe("the oracles", () => {
  it.concurrent.for(SEEDS.flatMap((seed) => ORACLE_RUNS.map((oracle) => [seed, oracle.name, oracle] as const)))(
    "seed %i, the oracle %s, with writes: no failure, no error",
    { timeout: 600_000 },
    async ([seed, , oracle], { expect }) => {
      const run = await runOnOracle(oracle, seed);
      expect(run.code, run.output).toBe(0);
      expect(run.requests, run.output).toBeGreaterThan(20);
    },
  );
});
