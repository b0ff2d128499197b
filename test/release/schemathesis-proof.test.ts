// Schemathesis with the files `contracts schemathesis` writes, over five seeds: no failure and no error on the
// sandbox's four APIs and on the independent oracles. npm test runs seed 1 (test/conformance/schemathesis-run.test.ts);
// this file, like everything under test/release/, runs where releases are proven: in CI (CI=true) and with
// `npm run test:release`.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runLocalSchemathesis } from "../../conformance/schemathesis/local-run.js";
import { API_NAMES } from "../../lib/contract/index.js";
import { type RunningSandbox, startSandbox } from "../../mock/sandbox/server.js";
import {
  ORACLE_RUNS,
  runOnOracle,
  SANDBOX_CREDENTIALS,
  sandboxAccessToken,
  schemathesisProjectIn,
} from "../support/schemathesis.js";

const SEEDS = [1, 2, 3, 4, 5];
let sandbox: RunningSandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ ports: { identity: 0, links: 0, catalog: 0, pay: 0 }, rateLimit: false });
}, 600_000);
afterAll(() => sandbox?.stop());

describe.each(SEEDS)("seed %i", (seed) => {
  it.each(API_NAMES)(
    "the sandbox's %s, with writes: no failure, no error",
    async (api) => {
      const project = schemathesisProjectIn(api, [
        "--allow-writes",
        ...(api === "pay" ? ["--nonce", "milliseconds"] : []),
      ]);
      const env = { ...SANDBOX_CREDENTIALS[api] };
      if (api === "identity") env.IDENTITY_ACCESS_TOKEN = await sandboxAccessToken(sandbox.urls.identity);
      const run = await runLocalSchemathesis(project.dir, api, sandbox.urls[api], {
        seed,
        env,
        more: ["--max-examples", "10", "--rate-limit", "1000/s"],
      });
      expect(run.code, run.output).toBe(0);
    },
    600_000,
  );

  it.each(ORACLE_RUNS.map((oracle) => [oracle.name, oracle] as const))(
    "the oracle %s, with writes: no failure, no error",
    async (_name, oracle) => {
      const run = await runOnOracle(oracle, seed);
      expect(run.code, run.output).toBe(0);
    },
    600_000,
  );
});
