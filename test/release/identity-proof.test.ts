// The identity proof over 20 seeds (scripts/identity-proof.ts, `npm run proof:identity`): `contracts conform
// identity` against the stock oidc-provider (form driver, --browser, PKCE required) and the sandbox with the guide's
// command. npm test runs one seed of each (test/conformance/identity-stock-provider.test.ts); this file, like
// everything under test/release/, runs where releases are proven: in CI (CI=true) and with `npm run test:release`.
import { expect, it } from "vitest";
import { testPort } from "../support/ports.js";
import { repoRoot, spawnCommand } from "../support/processes.js";

it("every identity run over 20 seeds passes: no failure, no check that could not run", async () => {
  const proof = spawnCommand(
    process.execPath,
    ["--import", "tsx", "scripts/identity-proof.ts", "--seeds", "20", "--sandbox-port", String(testPort(4960))],
    repoRoot,
  );
  const code = await proof.exit;
  const summary = /(\d+) of (\d+) runs passed/.exec(proof.stdout());
  expect(summary, proof.stdout() + proof.stderr()).not.toBeNull();
  expect(summary![1], proof.stdout()).toBe(summary![2]);
  expect(Number(summary![2])).toBe(4 * 20);
  expect(code, proof.stdout() + proof.stderr()).toBe(0);
}, 3_600_000);
