// Real Schemathesis (the pinned release, which the test setup installs with scripts/schemathesis-install.sh) with the
// files `contracts schemathesis` writes, read-only as a run against production is: no failure and no error on the
// sandbox's four APIs, no secret in the report, and the operations the project leaves out never reach the sandbox
// (its request log). One seed here; test/release/schemathesis-proof.test.ts runs five with writes, and on the
// independent oracles.
import { afterAll, beforeAll, it } from "vitest";
import { API_NAMES } from "../../lib/contract/index.js";
import { expectCleanSandboxRun, startLoggedSandbox } from "../support/schemathesis.js";

let logged: Awaited<ReturnType<typeof startLoggedSandbox>>;
beforeAll(async () => {
  logged = await startLoggedSandbox();
}, 600_000);
afterAll(() => logged?.sandbox.stop());

it.each(API_NAMES)(
  "Schemathesis on the sandbox's %s, read-only: no failure, no error, and no operation the project leaves out is called",
  async (api) => {
    await expectCleanSandboxRun(logged, api, [], 1);
  },
  600_000,
);
