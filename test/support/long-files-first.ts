// Starts the test files that take longest first, so that the short ones fill the cores around them. Vitest orders by
// the durations of the previous run, but a fresh clone (CI) has none and vitest then starts the largest files
// first, which left the docs site and sign-in files to the end of the run.
import { existsSync } from "node:fs";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * The longest files first by their wall time in a whole run on 2 cores (`test/release/` runs on its own). From the
 * middle on, a file that mostly waits (a rate-limit window, an `auth_time` second, a stalled client) is followed by one
 * that computes: files next to each other here start about together, and four that waited at once left both cores
 * under 40% busy for 10 s of a run.
 */
const LONG_FILES = [
  "test/release/identity-proof.test.ts",
  "test/release/node-lines.test.ts",
  "test/release/schemathesis-proof.test.ts",
  "test/release/consumer.test.ts",
  "test/release/site-phone.test.ts",
  "test/release/site-pages.test.ts",
  "test/release/sandbox-crash.test.ts",
  "test/release/guide-samples.test.ts",
  "test/release/fresh-app.test.ts",
  "test/docs/site-pages.test.ts",
  "test/mock/docs-commands.test.ts",
  "test/conformance/schemathesis-run.test.ts",
  "test/conformance/identity-faults.test.ts",
  "test/conformance/identity.test.ts",
  "test/conformance/identity-stock-provider.test.ts",
  "test/conformance/overlay.test.ts",
  "test/sandbox/crash.test.ts",
  "test/conformance/faults.test.ts",
  "test/docs/site-console.test.ts",
  "test/mock/lifecycle.test.ts",
  "test/conformance/verdicts.test.ts",
  "test/third-party/generators.test.ts",
  "test/conformance/shards.test.ts",
  "test/conformance/passive-chromium.test.ts",
  "test/sandbox/keeps-contract.test.ts",
  "test/conformance/targets.test.ts",
  "test/conformance/identity-allowed-choices.test.ts",
  "test/conformance/safe-output.test.ts",
  "test/conformance/secrets.test.ts",
  "test/proxy/cli.test.ts",
  "test/conformance/budget.test.ts",
  "test/mock/mock-command.test.ts",
  "test/sandbox/hostile-input.test.ts",
  "test/specs/stock-lint.test.ts",
  "test/conformance/rate-limit-waits.test.ts",
  "test/sandbox/cli.test.ts",
  "test/conformance/fail-closed-and-baseline.test.ts",
  "test/repository/start-while-compiling.test.ts",
  "test/sandbox/fast-path.test.ts",
  "test/docs/samples.test.ts",
  "test/docs/site-phone.test.ts",
];

const missing = LONG_FILES.filter((file) => !existsSync(new URL(`../../${file}`, import.meta.url)));
if (missing.length > 0)
  throw new Error(`test/support/long-files-first.ts lists files that do not exist: ${missing.join(", ")}`);

export default class LongFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (file: TestSpecification) => {
      const index = LONG_FILES.findIndex((name) => file.moduleId.endsWith(name));
      return index === -1 ? LONG_FILES.length : index;
    };
    // Array.prototype.sort is stable: the other files keep vitest's own order.
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}
