// The seller catalog of the sandbox through the generated client: the key's shop and category tree, product
// creation with real Idempotency-Key semantics (20 concurrent identical requests create one product), scopes
// enforced per key, and the issuance webhook simulation against a real seller server for every kind of reply.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CatalogScopeError } from "../../clients/catalog.js";
import { hmacSha256Signer } from "../../lib/pay-signature.js";
import { invalidRequestStatus, loadContract } from "../../lib/contract/index.js";
import { defaultConfig } from "../../mock/sandbox/config.js";
import { clientsFor } from "./support/clients.js";
import { startTestSandbox, type TestSandbox } from "./support/sandbox.js";

let sandbox: TestSandbox;
let catalog: ReturnType<ReturnType<typeof clientsFor>["catalog"]>;
let seller: Server;
let SELLER_URL: string;
const received: Array<{ path: string; body: string; authorization: string | undefined }> = [];

/** The seller's issuance endpoint: the path decides the reply, e.g. /issued, /declined-409, /empty. */
function sellerReply(req: IncomingMessage, res: ServerResponse, body: string): void {
  received.push({ path: req.url!, body, authorization: req.headers.authorization });
  const reply = (status: number, text: string): void =>
    void res.writeHead(status, { "content-type": "application/json" }).end(text);
  switch (req.url) {
    case "/issued":
      return reply(200, JSON.stringify({ items: ["VPN-7QK2-M4X9-PL3D"] }));
    case "/answered":
      return reply(200, JSON.stringify({ status: "out_of_stock" }));
    case "/declined-409":
      return reply(409, "");
    case "/declined-422":
      return reply(422, JSON.stringify({ error: "no stock" }));
    case "/empty":
      return reply(200, "{}");
    case "/empty-items":
      return reply(200, JSON.stringify({ items: [] }));
    case "/unreadable":
      return reply(200, "<html>oops</html>");
    case "/server-error":
      return reply(500, JSON.stringify({ items: ["never counted"] }));
    case "/huge": // valid JSON with items, over the 1 MiB cap
      return reply(200, JSON.stringify({ items: ["x".repeat(2 * 1024 * 1024)] }));
    case "/huge-chunked": // the same without a Content-Length: the cap is counted while reading
      res.writeHead(200, { "content-type": "application/json" });
      res.write('{"items":["');
      for (let i = 0; i < 32; i++) res.write("x".repeat(64 * 1024));
      return void res.end('"]}');
    case "/slow":
      // Far past the sandbox's timeout, so a busy machine cannot make it arrive in time.
      setTimeout(() => reply(200, JSON.stringify({ items: ["too late"] })), 20_000).unref();
      return;
    default:
      return reply(404, "");
  }
}

beforeAll(async () => {
  const config = defaultConfig();
  // Short enough for the /slow case, long enough that every other reply starts in time on a busy machine.
  config.catalog.issuanceTimeoutMs = 2000;
  sandbox = await startTestSandbox({ config });
  catalog = clientsFor(sandbox.urls, sandbox.fetch).catalog();
  seller = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString()));
    req.on("end", () => sellerReply(req, res, body));
  });
  await new Promise<void>((resolve) => seller.listen(0, "127.0.0.1", resolve));
  SELLER_URL = `http://127.0.0.1:${(seller.address() as AddressInfo).port}`;
});
afterAll(async () => {
  seller?.closeAllConnections();
  await new Promise((resolve) => seller?.close(resolve));
  await sandbox?.stop();
});

const product = {
  title: "VPN Subscription",
  delivery_type: "external_api",
  category_id: "pcat_2fz7c5m9",
  status: "published",
  variants: [
    { title: "1 month", prices: [{ amount: 4.99, currency_code: "usd" }] },
    { title: "12 months", prices: [{ amount: 39.9, currency_code: "usd" }] },
  ],
};

async function sandboxCall(path: string, init: RequestInit = {}, apiKey = "demo-seller-key") {
  const response = await fetch(`${sandbox.urls.catalog}${path}`, {
    ...init,
    headers: { "x-seller-api-key": apiKey, "content-type": "application/json", ...init.headers },
  });
  return { status: response.status, body: await response.json() };
}

describe("catalog sandbox", () => {
  it("reads the shop of the key and a category tree with pcat_ ids", async () => {
    expect((await catalog.GET("/admin/seller-api/me")).data).toMatchObject({ payout_verified: true });
    const categories = (await catalog.GET("/admin/seller-api/categories")).data as Array<{
      id: string;
      parent_id: string | null;
    }>;
    const roots = categories.filter((c) => c.parent_id === null);
    expect(roots.length).toBeGreaterThan(0);
    for (const category of categories) {
      expect(category.id).toMatch(/^pcat_/);
      if (category.parent_id !== null) expect(categories.map((c) => c.id)).toContain(category.parent_id);
    }
    const gear = clientsFor(sandbox.urls, sandbox.fetch).catalog("demo-gear-seller-key");
    expect((await gear.GET("/admin/seller-api/me")).data).toMatchObject({ payout_verified: false });
  });

  it("creates a product with two-decimal price strings", async () => {
    const created = await catalog.POST("/admin/seller-api/products", { body: product });
    expect(created.response.status).toBe(200);
    // Only what the contract documents (issue 36); the whole row is the sandbox's own, under /_sandbox/products.
    expect(created.data).toEqual({
      id: expect.stringMatching(/^prod_/),
      variants: [{ prices: [{ amount: "4.99" }] }, { prices: [{ amount: "39.90" }] }],
    });
    const rows = (await sandboxCall("/_sandbox/products")).body as Array<{ id: string; title: string; status: string }>;
    expect(rows.find((row) => row.id === created.data?.id)).toMatchObject({
      title: "VPN Subscription",
      status: "published",
    });
  });

  it("creates one product for 20 concurrent identical requests with the same Idempotency-Key", async () => {
    const before = (await sandboxCall("/_sandbox/products")).body.length;
    const key = crypto.randomUUID();
    const body = { ...product, title: "Gift card" };
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        catalog.POST("/admin/seller-api/products", { params: { header: { "Idempotency-Key": key } }, body }),
      ),
    );
    const ids = new Set(results.map((result) => (result.data as { id: string }).id));
    expect(ids.size).toBe(1);
    expect(results.every((result) => result.response.status === 200)).toBe(true);
    // A replay says nothing of its own: the contract documents no header for it.
    expect(results.filter((result) => result.response.headers.has("idempotent-replayed"))).toEqual([]);
    expect((await sandboxCall("/_sandbox/products")).body.length).toBe(before + 1);

    // The same body with its keys in another order is the same request.
    const reordered = await catalog.POST("/admin/seller-api/products", {
      params: { header: { "Idempotency-Key": key } },
      body: {
        variants: body.variants,
        status: body.status,
        category_id: body.category_id,
        delivery_type: body.delivery_type,
        title: body.title,
      },
    });
    expect((reordered.data as { id: string }).id).toBe([...ids][0]);

    const different = catalog.POST("/admin/seller-api/products", {
      params: { header: { "Idempotency-Key": key } },
      body: { ...body, title: "Another" },
    });
    await expect(different).rejects.toMatchObject({
      name: "CatalogApiError",
      status: 422,
      body: { error: expect.stringContaining("different request body") },
    });
    expect((await sandboxCall("/_sandbox/products")).body.length).toBe(before + 1);
  });

  it("enforces scopes per key and names the missing scope", async () => {
    const readOnly = clientsFor(sandbox.urls, sandbox.fetch).catalog("demo-seller-read-key");
    expect((await readOnly.GET("/admin/seller-api/categories")).response.status).toBe(200);
    const refused = readOnly.POST("/admin/seller-api/products", { body: product });
    await expect(refused).rejects.toBeInstanceOf(CatalogScopeError);
    await expect(refused).rejects.toMatchObject({ missingScope: "products:write" });
    const unknown = await sandbox.fetch(`${sandbox.urls.catalog}/admin/seller-api/me`, {
      headers: { "x-seller-api-key": "nope" },
    });
    expect(unknown.status).toBe(401);
  });

  it("refuses an unknown category, a missing Idempotency-Key and a body the contract does not allow", async () => {
    const unknownCategory = catalog.POST("/admin/seller-api/products", {
      body: { ...product, category_id: "pcat_missing" },
    });
    await expect(unknownCategory).rejects.toMatchObject({
      status: 422,
      body: { error: "category_id: unknown category pcat_missing" },
    });
    const noKey = await sandbox.fetch(`${sandbox.urls.catalog}/admin/seller-api/products`, {
      method: "POST",
      headers: { "x-seller-api-key": "demo-seller-key", "content-type": "application/json" },
      body: JSON.stringify(product),
    });
    const invalid = invalidRequestStatus(loadContract("catalog").operation("createProduct")); // as the mock answers
    expect(noKey.status).toBe(invalid);
    expect(await noKey.json()).toEqual({ error: "header parameter Idempotency-Key is required" });
    // Sent but empty (curl -H 'Idempotency-Key;'): the contract's minLength 1, twice, so no repeat replays it.
    for (let i = 0; i < 2; i++) {
      const emptyKey = await sandbox.fetch(`${sandbox.urls.catalog}/admin/seller-api/products`, {
        method: "POST",
        headers: { "x-seller-api-key": "demo-seller-key", "idempotency-key": "", "content-type": "application/json" },
        body: JSON.stringify(product),
      });
      expect(emptyKey.status).toBe(invalid);
      expect(await emptyKey.json()).toEqual({
        error: "header parameter Idempotency-Key must NOT have fewer than 1 characters",
      });
    }
    const badPrice = catalog.POST("/admin/seller-api/products", {
      body: { ...product, variants: [{ title: "x", prices: [{ amount: 1, currency_code: "USD" }] }] },
    });
    await expect(badPrice).rejects.toMatchObject({
      status: invalid,
      body: { error: expect.stringContaining("currency_code must match pattern") },
    });
  });
});

describe("issuance webhook simulation", () => {
  let productId: string;

  beforeAll(async () => {
    const created = await catalog.POST("/admin/seller-api/products", { body: product });
    productId = (created.data as { id: string }).id;
  });

  async function sellVia(path: string) {
    expect(
      (
        await sandboxCall("/_sandbox/shop", {
          method: "PATCH",
          body: JSON.stringify({ issuance_url: `${SELLER_URL}${path}` }),
        })
      ).status,
    ).toBe(200);
    const sale = await sandboxCall("/_sandbox/sales", {
      method: "POST",
      body: JSON.stringify({ product_id: productId }),
    });
    expect(sale.status).toBe(200);
    const stored = await sandboxCall(`/_sandbox/sales/${sale.body.id}`);
    expect(stored.body).toEqual(sale.body); // the outcome stays readable afterwards
    return sale.body;
  }

  it("sends the signed sale event to the seller's URL", async () => {
    await sellVia("/issued");
    const event = received.at(-1)!;
    expect(JSON.parse(event.body)).toMatchObject({ event: "sale", product_id: productId, quantity: 1 });
    expect(event.authorization).toBe(
      await hmacSha256Signer("demo-issuance-secret")(new TextEncoder().encode(event.body)),
    );
  });

  it.each([
    ["/issued", { outcome: "issued", refunded: false, items: ["VPN-7QK2-M4X9-PL3D"] }],
    ["/answered", { outcome: "answered", refunded: false, answer: "out_of_stock" }],
    ["/declined-409", { outcome: "declined", refunded: false, reply: { http_status: 409, body: "" } }],
    ["/declined-422", { outcome: "declined", refunded: false }],
    ["/empty", { outcome: "failed", refunded: true, reason: expect.stringContaining("bare {}") }],
    ["/empty-items", { outcome: "failed", refunded: true }],
    ["/unreadable", { outcome: "failed", refunded: true, reason: expect.stringContaining("not readable") }],
    ["/server-error", { outcome: "failed", refunded: true, reason: expect.stringContaining("HTTP 500") }],
    ["/slow", { outcome: "failed", refunded: true, reply: { http_status: null, body: "" } }],
  ])("a reply from %s counts as %o", async (path, expected) => {
    expect(await sellVia(path)).toMatchObject(expected);
  });

  it.each(["/huge", "/huge-chunked"])(
    "a reply from %s over 1 MiB is a failed delivery, neither echoed nor kept",
    async (path) => {
      const sale = await sellVia(path);
      expect(sale).toMatchObject({
        outcome: "failed",
        refunded: true,
        reply: { http_status: 200 },
        reason: expect.stringContaining("larger than 1048576 bytes"),
      });
      expect(sale.items).toBeUndefined();
      expect(JSON.stringify(sale).length).toBeLessThan(5000);
    },
  );

  it("lists every sale of the shop and refuses products not issued on the fly", async () => {
    expect((await sandboxCall("/_sandbox/sales")).body.length).toBeGreaterThanOrEqual(10);
    const instant = await catalog.POST("/admin/seller-api/products", {
      body: { ...product, delivery_type: "digital_instant" },
    });
    const refused = await sandboxCall("/_sandbox/sales", {
      method: "POST",
      body: JSON.stringify({ product_id: (instant.data as { id: string }).id }),
    });
    expect(refused).toMatchObject({ status: 422, body: { error: expect.stringContaining("not issued on the fly") } });
    expect(sandbox.fetch.checked).toBeGreaterThan(20);
  });
});

describe("catalog sandbox: client-chosen keys", () => {
  it("an Idempotency-Key named after an Object.prototype member is a key like any other", async () => {
    for (const key of ["constructor", "__proto__", "hasOwnProperty"]) {
      const body = { ...product, title: `Keyed ${key}` };
      const first = await catalog.POST("/admin/seller-api/products", {
        params: { header: { "Idempotency-Key": key } },
        body,
      });
      expect(first.response.status).toBe(200);
      const before = (await sandboxCall("/_sandbox/products")).body.length;
      const again = await catalog.POST("/admin/seller-api/products", {
        params: { header: { "Idempotency-Key": key } },
        body,
      });
      expect((again.data as { id: string }).id).toBe((first.data as { id: string }).id);
      expect((await sandboxCall("/_sandbox/products")).body.length).toBe(before);
    }
  });
});
