// An identity run leaves nothing live (issue 62): at its end, and after Ctrl-C, it revokes every refresh and access
// token it obtained at the revocation_endpoint the discovery document advertises (RFC 7009), ends every session it
// opened by RP-initiated logout at the advertised end_session_endpoint (those its sign-ins opened, with each one's
// cookies and id_token_hint, with both drivers, and those the provider saved for a logout request sent without a
// cookie), and the report lists what it cleaned up and what it left behind and why, without any token value. Read
// from the stock oidc-provider's own store (test/support/stock-oidc-store.ts): what the provider still holds live
// after the run.
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FAULT_SERVER_CREDENTIALS } from "../../conformance/fault-servers/credentials.js";
import type { RunReport } from "../../conformance/report/report.js";
import { conformWithCli, failingChecks, SIGN_IN_DRIVERS } from "../support/conform-cli.js";
import { runContracts } from "../support/processes.js";
import { SEED_ROUTES, STOCK_SIGN_IN, startStockOidcProvider } from "../support/stock-oidc-provider.js";
import { stockStore } from "../support/stock-oidc-store.js";

const TOKEN_MODELS = ["RefreshToken", "AccessToken"];

const SESSION_KINDS = ["browser session", "session without sign-in"];

/** A session of oidc-provider's with someone signed in (the others it saves for a logout request without a cookie). */
const signedIn = (session: { accountId?: unknown }) => Boolean(session.accountId);

/** The report's entries of sessions, as [kind, state]. */
const sessionEntries = (report: RunReport) =>
  report.resources.filter((r) => SESSION_KINDS.includes(r.kind)).map((r) => [r.kind, r.state]);

/**
 * Every token value the provider ever stored (an opaque token's id is its value), and every session id (its cookie's
 * value): none may be in `text`.
 */
const expectNoTokenIn = (text: string, store: ReturnType<typeof stockStore>, where: string) => {
  for (const model of [...TOKEN_MODELS, "Session"])
    for (const id of store.idsEver(model)) expect(text.includes(id), `${where} shows a ${model}`).toBe(false);
};

describe.concurrent("an identity run leaves nothing live", () => {
  it("revokes every token it obtained and ends every session it opened: none is live in the provider's store after the run", async () => {
    const store = stockStore();
    const provider = await startStockOidcProvider({ revocation: true, store });
    try {
      const { code, report, output } = await conformWithCli(
        ["identity", "--base-url", provider.url, "--seed", "1", "--max-examples", "2"],
        { IDENTITY_SIGN_IN: STOCK_SIGN_IN },
      );
      expect(failingChecks(report), output).toEqual([]);
      expect(code, output).toBe(0);
      expect(store.idsEver("RefreshToken").length, output).toBeGreaterThan(0);
      expect(store.idsEver("AccessToken").length, output).toBeGreaterThan(1);
      for (const model of TOKEN_MODELS) expect(store.live(model), `${model} live after the run\n${output}`).toBe(0);
      const tokens = report.resources.filter((r) => r.kind.endsWith(" token"));
      expect(tokens.map((r) => [r.kind, r.state]).sort()).toEqual([
        ["access token", "deleted"],
        ["refresh token", "deleted"],
      ]);
      expect(tokens[0]?.note).toMatch(/^revoked at http:\/\/127\.0\.0\.1:\d+\/token\/revocation \(RFC 7009\)$/);
      expect(output).toMatch(/✓ deleted {2}refresh token ×\d+ /);
      expectNoTokenIn(output, store, "the console");
      expectNoTokenIn(JSON.stringify(report), store, "the JSON report");
      // Sessions of both kinds were opened (the sign-ins', and those of the plan's logout requests without a cookie),
      // and none is live: the run ended each one.
      expect(store.idsEver("Session").length, output).toBeGreaterThan(1);
      expect(store.live("Session"), `sessions live after the run\n${output}`).toBe(0);
      expect(sessionEntries(report).sort(), output).toEqual([
        ["browser session", "deleted"],
        ["session without sign-in", "deleted"],
      ]);
      expect(output).toMatch(
        /✓ deleted {2}session without sign-in ×\d+ .*: ended by RP-initiated logout at http:\/\/127\.0\.0\.1:\d+\/api\/logout/,
      );
    } finally {
      await provider.close();
    }
  }, 180_000);

  it("lists the tokens as left behind, and why, when the provider advertises no revocation_endpoint", async () => {
    const store = stockStore();
    const provider = await startStockOidcProvider({ store });
    try {
      const { code, report, output } = await conformWithCli(
        ["identity", "--base-url", provider.url, "--seed", "2", "--check", "refresh_token_offline_access"],
        { IDENTITY_SIGN_IN: STOCK_SIGN_IN },
      );
      expect(failingChecks(report), output).toEqual([]);
      expect(code, output).toBe(0);
      const left = report.resources.filter((r) => r.state === "left behind");
      expect(left.map((r) => r.kind).sort()).toEqual(["access token", "refresh token"]);
      for (const resource of left)
        expect(resource.note).toBe(
          "the discovery document advertises no revocation_endpoint (RFC 7009; RFC 8414 §2): it stays valid until it expires",
        );
      expect(output).toMatch(/! LEFT BEHIND {2}refresh token ×\d+ .*advertises no revocation_endpoint/);
      expect(output).toMatch(/created resource\(s\) left behind, listed above/);
      expect(store.live("RefreshToken")).toBeGreaterThan(0);
      expectNoTokenIn(output, store, "the console");
      expectNoTokenIn(JSON.stringify(report), store, "the JSON report");
    } finally {
      await provider.close();
    }
  }, 180_000);

  it("lists the sessions as left behind, and why, when the provider advertises no end_session_endpoint", async () => {
    const store = stockStore();
    const provider = await startStockOidcProvider({ revocation: true, withoutLogout: true, store });
    try {
      const { report, output } = await conformWithCli(
        ["identity", "--base-url", provider.url, "--seed", "5", "--check", "refresh_token_offline_access"],
        { IDENTITY_SIGN_IN: STOCK_SIGN_IN },
      );
      expect(failingChecks(report), output).toEqual([]);
      const left = report.resources.filter((r) => SESSION_KINDS.includes(r.kind));
      expect(
        left.map((r) => [r.kind, r.state]),
        output,
      ).toEqual([["browser session", "left behind"]]);
      expect(left[0]?.note).toBe(
        "the discovery document advertises no end_session_endpoint (OpenID Connect RP-Initiated Logout 1.0 §2.1): it lasts until the provider expires it",
      );
      expect(output).toMatch(/! LEFT BEHIND {2}browser session ×1 .*advertises no end_session_endpoint/);
      expect(store.live("Session", signedIn), output).toBeGreaterThan(0);
      for (const model of TOKEN_MODELS) expect(store.live(model), `${model} live after the run\n${output}`).toBe(0);
    } finally {
      await provider.close();
    }
  }, 180_000);

  it.each(SIGN_IN_DRIVERS)(
    "after SIGINT mid-run, revokes the tokens it had obtained and ends its sessions before exiting (%s driver)",
    async (_driver, driverArgs) => {
      const store = stockStore();
      // The refresh grant, the first token request with a refresh token live, waits until the run has taken the
      // SIGINT: the abort comes mid-run, always, with the sign-in's session live and before the run's own logout.
      let holding: () => void = () => {};
      const held = new Promise<void>((resolve) => (holding = resolve));
      let release: () => void = () => {};
      const released = new Promise<void>((resolve) => (release = resolve));
      const provider = await startStockOidcProvider({
        revocation: true,
        store,
        beforeRequest: (path) => {
          if (path !== SEED_ROUTES.token || store.live("RefreshToken") === 0) return Promise.resolve();
          holding();
          return released;
        },
      });
      const json = join(mkdtempSync(join(tmpdir(), "identity-sigint-")), "report.json");
      const only = ["--check", "refresh_token_offline_access", "--check", "logout_post_redirect", ...driverArgs];
      const run = runContracts(
        ["conform", "identity", "--base-url", provider.url, "--seed", "3", ...only, "--json", json],
        {
          ...FAULT_SERVER_CREDENTIALS,
          IDENTITY_SIGN_IN: STOCK_SIGN_IN,
        },
      );
      try {
        await held;
        expect(store.live("RefreshToken"), run.stderr()).toBeGreaterThan(0);
        expect(store.live("Session", signedIn), run.stderr()).toBeGreaterThan(0);
        run.child.kill("SIGINT");
        while (!/SIGINT: stopping/.test(run.stderr())) await new Promise((resolve) => setTimeout(resolve, 50));
        release();
        const code = await run.exit;
        const output = `${run.stdout()}\n${run.stderr()}`;
        expect(code, output).toBe(130);
        const report = JSON.parse(readFileSync(json, "utf8")) as RunReport;
        expect(report.interrupted).toBe(true);
        for (const model of TOKEN_MODELS) expect(store.live(model), `${model} live after SIGINT\n${output}`).toBe(0);
        expect(store.live("Session"), `sessions live after SIGINT\n${output}`).toBe(0);
        const tokens = report.resources.filter((r) => r.kind.endsWith(" token"));
        expect(tokens.map((r) => [r.kind, r.state]).sort(), output).toEqual([
          ["access token", "deleted"],
          ["refresh token", "deleted"],
        ]);
        expect(sessionEntries(report), output).toContainEqual(["browser session", "deleted"]);
        expect(
          sessionEntries(report).filter(([, state]) => state !== "deleted"),
          output,
        ).toEqual([]);
        expect(run.stdout()).toMatch(/✓ deleted {2}refresh token ×\d+ /);
        expect(run.stdout()).toMatch(/✓ deleted {2}browser session ×\d+ /);
        expectNoTokenIn(output, store, "the console");
        expectNoTokenIn(JSON.stringify(report), store, "the JSON report");
      } finally {
        release();
        run.child.kill("SIGKILL");
        await provider.close();
      }
    },
    180_000,
  );
});
