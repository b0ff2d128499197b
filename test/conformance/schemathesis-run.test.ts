// Real Schemathesis (the pinned release, which the test setup installs with scripts/schemathesis-install.sh) with the
// files `contracts schemathesis` writes: no failure and no error on the sandbox's four APIs, read-only and with writes,
// and the operations the project leaves out never reach the sandbox (its request log). The oracles:
// schemathesis-oracles.test.ts. One seed here; test/release/schemathesis-proof.test.ts runs five, and the faults.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runLocalSchemathesis } from "../../conformance/schemathesis/local-run.js";
import { type ApiName, loadContract } from "../../lib/contract/index.js";
import { type RunningSandbox, startSandbox } from "../../mock/sandbox/server.js";
import {
  SANDBOX_CREDENTIALS,
  sandboxAccessToken,
  schemathesisProjectIn,
  secretsInReports,
} from "../support/schemathesis.js";

let sandbox: RunningSandbox;
const called: Array<{ api: ApiName; method: string; path: string }> = [];

beforeAll(async () => {
  sandbox = await startSandbox({
    ports: { identity: 0, links: 0, catalog: 0, pay: 0 },
    rateLimit: false,
    onRequest: (request) => called.push(request),
  });
}, 600_000);
afterAll(() => sandbox?.stop());

/** The operations of `api` that the sandbox's log shows called since `from`. */
function operationsCalled(api: ApiName, from: number): Set<string> {
  const contract = loadContract(api);
  const ids = called
    .slice(from)
    .filter((request) => request.api === api)
    .map((request) => contract.route(request.method, request.path)?.operation.operationId);
  return new Set(ids.filter((id): id is string => id !== undefined));
}

const MODES = { "read-only": [], "with --allow-writes": ["--allow-writes"] } as const;

// identity leaves nothing out: its writes (token, logout) change no account.
describe.each([
  ["links", MODES],
  ["catalog", MODES],
  ["pay", MODES],
  ["identity", { "read-only": [] }],
] as const)("Schemathesis on the sandbox's %s", (api, modes) => {
  it.each(Object.entries(modes))(
    "%s: no failure, no error, and no operation the project leaves out is called",
    async (_mode, args) => {
      const project = schemathesisProjectIn(api, [...args, ...(api === "pay" ? ["--nonce", "milliseconds"] : [])]);
      const env = { ...SANDBOX_CREDENTIALS[api] };
      if (api === "identity") env.IDENTITY_ACCESS_TOKEN = await sandboxAccessToken(sandbox.urls.identity);
      const from = called.length;
      const run = await runLocalSchemathesis(project.dir, api, sandbox.urls[api], {
        seed: 1,
        env,
        more: ["--max-examples", "10", "--rate-limit", "1000/s"],
      });
      expect(run.code, run.output).toBe(0);
      expect(run.output).toMatch(/No issues found|warnings? in/);
      expect(secretsInReports(project.dir, env)).toEqual([]);
      const reached = operationsCalled(api, from);
      expect(reached.size, run.output).toBeGreaterThan(0);
      expect([...reached].filter((id) => project.excluded.has(id))).toEqual([]);
      // The log sees what a read-only project leaves out once writes are allowed: the proof above can fail.
      if (args.length > 0) {
        const readOnly = schemathesisProjectIn(api, api === "pay" ? ["--nonce", "milliseconds"] : []);
        expect([...reached].filter((id) => readOnly.excluded.has(id)).length, run.output).toBeGreaterThan(0);
      }
    },
    600_000,
  );
});
