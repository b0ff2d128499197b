// The catalog client against local servers: every error status thrown as CatalogApiError (CatalogScopeError for a
// 403), and one Idempotency-Key per logical write, kept across the client's own retries.
import { beforeAll, describe, expect, it } from "vitest";
import { CatalogApiError, CatalogScopeError, createCatalogClient } from "../../clients/catalog.js";
import { sendJson } from "../support/http.js";
import { expectNoSecrets, SELLER_KEY, serve } from "./support.js";

describe("catalog errors", () => {
  it("throws every error status as CatalogApiError, and a 403 as CatalogScopeError (a CatalogApiError too)", async () => {
    const url = await serve((request, _body, response) =>
      request.url === "/admin/seller-api/me"
        ? sendJson(response, 403, { error: "missing scope: products:read", missing_scope: "products:read" })
        : sendJson(response, 422, { error: "category_id: unknown category pcat_x" }),
    );
    const catalog = createCatalogClient({ baseUrl: url, apiKey: SELLER_KEY });
    const refused = await catalog
      .POST("/admin/seller-api/products", {
        body: { title: "x", delivery_type: "digital_instant", category_id: "pcat_x", status: "draft", variants: [] },
      })
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(CatalogApiError);
    expect(refused).toMatchObject({
      status: 422,
      body: { error: "category_id: unknown category pcat_x" },
      operation: "POST /admin/seller-api/products",
    });
    expect((refused as Error).message).toBe(
      "POST /admin/seller-api/products failed (HTTP 422): category_id: unknown category pcat_x",
    );
    const scope = await catalog.GET("/admin/seller-api/me").catch((e: unknown) => e);
    expect(scope).toBeInstanceOf(CatalogScopeError);
    expect(scope).toBeInstanceOf(CatalogApiError);
    expect(scope).toMatchObject({ status: 403, missingScope: "products:read" });
    expectNoSecrets(scope);
  });
});

describe.concurrent("catalog 403s that do not name a scope", () => {
  it.each([
    [
      "a CDN's HTML page",
      "text/html",
      '<div style="display:none">Access denied</div>',
      /names no missing scope: <div style="display:none">Access denied/,
    ],
    [
      "a refusal of the address",
      "application/json",
      '{"detail":"ip:blocked by policy"}',
      /names no missing scope: \{"detail":"ip:blocked by policy"\}/,
    ],
    ["a revoked key", "application/json", '{"error":"API key revoked"}', /names no missing scope: API key revoked$/],
  ])("%s: no missing scope guessed, and the server's words kept", async (_name, contentType, text, message) => {
    const url = await serve(
      (_request, _body, response) => void response.writeHead(403, { "Content-Type": contentType }).end(text),
    );
    const error = await createCatalogClient({ baseUrl: url, apiKey: SELLER_KEY })
      .GET("/admin/seller-api/me")
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CatalogScopeError);
    expect((error as CatalogScopeError).missingScope).toBeUndefined();
    expect((error as CatalogScopeError).message).toMatch(message);
  });
});

describe("catalog idempotency", () => {
  const attempts: Array<{ key: string | undefined; apiKey: string | undefined }> = [];
  let url = "";
  beforeAll(async () => {
    const failedOnce = new Set<string>();
    url = await serve((request, _body, response) => {
      const key = request.headers["idempotency-key"] as string | undefined;
      attempts.push({ key, apiKey: request.headers["x-seller-api-key"] as string | undefined });
      if (request.url === "/admin/seller-api/me")
        return sendJson(response, 403, { error: "missing scope products:read" });
      if (key && !failedOnce.has(key)) {
        failedOnce.add(key);
        if (!key.startsWith("drop-")) return sendJson(response, 503, { error: "try again" });
        request.socket.destroy(); // a network failure
        return;
      }
      sendJson(response, 200, { variants: [{ prices: [{ amount: "10.50" }] }] });
    });
  });
  const body = {
    title: "Gift card",
    delivery_type: "digital_instant",
    category_id: "pcat_1",
    status: "published",
    variants: [],
  };

  it("sends one key per logical call and reuses it when retrying", async () => {
    attempts.length = 0;
    const catalog = createCatalogClient({ baseUrl: url, apiKey: SELLER_KEY, retryDelayMs: 1 });
    const first = await catalog.POST("/admin/seller-api/products", { body });
    const second = await catalog.POST("/admin/seller-api/products", { body });
    expect(first.response.status).toBe(200);
    expect(second.response.status).toBe(200);
    const keys = attempts.map((a) => a.key);
    expect(keys).toHaveLength(4);
    expect(keys[0]).toBeTruthy();
    expect(keys[1]).toBe(keys[0]);
    expect(keys[3]).toBe(keys[2]);
    expect(keys[2]).not.toBe(keys[0]);
    expect(attempts.every((a) => a.apiKey === SELLER_KEY)).toBe(true);
  });

  it("keeps a key the caller chose, also across a dropped connection", async () => {
    attempts.length = 0;
    const catalog = createCatalogClient({ baseUrl: url, apiKey: SELLER_KEY, retryDelayMs: 1 });
    const { response } = await catalog.POST("/admin/seller-api/products", {
      body,
      params: { header: { "Idempotency-Key": "drop-order-77" } },
    });
    expect(response.status).toBe(200);
    expect(attempts.map((a) => a.key)).toEqual(["drop-order-77", "drop-order-77"]);
  });

  it("stops retrying a write when the caller aborts it, with the signal's reason", async () => {
    attempts.length = 0;
    let sends = 0;
    const countingFetch = (request: Request) => ((sends += 1), fetch(request));
    const catalog = createCatalogClient({ baseUrl: url, apiKey: SELLER_KEY, retryDelayMs: 5000, fetch: countingFetch });
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error("the user left the page")), 300);
    const error = await catalog
      .POST("/admin/seller-api/products", { body, signal: controller.signal })
      .catch((e: unknown) => e);
    expect((error as Error).message).toBe("the user left the page");
    expect(attempts).toHaveLength(1); // the 503
    expect(sends).toBe(1); // and no retry of an aborted call, which would fail at once with the same reason
  });

  it("does not add a key to reads, and names the missing scope of a 403", async () => {
    attempts.length = 0;
    const catalog = createCatalogClient({ baseUrl: url, apiKey: SELLER_KEY });
    const error = await catalog.GET("/admin/seller-api/me").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CatalogScopeError);
    expect((error as CatalogScopeError).missingScope).toBe("products:read");
    expect(attempts).toEqual([{ key: undefined, apiKey: SELLER_KEY }]);
    expectNoSecrets(error);
  });
});
