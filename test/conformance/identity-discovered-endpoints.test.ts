// Issue 62: a certified provider whose endpoints live at its own paths, not the contract's. A stock oidc-provider
// with other `routes` advertises them in its discovery document; `contracts conform identity` must follow them for
// every request of an identity operation (the flows, the token exchanges, the JWKS, userinfo, logout and every
// generated, negative and probe case of the plan), pass as the same provider on the seed's paths does, and say where
// the endpoints are in one observation, and leave nothing live: no refresh or access token, no session of any kind
// (it advertises a revocation_endpoint, and its end_session_endpoint at its own path). What reached the contract's
// paths is counted from the provider's own request log, and what is live from its own store (stock-oidc-store.ts),
// not from the runner's view. Seeds 1-20, one provider process of each kind for all of them. Last, the resolver
// alone: an operation whose member is missing goes to the contract's path, and the report says which and why.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DISCOVERY_MEMBERS, IdentityEndpoints, identityOperationPath } from "../../conformance/identity/paths.js";
import { endpointObservations } from "../../conformance/judge/identity-discovery.js";
import type { RunReport } from "../../conformance/report/report.js";
import { failingChecks } from "../support/conform-cli.js";
import { conformInProcess } from "../support/conform.js";
import { FAULT_SERVER_CREDENTIALS } from "../../conformance/fault-servers/credentials.js";
import {
  OWN_ROUTES,
  STOCK_SIGN_IN,
  type StockProvider,
  startStockOidcProvider,
} from "../support/stock-oidc-provider.js";
import { type StockStore, stockStore } from "../support/stock-oidc-store.js";

const SEEDS = Array.from({ length: 20 }, (_, index) => index + 1);

/** The contract's paths of the operations a discovery member locates (never spelled here). */
const CONTRACT_PATHS = new Set(
  Object.keys(DISCOVERY_MEMBERS).map((id) => identityOperationPath(id as keyof typeof DISCOVERY_MEMBERS)),
);

let seedPaths: StockProvider;
let ownPaths: StockProvider;
const store: StockStore = stockStore();

beforeAll(async () => {
  [seedPaths, ownPaths] = await Promise.all([
    startStockOidcProvider({ revocation: true }),
    startStockOidcProvider({ routes: OWN_ROUTES, revocation: true, store }),
  ]);
});
afterAll(async () => {
  await Promise.all([seedPaths, ownPaths].map((provider) => provider?.close()));
});

async function conform(provider: StockProvider, seed: number) {
  const args = ["identity", "--base-url", provider.url, "--seed", String(seed), "--max-examples", "2"];
  // Forty runs one after another: without the 30 seconds code_reuse_30_seconds waits (its replay goes to the token
  // endpoint as code_reuse's does; it is proven in identity-stock-provider.test.ts).
  args.push("--exclude-check", "code_reuse_30_seconds");
  return conformInProcess(args, { ...FAULT_SERVER_CREDENTIALS, IDENTITY_SIGN_IN: STOCK_SIGN_IN });
}

/** Each check's verdicts: what two runs of the same provider behaviour must share. */
const verdictsOf = (report: RunReport) =>
  report.checks.map(({ name, passed, failed, couldNotRun, skipped }) => ({
    name,
    passed: passed > 0,
    failed,
    couldNotRun: Boolean(couldNotRun),
    skipped: Boolean(skipped),
  }));

const deploymentObservations = (report: RunReport) => report.observations.filter((o) => o.kind === "deployment");

describe("a stock oidc-provider whose endpoints are at its own paths", () => {
  it("advertises them in its discovery document, and the contract's paths are not its endpoints", async () => {
    const document = (await (
      await fetch(`${ownPaths.url}${identityOperationPath("getOpenIdConfiguration")}`)
    ).json()) as Record<string, unknown>;
    expect(document).toMatchObject({
      authorization_endpoint: `${ownPaths.url}${OWN_ROUTES.authorization}`,
      token_endpoint: `${ownPaths.url}${OWN_ROUTES.token}`,
      userinfo_endpoint: `${ownPaths.url}${OWN_ROUTES.userinfo}`,
      jwks_uri: `${ownPaths.url}${OWN_ROUTES.jwks}`,
      end_session_endpoint: `${ownPaths.url}${OWN_ROUTES.end_session}`,
    });
    expect((await fetch(`${ownPaths.url}${identityOperationPath("getJwks")}`)).status).toBe(404);
  });

  it.each(SEEDS)(
    "passes with the same verdicts as on the seed's paths, sending nothing to the contract's paths, seed %i",
    async (seed) => {
      const before = ownPaths.requests.length;
      const [own, reference] = [await conform(ownPaths, seed), await conform(seedPaths, seed)];
      const sent = ownPaths.requests.slice(before);

      expect(failingChecks(own.report), own.output).toEqual([]);
      expect(own.code, own.output).toBe(0);
      expect(verdictsOf(own.report), own.output).toEqual(verdictsOf(reference.report));
      // The provider's own log: every endpoint was reached at its advertised path, none at the contract's.
      expect(sent.filter((request) => CONTRACT_PATHS.has(request.path))).toEqual([]);
      for (const path of Object.values(OWN_ROUTES))
        expect(
          sent.some((request) => request.path === path),
          `${path} received no request`,
        ).toBe(true);
      // Where the endpoints are is one fact about the deployment, reported once; on the seed's paths there is none.
      const [observation, ...more] = deploymentObservations(own.report);
      expect(more).toEqual([]);
      expect(observation?.detail).toContain(`token_endpoint ${ownPaths.url}${OWN_ROUTES.token}`);
      expect(deploymentObservations(reference.report)).toEqual([]);
      // Nothing live in the provider's own store: the run revoked its tokens and ended every session it opened.
      for (const model of ["RefreshToken", "AccessToken", "Session"])
        expect(store.live(model), `${model} live after the run\n${own.output}`).toBe(0);
      expect(store.idsEver("Session").length, own.output).toBeGreaterThan(0);
    },
    240_000,
  );
});

describe("an operation whose discovery member is missing", () => {
  const base = "https://id.example.test";
  const document = {
    authorization_endpoint: `${base}/oidc/auth`,
    token_endpoint: `${base}/oidc/token`,
    jwks_uri: `${base}/oidc/certs`,
    end_session_endpoint: "not a URL",
  };
  const endpoints = new IdentityEndpoints(base, document);

  it("goes to the contract's path, and only it", () => {
    expect(endpoints.urlOf("exchangeToken")).toBe(`${base}/oidc/token`);
    expect(endpoints.urlOf("getUserInfo")).toBe(`${base}${identityOperationPath("getUserInfo")}`);
    expect(endpoints.urlOf("getUserInfoByPost")).toBe(`${base}${identityOperationPath("getUserInfoByPost")}`);
    expect(endpoints.urlOf("logout")).toBe(`${base}${identityOperationPath("logout")}`);
  });

  it("is reported with its member and operations, besides the one block of endpoints elsewhere", () => {
    const [elsewhere, ...fallbacks] = endpointObservations(endpoints.locations).map((o) => o.message);
    expect(elsewhere).toMatch(/^the discovery document advertises endpoints other than the contract's endpoint table/);
    expect(elsewhere).toContain(`token_endpoint ${base}/oidc/token`);
    expect(fallbacks).toEqual([
      `the discovery document has no userinfo_endpoint: getUserInfo and getUserInfoByPost went to the contract's path, ${base}${identityOperationPath("getUserInfo")}`,
      `the discovery document names no http(s) URL as end_session_endpoint (not a URL): logout and logoutWithForm went to the contract's path, ${base}${identityOperationPath("logout")}`,
    ]);
  });

  it("is no observation at all when the document advertises the contract's endpoints", () => {
    const contractDocument = Object.fromEntries(
      Object.entries(DISCOVERY_MEMBERS).map(([id, member]) => [
        member,
        `${base}${identityOperationPath(id as keyof typeof DISCOVERY_MEMBERS)}`,
      ]),
    );
    expect(endpointObservations(new IdentityEndpoints(base, contractDocument).locations)).toEqual([]);
  });
});
