// Every operation of every API through our typed clients, against real Prism mocks started from the specs. A 2xx
// from Prism also proves the request conformed (Prism refuses a missing header, credential or body field), and each
// response body is validated against the contract. Error envelopes are requested with `Prefer` and must surface as
// each client's typed error.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CatalogScopeError, createCatalogClient } from "../../clients/catalog.js";
import { createIdentityClient } from "../../clients/identity.js";
import { createLinksClient, LinksApiError } from "../../clients/links.js";
import { createPayClient, PayApiError } from "../../clients/pay.js";
import {
  type ApiName,
  describeErrors,
  joinPointer,
  loadContract,
  responseKeyFor,
  type ValidationResult,
} from "../../lib/contract/index.js";
import { type RunningMocks, startMocks } from "../../mock/prism.js";
import { testPort } from "../support/ports.js";

const PORTS = { identity: testPort(4200), links: testPort(4201), catalog: testPort(4202), pay: testPort(4203) };
const url = (api: ApiName) => `http://127.0.0.1:${PORTS[api]}`;
let mocks: RunningMocks;

beforeAll(async () => {
  mocks = await startMocks({ ports: PORTS });
});

afterAll(async () => {
  await mocks?.stop();
});

type Outcome = { data?: unknown; error?: unknown; response: Response };

/**
 * Validates `data` against the JSON schema of the response an operation documents for an HTTP status (exact, range or
 * default).
 */
function validateResponse(api: ApiName, operationId: string, status: number, data: unknown): ValidationResult {
  const contract = loadContract(api);
  const operation = contract.findOperation(operationId);
  if (!operation) throw new Error(`${api} has no operation ${operationId}`);
  const key = responseKeyFor(operation, status);
  if (key === undefined) throw new Error(`${api} ${operationId} documents no response for ${status}`);
  return contract.validate(
    joinPointer(operation.pointer, "responses", key, "content", "application/json", "schema"),
    data,
  );
}

function expectConforms(api: ApiName, operationId: string, outcome: Outcome): void {
  expect(outcome.error, `${operationId}: ${JSON.stringify(outcome.error)}`).toBeUndefined();
  expect(outcome.response.status).toBe(200);
  const result = validateResponse(api, operationId, outcome.response.status, outcome.data);
  expect(result.valid, describeErrors(result.errors)).toBe(true);
}

describe("links client", () => {
  const links = () => createLinksClient({ baseUrl: url("links"), apiKey: "test-links-key" });
  const calls: Array<[string, () => Promise<Outcome>]> = [
    ["getAccount", () => links().GET("/api/account")],
    ["updateAccount", () => links().PUT("/api/account/update", { body: { email: "new@example.com" } })],
    ["listDomains", () => links().GET("/api/domains", { params: { query: { limit: 10, page: 1 } } })],
    ["addDomain", () => links().POST("/api/domain/add", { body: { domain: "https://go.example.com" } })],
    [
      "updateDomain",
      () =>
        links().PUT("/api/domain/{id}/update", {
          params: { path: { id: 101 } },
          body: { redirect404: "https://example.com/404" },
        }),
    ],
    ["deleteDomain", () => links().DELETE("/api/domain/{id}/delete", { params: { path: { id: 101 } } })],
    ["listOverlays", () => links().GET("/api/overlay")],
    ["listCampaigns", () => links().GET("/api/campaigns", { params: { query: { page: 1 } } })],
    ["addCampaign", () => links().POST("/api/campaign/add", { body: { name: "Spring sale", public: true } })],
    [
      "assignLinkToCampaign",
      () =>
        links().POST("/api/campaign/{campaignid}/assign/{linkid}", {
          params: { path: { campaignid: 201, linkid: 9001 } },
        }),
    ],
    [
      "updateCampaign",
      () => links().PUT("/api/campaign/{id}/update", { params: { path: { id: 201 } }, body: { name: "Summer sale" } }),
    ],
    ["deleteCampaign", () => links().DELETE("/api/campaign/{id}/delete", { params: { path: { id: 201 } } })],
    ["listChannels", () => links().GET("/api/channels")],
    ["listChannelItems", () => links().GET("/api/channel/{id}", { params: { path: { id: 301 } } })],
    ["addChannel", () => links().POST("/api/channel/add", { body: { name: "Newsletter", color: "#1e90ff" } })],
  ];

  it.each(calls)("%s", async (operationId, call) => expectConforms("links", operationId, await call()));

  it("keeps the quirks in the data it returns", async () => {
    const list = await links().GET("/api/campaigns");
    expect(list.data?.error).toBe("0");
    const added = await links().POST("/api/campaign/add", { body: { name: "Spring sale" } });
    expect(added.data).toHaveProperty("domain");
    expect(added.data).not.toHaveProperty("name");
  });

  it("throws LinksApiError for an error envelope", async () => {
    const failure = links().GET("/api/account", { headers: { Prefer: "code=401, example=expiredApiKey" } });
    await expect(failure).rejects.toBeInstanceOf(LinksApiError);
    await expect(failure).rejects.toMatchObject({ status: 401, body: { error: 1 } });
  });

  it("throws LinksApiError for an error envelope sent with HTTP 200 (errors are signalled in the body)", async () => {
    const failure = links().GET("/api/account", { headers: { Prefer: "example=expiredApiKeyWithStatus200" } });
    await expect(failure).rejects.toMatchObject({
      name: "LinksApiError",
      status: 200,
      body: { error: 1, message: "The API key has expired." },
    });
  });
});

describe("catalog client", () => {
  const catalog = () => createCatalogClient({ baseUrl: url("catalog"), apiKey: "test-seller-key" });

  it("getShop", async () => expectConforms("catalog", "getShop", await catalog().GET("/admin/seller-api/me")));
  it("listCategories", async () =>
    expectConforms("catalog", "listCategories", await catalog().GET("/admin/seller-api/categories")));

  it("createProduct, with the Idempotency-Key the client adds (Prism refuses the call without one)", async () => {
    const outcome = await catalog().POST("/admin/seller-api/products", {
      body: {
        title: "Steam gift card",
        delivery_type: "digital_instant",
        category_id: "pcat_01HV6Q8Z3T",
        status: "published",
        variants: [{ title: "10 EUR", prices: [{ amount: 10.5, currency_code: "eur" }] }],
      },
    });
    expect(outcome.error).toBeUndefined();
    expect(outcome.response.status).toBeGreaterThanOrEqual(200);
    expect(outcome.response.status).toBeLessThan(300);
    const result = validateResponse("catalog", "createProduct", outcome.response.status, outcome.data);
    expect(result.valid, describeErrors(result.errors)).toBe(true);
  });

  it("throws CatalogScopeError naming the missing scope on 403", async () => {
    const failure = catalog().POST("/admin/seller-api/products", {
      headers: { Prefer: "code=403, example=missingProductsWrite" },
      body: { title: "x", delivery_type: "digital_instant", category_id: "pcat_1", status: "published", variants: [] },
    });
    await expect(failure).rejects.toBeInstanceOf(CatalogScopeError);
    await expect(failure).rejects.toMatchObject({ missingScope: "products:write" });
  });
});

describe("pay client", () => {
  const pay = () => createPayClient({ baseUrl: url("pay"), shopId: "1042", apiKey: "test-pay-secret" });

  // Prism refuses bodies without shop_id and nonce, and requests without Authorization: a 200 proves the client added
  // them.
  it("listShops", async () => expectConforms("pay", "listShops", await pay().POST("/api/shops/", { body: {} })));
  it("listOrders", async () =>
    expectConforms("pay", "listOrders", await pay().POST("/api/orders/", { body: { page: 1 } })));
  it("createOrder", async () =>
    expectConforms(
      "pay",
      "createOrder",
      await pay().POST("/api/createOrder/", {
        body: { currency: "USD", amount: 25.5, order_id: "A-1001", payment_system: 1 },
      }),
    ));
  it("getBalance", async () => expectConforms("pay", "getBalance", await pay().POST("/api/balance/", { body: {} })));

  it("throws PayApiError when type is not success", async () => {
    const failure = pay().POST("/api/balance/", { body: {}, headers: { Prefer: "code=400, example=nonceReused" } });
    await expect(failure).rejects.toBeInstanceOf(PayApiError);
  });

  it("throws PayApiError for a failure envelope sent with HTTP 200", async () => {
    const failure = pay().POST("/api/balance/", { body: {}, headers: { Prefer: "example=nonceReusedWithStatus200" } });
    await expect(failure).rejects.toBeInstanceOf(PayApiError);
    await expect(failure).rejects.toMatchObject({ status: 200, type: "error" });
  });
});

describe("identity client", () => {
  // The mock's discovery document names the address the request reached as issuer and in every endpoint.
  const issuer = url("identity");
  const options = {
    issuer,
    clientId: "demo-app",
    clientSecret: "test-client-secret",
    redirectUri: "http://127.0.0.1:5173/callback",
    allowInsecureRequests: true,
  };

  it("discovers the provider and builds an authorize URL with PKCE (S256), state and nonce", async () => {
    const identity = await createIdentityClient(options);
    const request = await identity.createAuthorizationRequest(["openid", "profile", "wallets"]);
    expect(request.url.origin + request.url.pathname).toBe(
      `${issuer}${loadContract("identity").operation("authorize").path}`,
    );
    const query = request.url.searchParams;
    expect(query.get("code_challenge_method")).toBe("S256");
    expect(query.get("code_challenge")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(query.get("state")).toBe(request.state);
    expect(query.get("nonce")).toBe(request.nonce);
    expect(query.get("scope")).toBe("openid profile wallets");
    // Prism checks the query against the contract: the URL the client builds is one the spec accepts.
    const page = await fetch(request.url.href, { redirect: "manual" });
    expect(page.status).toBeLessThan(400);
  });

  it("reads userinfo", async () => {
    const identity = await createIdentityClient(options);
    const claims = await identity.userInfo("test-access-token", "5b8f2c4e-1a7d-4e3b-9c6f-0d2a8e7b4f91");
    const result = validateResponse("identity", "getUserInfo", 200, claims);
    expect(result.valid, describeErrors(result.errors)).toBe(true);
  });

  it("exchanges a code and refuses the mock's example id_token, whose exp has passed", async () => {
    const identity = await createIdentityClient(options);
    const callback = `${options.redirectUri}?code=example-code&state=s1`;
    await expect(
      identity.handleCallback(callback, { state: "s1", nonce: "n-0S6_WzA2Mj", codeVerifier: "v".repeat(43) }),
    ).rejects.toThrow(/exp|expired|timestamp/i);
  });

  it("builds the RP-initiated logout URL", async () => {
    const identity = await createIdentityClient(options);
    const logout = identity.logoutUrl({ postLogoutRedirectUri: "http://127.0.0.1:5173/", state: "bye" });
    expect(logout.pathname).toBe(loadContract("identity").operation("logout").path);
    expect((await fetch(logout.href, { redirect: "manual" })).status).toBeLessThan(400);
  });
});
