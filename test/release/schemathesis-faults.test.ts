// Schemathesis with the files `contracts schemathesis` writes, against every fault server (the run that
// `npm run bench:schemathesis` measures): each fault Schemathesis can see from outside is caught, and no credential
// reaches its report. The others need a check it does not have (docs/guide/schemathesis.md, "What only `contracts
// conform` checks"). Like everything under test/release/, this runs in CI (CI=true) and with `npm run test:release`.
import { expect, it } from "vitest";
import { patchContract } from "../../conformance/fault-servers/contract-patch.js";
import { FAULT_SERVER_CREDENTIALS, FAULTS, startReferenceServer } from "../../conformance/fault-servers/faults.js";
import { faultSchemathesisArgs, testServerRate } from "../../conformance/fault-servers/schemathesis-runs.js";
import { runLocalSchemathesis } from "../../conformance/schemathesis/local-run.js";
import { schemathesisProjectIn, secretsInReports } from "../support/schemathesis.js";
import { API_NAMES } from "../../lib/contract/index.js";

/** The faults Schemathesis catches with our files: those its checks (and ours in hooks.py) can see from outside. */
const CAUGHT = new Set<string>([
  "catalog-idempotency-ignored",
  "catalog-idempotency-key-optional",
  "catalog-ignores-wrong-key",
  "catalog-malformed-json-500",
  "catalog-title-trimmed",
  "identity-undocumented-status",
  "links-account-update-keeps-old-values",
  "links-adds-domain-without-domain",
  "links-campaign-update-keeps-old-values",
  "links-created-not-listed",
  "links-delete-keeps-resource",
  "links-domain-update-keeps-old-values",
  "links-error-without-message",
  "links-ignores-wrong-token",
  "links-list-error-as-integer",
  "links-no-reset-header",
  "links-server-error",
  "links-undocumented-method-html",
  "links-wrong-content-type",
  "oracle-catalog-forbidden-without-scope-name",
  "oracle-catalog-read-key-can-write",
  "oracle-catalog-thumbnail-required",
  "oracle-links-channel-name-uppercased",
  "oracle-pay-allow-lists-get",
  "oracle-pay-order-without-payment-id",
  "pay-signature-not-checked",
]);

it.each(FAULTS.map((fault) => [fault.name, fault] as const))(
  "%s",
  async (_name, fault) => {
    const undo = fault.contract ? patchContract(fault.contract) : () => {};
    const server = await fault.start();
    try {
      const { project: projectArgs, seed, run: runArgs } = faultSchemathesisArgs(fault);
      const project = schemathesisProjectIn(fault.api, projectArgs.slice(1));
      const env = { ...FAULT_SERVER_CREDENTIALS, IDENTITY_ACCESS_TOKEN: "none" };
      const run = await runLocalSchemathesis(project.dir, fault.api, server.url, { seed, env, more: runArgs });
      console.log(`${fault.name}: exit ${run.code}`);
      expect(run.code, run.output).toBe(CAUGHT.has(fault.name) ? 1 : run.code);
      expect(run.code === 0 || run.code === 1, run.output).toBe(true);
      expect(secretsInReports(project.dir, env)).toEqual([]);
    } finally {
      await server.close();
      undo();
    }
  },
  600_000,
);

// The same servers without their fault: a catch above is the fault's, not a false alarm of the run.
it.each(API_NAMES)(
  "the %s fault server without a fault, with writes: no failure, no error",
  async (api) => {
    const server = await startReferenceServer(api);
    try {
      const project = schemathesisProjectIn(api, [
        "--allow-writes",
        ...(api === "pay" ? ["--nonce", "milliseconds"] : []),
      ]);
      const run = await runLocalSchemathesis(project.dir, api, server.url, {
        seed: 7,
        env: { ...FAULT_SERVER_CREDENTIALS, IDENTITY_ACCESS_TOKEN: "none" },
        more: ["--max-examples", "10", "--rate-limit", testServerRate(api)],
      });
      expect(run.code, run.output).toBe(0);
    } finally {
      await server.close();
    }
  },
  600_000,
);
