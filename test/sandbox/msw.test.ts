// The MSW handlers (mock/msw.ts) in vitest with the generated clients: the same sandbox implementation, no server.
// The base URLs are names nobody listens on, so every answer comes from the handlers; each one is still checked
// against the contracts.
import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { canonicalJson } from "../../lib/canonical-json.js";
import { createSandboxHandlers, type MswSandboxState, seedSandboxState } from "../../mock/msw.js";
import { contractFetch } from "./support/contract-fetch.js";
import { clientsFor } from "./support/clients.js";
import { submitPaymentPage } from "./support/pay-page.js";

const urls = {
  links: "http://links.sandbox.test",
  catalog: "http://catalog.sandbox.test",
  pay: "http://pay.sandbox.test",
};
const SELLER = "http://seller.sandbox.test/issue";

let state: MswSandboxState;
const server = setupServer();
const checked = contractFetch(urls);
const clients = clientsFor(urls, checked);

beforeAll(() => {
  state = seedSandboxState();
  server.use(
    ...createSandboxHandlers({ baseUrls: urls, state }),
    http.post(SELLER, async ({ request }) =>
      HttpResponse.json({ items: [`CODE-${((await request.json()) as { sale_id: string }).sale_id}`] }),
    ),
  );
  server.listen({ onUnhandledRequest: "error" });
});
afterAll(() => server.close());

describe("MSW handlers backed by the sandbox", () => {
  it("links: a created campaign shows up in the list, and the state is shared with the test", async () => {
    const links = clients.links();
    const { data } = await links.POST("/api/campaign/add", { body: { name: "From MSW", slug: "msw" } });
    expect(data).toMatchObject({ domain: "From MSW", rotator: "https://go.example.com/r/msw" });
    const listed = await links.GET("/api/campaigns");
    expect(listed.data?.data.campaigns.map((c) => c.name)).toContain("From MSW");
    expect(state.links.campaigns.some((c) => c.name === "From MSW")).toBe(true);
  });

  it("links: no rate limit by default, and the contract's with rateLimit: true", async () => {
    const unlimited = [];
    for (let i = 0; i < 31; i++)
      unlimited.push(
        (await checked(`${urls.links}/api/account`, { headers: { authorization: "Bearer expired-links-key" } })).status,
      );
    expect(unlimited.every((s) => s === 401)).toBe(true);

    const limitedUrl = "http://links-limited.sandbox.test";
    server.use(
      ...createSandboxHandlers({
        baseUrls: { links: limitedUrl, catalog: "http://unused-catalog.test", pay: "http://unused-pay.test" },
        rateLimit: true,
      }),
    );
    const statuses = [];
    for (let i = 0; i < 31; i++)
      statuses.push(
        (await fetch(`${limitedUrl}/api/account`, { headers: { authorization: "Bearer expired-links-key" } })).status,
      );
    expect(statuses.slice(0, 30).every((s) => s === 401)).toBe(true);
    expect(statuses[30]).toBe(429);
  });

  it("catalog: idempotent creation and a sale issued by a seller handler", async () => {
    const catalog = clients.catalog();
    const body = {
      title: "VPN",
      delivery_type: "external_api",
      category_id: "pcat_2fz7c5m9",
      status: "published",
      variants: [{ title: "1 month", prices: [{ amount: 4.99, currency_code: "usd" }] }],
    };
    const key = "msw-key-1";
    const [first, second] = await Promise.all(
      [1, 2].map(() =>
        catalog.POST("/admin/seller-api/products", { params: { header: { "Idempotency-Key": key } }, body }),
      ),
    );
    const id = (first!.data as { id: string }).id;
    expect((second!.data as { id: string }).id).toBe(id);
    expect(state.catalog.shops[0]!.products).toHaveLength(1);

    const headers = { "x-seller-api-key": "demo-seller-key", "content-type": "application/json" };
    await fetch(`${urls.catalog}/_sandbox/shop`, {
      method: "PATCH",
      headers,
      body: JSON.stringify({ issuance_url: SELLER }),
    });
    const sale = await (
      await fetch(`${urls.catalog}/_sandbox/sales`, {
        method: "POST",
        headers,
        body: JSON.stringify({ product_id: id }),
      })
    ).json();
    expect(sale).toMatchObject({ outcome: "issued", refunded: false, items: [expect.stringMatching(/^CODE-sale_/)] });
  });

  it("pay: an order paid on the payment page is listed with status 1", async () => {
    const pay = clients.pay();
    const { id, url } = (await pay.POST("/api/createOrder/", { body: { currency: "EUR", amount: 10 } })).data.data;
    expect(url).toBe(`${urls.pay}/_sandbox/pay/${id}`);
    const paid = await submitPaymentPage(url, "pay", { redirect: "manual" });
    expect(paid.status).toBe(303);
    const order = (await pay.POST("/api/orders/", { body: {} })).data.data.find((o) => o.id === id);
    expect(order).toMatchObject({ status: 1, date_payed: expect.any(String), amount: "10.00000000" });
    expect((await pay.POST("/api/balance/", { body: {} })).data.data.balance.EUR).toBe("24.90");
    expect(checked.checked).toBeGreaterThan(35);
  });
});

describe("MSW handlers: failures", () => {
  const body = {
    title: "Edge",
    delivery_type: "digital_instant",
    category_id: "pcat_8kq2m4x7",
    status: "published",
    variants: [{ title: "one", prices: [{ amount: 1e21, currency_code: "usd" }] }],
  };
  const post = (url: string, key: string, text: string) =>
    fetch(`${url}/admin/seller-api/products`, {
      method: "POST",
      headers: { "x-seller-api-key": "demo-seller-key", "idempotency-key": key, "content-type": "application/json" },
      body: text,
    });

  it("refuses a price of 1e21 in the catalog envelope", async () => {
    const refused = await post(urls.catalog, "msw-huge", JSON.stringify(body));
    expect(refused.status).toBe(422);
    expect(await refused.json()).toEqual({
      error: expect.stringMatching(/^amount 1e\+21 must be a number from 0 to 1e12/),
    });
  });

  it("answers a handler that fails with a 500 in the API's envelope, without a stack trace", async () => {
    // A state that cannot be right: the key's product is gone, so the replay throws inside the handler.
    const broken = seedSandboxState();
    const priced = { ...body, variants: [{ title: "one", prices: [{ amount: 1, currency_code: "usd" }] }] };
    broken.catalog.shops[0]!.idempotency.lost = {
      fingerprint: canonicalJson(priced),
      status: 201,
      product_id: "prod_gone",
    };
    const url = "http://broken-catalog.sandbox.test";
    server.use(
      ...createSandboxHandlers({
        baseUrls: { links: "http://unused-links.test", catalog: url, pay: "http://unused-pay.test" },
        state: broken,
      }),
    );
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const failed = await post(url, "lost", JSON.stringify(priced));
      expect(failed.status).toBe(500);
      const text = await failed.text();
      expect(JSON.parse(text)).toEqual({ error: "the sandbox failed on this request; see the console" });
      expect(text).not.toMatch(/stack|at /);
      expect(log).toHaveBeenCalledWith(
        "sandbox:",
        expect.objectContaining({ message: "the sandbox lost product prod_gone" }),
      );
    } finally {
      log.mockRestore();
    }
  });
});

describe("MSW handlers below a path prefix (a dev proxy's /api/pay)", () => {
  const prefixed = {
    links: "http://dev.sandbox.test/api/links",
    catalog: "http://dev.sandbox.test/api/catalog/",
    pay: "https://pay.sandbox.test/gateway",
  };

  it("answer below the prefix, with payment links and the payment page's form below it too", async () => {
    server.use(...createSandboxHandlers({ baseUrls: prefixed }));
    const own = clientsFor(prefixed, (input, init) => fetch(input, init));
    expect((await own.links().GET("/api/account")).data?.data).toMatchObject({ id: expect.any(Number) });
    expect((await own.catalog().GET("/admin/seller-api/me")).data).toMatchObject({ payout_verified: true });
    const { id, url } = (await own.pay().POST("/api/createOrder/", { body: { currency: "USD", amount: 7 } })).data.data;
    expect(url).toBe(`${prefixed.pay}/_sandbox/pay/${id}`);

    const page = await fetch(url);
    expect(page.status).toBe(200);
    const action = new URL(/<form method="post" action="([^"]+)"/.exec(await page.text())![1]!, url).href;
    expect(action).toBe(url);
    const paid = await submitPaymentPage(url, "pay", { redirect: "manual" });
    expect(paid.status).toBe(303);
    expect(new URL(paid.headers.get("location")!, action).href).toBe(url);
    expect(
      (await own.pay().POST("/api/orders/", { body: {} })).data.data.find((order) => order.id === id),
    ).toMatchObject({ status: 1 });

    const missing = await fetch(`${prefixed.pay}/api/nothing/`, { method: "POST", body: "{}" });
    expect(await missing.json()).toEqual({ type: "error", desc: "no pay endpoint at /api/nothing/" });
  });

  it("refuse at creation a base URL they could not serve", () => {
    for (const pay of [
      "/api/pay",
      "ftp://pay.sandbox.test/",
      "https://pay.sandbox.test/gateway?shop=1",
      "pay.sandbox.test",
    ]) {
      expect(() => createSandboxHandlers({ baseUrls: { pay } }), pay).toThrow(
        `baseUrls.pay must be an http(s) URL without query or fragment, optionally ending in a path prefix`,
      );
    }
  });
});
