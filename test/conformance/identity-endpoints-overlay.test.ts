// Issue 62: where an identity deployment's discovery document advertises its endpoints elsewhere than the contract's
// endpoint table is a fact about the deployment that an overlay can record. A stock oidc-provider with routes of its
// own: `contracts overlay record identity --from-json <report>` writes an `x-advertised-endpoint` (the advertised
// path and the discovery member) on each such operation; a run with `--overlay` reports that block as known and
// confirms each recorded endpoint; a provider that advertises another token endpoint has that one reported new (the
// others known) and the recorded one no longer seen. `overlay diff` and the docs' deployment page show the records.
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { FAULT_SERVER_CREDENTIALS } from "../../conformance/fault-servers/credentials.js";
import { DISCOVERY_MEMBERS, identityOperationPath } from "../../conformance/identity/paths.js";
import type { RunReport } from "../../conformance/report/report.js";
import { escapeSegment } from "../../lib/contract/index.js";
import type { OverlayDocument } from "../../lib/contract/overlay.js";
import { writeGeneratedPages } from "../../scripts/docs/pages.js";
import { failingChecks } from "../support/conform-cli.js";
import { conformInProcess } from "../support/conform.js";
import { runContracts } from "../support/processes.js";
import {
  OWN_ROUTES,
  STOCK_SIGN_IN,
  type StockProvider,
  type StockRoutes,
  startStockOidcProvider,
} from "../support/stock-oidc-provider.js";

/** The same provider after a change of its token route: one endpoint advertised elsewhere than recorded. */
const MOVED_TOKEN: StockRoutes = { ...OWN_ROUTES, token: "/oidc/v2/token" };

/** The path each discovery member advertises on OWN_ROUTES. */
const ADVERTISED: Record<string, string> = {
  authorization_endpoint: OWN_ROUTES.authorization,
  token_endpoint: OWN_ROUTES.token,
  userinfo_endpoint: OWN_ROUTES.userinfo,
  jwks_uri: OWN_ROUTES.jwks,
  end_session_endpoint: OWN_ROUTES.end_session,
};

const dir = mkdtempSync(join(tmpdir(), "identity-endpoints-overlay-"));
const overlayFile = join(dir, "identity.overlay.yaml");
let own: StockProvider;
let moved: StockProvider;
let overlay: OverlayDocument;

const conform = (provider: StockProvider, ...more: string[]) =>
  conformInProcess(["identity", "--base-url", provider.url, "--seed", "3", "--max-examples", "2", ...more], {
    ...FAULT_SERVER_CREDENTIALS,
    IDENTITY_SIGN_IN: STOCK_SIGN_IN,
  });

const deploymentFacts = (report: RunReport) => report.observations.filter((o) => o.kind === "deployment");

beforeAll(async () => {
  [own, moved] = await Promise.all([
    startStockOidcProvider({ routes: OWN_ROUTES }),
    startStockOidcProvider({ routes: MOVED_TOKEN }),
  ]);
  const first = await conform(own);
  expect(failingChecks(first.report), first.output).toEqual([]);
  const record = runContracts(["overlay", "record", "identity", "--from-json", first.files.json, "-o", overlayFile]);
  const code = await record.exit;
  if (code !== 0) throw new Error(`overlay record exited ${code}: ${record.stdout()}\n${record.stderr()}`);
  expect(record.stderr()).toMatch(/5 deviation\(s\) of identity in 7 action\(s\) written to .*review them/);
  overlay = parseYaml(readFileSync(overlayFile, "utf8")) as OverlayDocument;
}, 300_000);
afterAll(async () => {
  await Promise.all([own, moved].map((provider) => provider?.close()));
});

describe("identity endpoints advertised elsewhere, recorded in an overlay", () => {
  it("overlay record writes an x-advertised-endpoint with the path and the member on each such operation", () => {
    const recorded = overlay.actions.map((action) => [
      action.target,
      (action.update as Record<string, unknown>)["x-advertised-endpoint"],
    ]);
    expect(recorded).toEqual(
      Object.entries(DISCOVERY_MEMBERS).map(([operationId, member]) => [
        expect.stringMatching(new RegExp(`^\\$\\.paths\\['${identityOperationPath(operationId as never)}'\\]\\.\\w+$`)),
        { path: ADVERTISED[member], member },
      ]),
    );
    // One cause per member, its first action with the evidence: both userinfo operations share one.
    const userinfo = overlay.actions.filter(
      (action) => action["x-cause"] === "advertised endpoint | userinfo_endpoint /oidc/me",
    );
    expect(userinfo).toHaveLength(2);
    expect(userinfo[0]).toMatchObject({
      "x-discovery-member": "userinfo_endpoint",
      "x-operations": ["getUserInfo", "getUserInfoByPost"],
      "x-contract-path": identityOperationPath("getUserInfo"),
    });
    expect(userinfo[1]!["x-discovery-member"]).toBeUndefined();
  });

  it("with the overlay, the run reports the block as known and confirms each recorded endpoint", async () => {
    const run = await conform(own, "--overlay", overlayFile);
    expect(run.code, run.output).toBe(0);
    const [fact, ...more] = deploymentFacts(run.report);
    expect(more, run.output).toEqual([]);
    expect(fact).toMatchObject({ known: "overlay" });
    expect(fact!.detail).toMatch(/^known, in the overlay \(x-advertised-endpoint\): the discovery document advertises/);
    expect(fact!.detail).toContain(`token_endpoint ${own.url}${OWN_ROUTES.token}`);
    expect(run.stdout).toMatch(/^ {2}• 1 fact about the deployment on 1 operation; 1 known \(in the overlay\)$/m);
    expect(run.report.overlay?.causes.map((cause) => [cause.cause, cause.state])).toEqual(
      Object.entries(ADVERTISED).map(([member, path]) => [`advertised endpoint | ${member} ${path}`, "confirmed"]),
    );
  });

  it("a different advertised endpoint is still new; the recorded one is no longer seen", async () => {
    const run = await conform(moved, "--overlay", overlayFile);
    expect(failingChecks(run.report), run.output).toEqual([]);
    const facts = deploymentFacts(run.report);
    const fresh = facts.filter((o) => !o.known);
    const known = facts.filter((o) => o.known);
    expect(fresh.map((o) => o.detail)).toEqual([
      `the discovery document advertises endpoints other than the contract's endpoint table (the seed's), and the run followed them: token_endpoint ${moved.url}${MOVED_TOKEN.token} (the contract's ${moved.url}${identityOperationPath("exchangeToken")}, for exchangeToken)`,
    ]);
    expect(fresh[0]!.advertised).toEqual([
      { operationId: "exchangeToken", member: "token_endpoint", path: MOVED_TOKEN.token },
    ]);
    expect(known).toHaveLength(1);
    expect(known[0]!.detail).not.toContain("token_endpoint");
    const states = Object.fromEntries(run.report.overlay!.causes.map((cause) => [cause.cause, cause.state]));
    expect(states["advertised endpoint | token_endpoint /oidc/token"]).toBe("no longer seen");
    expect(Object.values(states).filter((state) => state === "confirmed")).toHaveLength(4);
  });

  it("overlay diff and the docs' deployment page show each recorded endpoint", async () => {
    const diff = runContracts(["overlay", "diff", overlayFile]);
    expect(await diff.exit, diff.stderr()).toBe(0);
    const pointer = `/paths/${escapeSegment(identityOperationPath("exchangeToken"))}/post/x-advertised-endpoint`;
    expect(diff.stdout().split("\n")).toContain(`+ ${pointer}: {"path":"/oidc/token","member":"token_endpoint"}`);
    expect(diff.stdout()).toMatch(/^It changes 7 operation\(s\): .*exchangeToken \(changed\)/m);
    const root = join(dir, "docs");
    await writeGeneratedPages(root, { file: overlayFile, api: "identity" });
    const page = readFileSync(join(root, "reference", "identity", "deployment.md"), "utf8");
    expect(page).toContain(`: \`${pointer}\``);
    expect(page).toContain('"member": "token_endpoint"');
  });
});
