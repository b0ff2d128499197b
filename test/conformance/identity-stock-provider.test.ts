// A stock, OpenID Certified provider (oidc-provider with its defaults, test/support/stock-oidc-provider.ts) passes
// `contracts conform identity` with every check run and none failed: its 303 redirects, JSON errors at the browser
// endpoints, application/jwk-set+json JWKS, optional PKCE and its OpenID Connect Core §11 reading of offline_access
// are all allowed choices. npm test runs one seed of each; `npm run proof:identity` (a release proof,
// test/release/identity-proof.test.ts) runs 20 seeds with both drivers, PKCE required, and the sandbox with the guide's
// command (scripts/identity-proof.ts).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { IDENTITY_CHECKS, LOGOUT_MODULE_CHECKS } from "../../conformance/model/identity-check-groups.js";
import { checkOf, conformWithCli, failingChecks } from "../support/conform-cli.js";
import {
  OWN_ROUTES,
  STOCK_SIGN_IN,
  type StockProvider,
  startStockOidcProvider,
} from "../support/stock-oidc-provider.js";

let optionalPkce: StockProvider;
let requiredPkce: StockProvider;
let noOfflineAccess: StockProvider;
let scopeClaimsInIdToken: StockProvider;
let ownRoutes: StockProvider;

beforeAll(async () => {
  [optionalPkce, requiredPkce, noOfflineAccess, scopeClaimsInIdToken, ownRoutes] = await Promise.all([
    startStockOidcProvider(),
    startStockOidcProvider({ pkceRequired: true, claimsParameter: true }),
    startStockOidcProvider({ refreshTokens: false }),
    startStockOidcProvider({ scopeClaimsInIdToken: true }),
    startStockOidcProvider({ routes: OWN_ROUTES }),
  ]);
});
afterAll(async () => {
  await Promise.all(
    [optionalPkce, requiredPkce, noOfflineAccess, scopeClaimsInIdToken, ownRoutes].map((provider) => provider?.close()),
  );
});

/**
 * oidc-provider takes the authorization request by GET only unless its enableHttpPostMethods is on (which needs
 * SameSite=None cookies): it answers the POST 404. Core §3.1.2.1's MUST, not the contract's (GET only): a warning.
 */
const POST_REFUSED = expect.objectContaining({
  check: "authorization_by_post",
  message: expect.stringMatching(
    /^the authorization endpoint refused an authorization request by POST with status 404/,
  ),
  assumption: expect.stringContaining("the contract describes the authorization request by GET only"),
});

/** The run passes: exit 0, no failure, nothing that could not run, and every identity check ran (but `skipped`). */
async function expectPass(url: string, seed: number, args: string[] = [], skipped: string[] = []) {
  // The real CLI, one process per run: the runs go on in parallel on every core, as a user's would.
  const { code, report, output } = await conformWithCli(
    ["identity", "--base-url", url, "--seed", String(seed), ...args],
    { IDENTITY_SIGN_IN: STOCK_SIGN_IN },
  );
  expect(failingChecks(report), output).toEqual([]);
  expect(
    report.checks.filter((c) => c.couldNotRun).map((c) => c.name),
    output,
  ).toEqual([]);
  for (const { name } of IDENTITY_CHECKS.filter((c) => !skipped.includes(c.name)))
    expect(checkOf(report, name).passed, `${name} did not run\n${output}`).toBeGreaterThan(0);
  // Its sign-in asks for the password again on prompt=login: no warning that it did not (issue 62).
  expect(
    report.warnings.filter((w) => w.check === "prompt_login"),
    output,
  ).toEqual([]);
  expect(code, output).toBe(0);
  return report;
}

/** oidc-provider leaves its claims parameter off by default: claims_essential skips, with that reason. */
const CLAIMS_OFF = ["claims_essential"];

describe.concurrent("a stock oidc-provider configured only as the seed asks", () => {
  it("passes every check with the HTML form driver (PKCE optional, its default), seed 1", async () => {
    const report = await expectPass(optionalPkce.url, 1, [], CLAIMS_OFF);
    expect(checkOf(report, "claims_essential").skipped).toMatch(/does not advertise claims_parameter_supported: true/);
  }, 120_000);

  it("passes every check with PKCE required and its claims parameter on, seed 4", async () => {
    await expectPass(requiredPkce.url, 4);
  }, 120_000);

  it("passes every check with --browser (its development sign-in and consent pages in Chromium), seed 6", async () => {
    await expectPass(optionalPkce.url, 6, ["--browser"], CLAIMS_OFF);
  }, 180_000);

  it("passes with the claims of the granted scopes in its id_token too (conformIdTokenClaims off), seed 9", async () => {
    const report = await expectPass(scopeClaimsInIdToken.url, 9, [], CLAIMS_OFF);
    expect(checkOf(report, "id_token_by_scope").passed).toBeGreaterThanOrEqual(2);
  }, 120_000);

  it("skips refresh_token_offline_access, as oidcc-refresh-token does, when offline_access is not granted", async () => {
    const skipped = ["refresh_token_offline_access", "refresh_token_client_bound", ...CLAIMS_OFF];
    const report = await expectPass(noOfflineAccess.url, 7, [], skipped);
    expect(checkOf(report, "refresh_token_offline_access").skipped).toMatch(/offline_access was not granted/);
    expect(checkOf(report, "refresh_token_client_bound").skipped).toMatch(/no refresh token was issued/);
    // Its scopes_supported still lists offline_access: advertised and not delivered, a warning (issue 63).
    expect(report.warnings).toEqual([
      POST_REFUSED,
      expect.objectContaining({
        check: "refresh_token_offline_access",
        message: expect.stringMatching(/^scopes_supported advertises offline_access, but .* was not granted it/),
      }),
    ]);
  }, 120_000);
});

/** The checks of the Basic OP modules whose requests must succeed, and response_type_missing (issue 63). */
const BASIC_OP_REQUESTS = [
  "response_type_missing",
  "display_page",
  "display_popup",
  "max_age_10000",
  "login_hint",
  "ui_locales",
  "claims_locales",
  "acr_values",
  "claims_essential",
];

describe.concurrent("the Basic OP modules' requests on the stock provider with its claims parameter on", () => {
  const seeds = Array.from({ length: 20 }, (_, i) => i + 1);
  it.each(seeds)(
    "pass on seed %i",
    async (seed) => {
      const only = BASIC_OP_REQUESTS.flatMap((check) => ["--check", check]);
      const report = await expectPass(
        requiredPkce.url,
        seed,
        only,
        IDENTITY_CHECKS.map((c) => c.name).filter((name) => !BASIC_OP_REQUESTS.includes(name)),
      );
      for (const check of BASIC_OP_REQUESTS) expect(checkOf(report, check).passed).toBe(1);
    },
    120_000,
  );
});

/** The Config OP and RP-Initiated Logout modules' checks (issue 63). */
const CONFIG_AND_LOGOUT_MODULES = [
  "discovery_https_endpoints",
  "discovery_grant_types_and_claims",
  ...LOGOUT_MODULE_CHECKS,
];

describe.concurrent("the Config OP and RP-Initiated Logout modules on the stock provider with its defaults", () => {
  const seeds = Array.from({ length: 20 }, (_, i) => i + 1);
  it.each(seeds)(
    "pass on seed %i, without a warning",
    async (seed) => {
      const only = ["discovery_rs256_and_openid", ...CONFIG_AND_LOGOUT_MODULES].flatMap((check) => ["--check", check]);
      const others = IDENTITY_CHECKS.map((c) => c.name).filter(
        (name) => name !== "discovery_rs256_and_openid" && !CONFIG_AND_LOGOUT_MODULES.includes(name),
      );
      const report = await expectPass(optionalPkce.url, seed, only, others);
      for (const check of LOGOUT_MODULE_CHECKS) expect(checkOf(report, check).passed).toBe(1);
      // Its scopes_supported and claims_supported list what the seed names: nothing RECOMMENDED is missing.
      expect(report.warnings).toEqual([]);
    },
    120_000,
  );
});

/**
 * oidcc-server's parts (the code's entropy, RFC 9207's iss, expires_in), the second id_tokens of the first sign-in's
 * session (prompt=none with its id_token_hint, max_age=10000) and the code replayed 30 seconds after its exchange
 * (issue 63). Each run waits the 30 seconds: the seeds run concurrently.
 */
const SERVER_AND_SESSION = [
  "authorization_code_entropy",
  "authorization_response_iss",
  "token_expires_in",
  "prompt_none",
  "max_age_10000",
  "code_reuse_30_seconds",
];

describe.concurrent(
  "oidcc-server's parts, one session's id_tokens and the late code replay on the stock provider",
  () => {
    const seeds = Array.from({ length: 20 }, (_, i) => i + 1);
    it.each(seeds)(
      "pass on seed %i, without a warning",
      async (seed) => {
        const only = SERVER_AND_SESSION.flatMap((check) => ["--check", check]);
        const others = IDENTITY_CHECKS.map((c) => c.name).filter((name) => !SERVER_AND_SESSION.includes(name));
        const report = await expectPass(optionalPkce.url, seed, only, others);
        // It advertises RFC 9207 (authorization_response_iss_parameter_supported: true): every response carried iss.
        expect(checkOf(report, "authorization_response_iss").passed).toBeGreaterThanOrEqual(3);
        expect(checkOf(report, "prompt_none").passed).toBe(2);
        expect(checkOf(report, "code_reuse_30_seconds").passed).toBe(1);
        expect(report.warnings).toEqual([]);
      },
      120_000,
    );
  },
);

/** The checks of oidcc-ensure-post-request-succeeds, oidcc-alternate-happy-flow and oidcc-refresh-token (issue 63). */
const POST_ORDER_AND_CLIENT = ["authorization_by_post", "alternate_happy_flow", "refresh_token_client_bound"];

describe.concurrent("the POST, scope order and refresh client modules on the stock provider with its defaults", () => {
  const seeds = Array.from({ length: 20 }, (_, i) => i + 1);
  const others = IDENTITY_CHECKS.map((c) => c.name).filter((name) => !POST_ORDER_AND_CLIENT.includes(name));
  const only = POST_ORDER_AND_CLIENT.flatMap((check) => ["--check", check]);

  it.each(seeds)(
    "pass on seed %i, the refused POST a warning",
    async (seed) => {
      const report = await expectPass(optionalPkce.url, seed, only, others);
      for (const check of POST_ORDER_AND_CLIENT) expect(checkOf(report, check).passed).toBe(1);
      expect(report.warnings).toEqual([POST_REFUSED]);
      // The page it refused with is kept as evidence.
      expect(report.refusalPages).toEqual([expect.objectContaining({ check: "authorization_by_post", status: 404 })]);
    },
    120_000,
  );

  it("send the POST to the authorization_endpoint the discovery advertises, at the provider's own path", async () => {
    const report = await expectPass(ownRoutes.url, 2, only, others);
    expect(report.warnings).toEqual([POST_REFUSED]);
    expect(ownRoutes.requests).toContainEqual({ method: "POST", path: OWN_ROUTES.authorization });
  }, 120_000);

  it("could not run refresh_token_client_bound where the second client's secret is wrong (never passed)", async () => {
    const { code, report, output } = await conformWithCli(
      ["identity", "--base-url", optionalPkce.url, "--seed", "3", ...only],
      { IDENTITY_SIGN_IN: STOCK_SIGN_IN, IDENTITY_SECOND_CLIENT_SECRET: "not-the-second-secret" },
    );
    expect(checkOf(report, "refresh_token_client_bound").couldNotRun, output).toMatch(
      /refused the second client's own credentials \(status 401/,
    );
    expect(code, output).toBe(1);
  }, 120_000);
});
