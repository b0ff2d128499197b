// The oracle proof over 20 seeds: `contracts conform` with writes against each independent server written from the
// seeds (conformance/oracle/), as test/conformance/faults.test.ts (catalog, pay) and verdicts.test.ts (links, both
// error modes) run them on one seed: exit 0, no failing check, no check that could not run, on every seed. Like
// everything under test/release/, it runs where releases are proven (RELEASE_PROOFS, vitest.config.ts).
import { describe, expect, it } from "vitest";
import { EMPTY_REDIRECTS_ASSUMED, ERROR_ENVELOPES } from "../../conformance/fault-servers/contract-patch.js";
import { FAULT_SERVER_CREDENTIALS, ORACLES } from "../../conformance/fault-servers/faults.js";
import type { RunningServer } from "../../conformance/fault-servers/http.js";
import { startOracleLinksServer } from "../../conformance/oracle/links.js";
import { conformInProcess } from "../support/conform.js";
import { failingChecks, noRandomProducts } from "../support/conform-cli.js";

const SEEDS = Array.from({ length: 20 }, (_, i) => i + 1);

const proofs = [
  ...(["http", "always-200"] as const).map((errors) => ({
    name: `links, errors ${errors}`,
    api: "links" as const,
    start: () => startOracleLinksServer({ token: FAULT_SERVER_CREDENTIALS.LINKS_TOKEN, errors, windowMs: 1000 }),
    // The words verdicts.test.ts runs the links oracle on.
    patches: [...ERROR_ENVELOPES, ...EMPTY_REDIRECTS_ASSUMED],
  })),
  ...ORACLES.map((oracle) => ({ name: oracle.api, api: oracle.api, start: () => oracle.start(), patches: [] })),
];

describe.concurrent.each(proofs)("$name", ({ api, start, patches }) => {
  it.each(SEEDS)(
    "seed %i: nothing fails, every check could run",
    async (seed) => {
      const server: RunningServer = await start();
      try {
        const { code, report, output } = await conformInProcess(
          [
            api,
            "--base-url",
            server.url,
            "--seed",
            String(seed),
            "--max-examples",
            "6",
            "--allow-writes",
            ...noRandomProducts(api),
            "--rate-limit",
            "1000/s",
            ...(api === "pay" ? ["--nonce", "milliseconds"] : []),
          ],
          FAULT_SERVER_CREDENTIALS,
          patches,
        );
        expect(failingChecks(report), output).toEqual([]);
        expect(
          report.checks.filter((c) => c.couldNotRun).map((c) => c.name),
          output,
        ).toEqual([]);
        expect(code, output).toBe(0);
      } finally {
        await server.close();
      }
    },
    600_000,
  );
});
