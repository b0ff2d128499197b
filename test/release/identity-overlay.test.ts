// The identity deployment's advertised endpoints in an overlay, from the installed tools (issue 62): in the run's
// application with both packages installed (test/support/installed-packages.ts), `contracts conform identity` against
// a stock oidc-provider at routes of its own, `contracts overlay record identity` of its report, `contracts overlay
// diff` of the overlay, and `contracts conform identity --overlay` that reports the endpoints as known. Real HTTP on
// loopback; the provider is this checkout's test provider.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { FAULT_SERVER_CREDENTIALS } from "../../conformance/fault-servers/credentials.js";
import type { RunReport } from "../../conformance/report/report.js";
import type { OverlayDocument } from "../../lib/contract/overlay.js";
import { appWithBothPackages, stopAll } from "../support/installed-packages.js";
import { type RunningCommand, spawnCommand } from "../support/processes.js";
import {
  OWN_ROUTES,
  STOCK_SIGN_IN,
  type StockProvider,
  startStockOidcProvider,
} from "../support/stock-oidc-provider.js";

const env = { ...FAULT_SERVER_CREDENTIALS, IDENTITY_SIGN_IN: STOCK_SIGN_IN };
const scratch = mkdtempSync(join(tmpdir(), "contracts-identity-overlay-"));
let app: string;
let provider: StockProvider;
const started: RunningCommand[] = [];

/** The installed `contracts` with the stock provider's sign-in; waits for its end. */
async function contracts(args: string[]): Promise<RunningCommand & { code: number | string }> {
  const command = spawnCommand(join(app, "node_modules", ".bin", "contracts"), args, app, env);
  started.push(command);
  return Object.assign(command, { code: await command.exit });
}

beforeAll(async () => {
  [app, provider] = await Promise.all([appWithBothPackages(), startStockOidcProvider({ routes: OWN_ROUTES })]);
}, 300_000);

afterAll(async () => {
  await stopAll(started);
  await provider?.close();
  rmSync(scratch, { recursive: true, force: true });
});

describe("the installed tools record an identity deployment's advertised endpoints", () => {
  it("record, diff, and conform --overlay, which reports them as known", async () => {
    const json = join(scratch, "identity.json");
    const overlayFile = join(scratch, "identity.overlay.yaml");
    // Without code_reuse_30_seconds' 30-second wait: the overlay is about the endpoints, and the test runs twice.
    const conform = [
      ...["conform", "identity", "--base-url", provider.url, "--seed", "3", "--max-examples", "2"],
      ...["--exclude-check", "code_reuse_30_seconds"],
    ];
    const first = await contracts([...conform, "--json", json]);
    expect(first.code, first.stdout() + first.stderr()).toBe(0);
    const record = await contracts(["overlay", "record", "identity", "--from-json", json, "-o", overlayFile]);
    expect(record.code, record.stderr()).toBe(0);
    const overlay = parseYaml(readFileSync(overlayFile, "utf8")) as OverlayDocument;
    const recorded = overlay.actions.map(
      (action) => (action.update as Record<string, unknown>)["x-advertised-endpoint"],
    );
    expect(recorded).toContainEqual({ path: OWN_ROUTES.token, member: "token_endpoint" });
    expect(recorded).toHaveLength(7);

    const diff = await contracts(["overlay", "diff", overlayFile]);
    expect(diff.code, diff.stderr()).toBe(0);
    expect(diff.stdout()).toMatch(
      /^\+ \/paths\/.*\/post\/x-advertised-endpoint: \{"path":"\/oidc\/token","member":"token_endpoint"\}$/m,
    );

    const again = await contracts([...conform, "--overlay", overlayFile, "--json", json]);
    expect(again.code, again.stdout() + again.stderr()).toBe(0);
    const report = JSON.parse(readFileSync(json, "utf8")) as RunReport;
    const facts = report.observations.filter((o) => o.kind === "deployment");
    expect(facts.map((o) => o.known)).toEqual(["overlay"]);
    expect(again.stdout()).toMatch(/: 5 of its 5 deviation\(s\) confirmed/);
  }, 300_000);
});
