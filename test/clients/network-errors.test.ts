// A client whose server is not there (stopped, wrong port) says which call failed and the URL it tried, not fetch's
// bare "fetch failed"; the reason fetch gives (ECONNREFUSED) is kept, and the original error is the cause.
import { createServer } from "node:net";
import { describe, expect, it } from "vitest";
import { createCatalogClient } from "../../clients/catalog.js";
import { createLinksClient } from "../../clients/links.js";
import { createPayClient } from "../../clients/pay.js";

/** A loopback port nobody listens on: taken from the system, then closed again. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe("network errors name the URL", () => {
  it("links, catalog and pay", async () => {
    const port = await closedPort();
    const baseUrl = `http://127.0.0.1:${port}`;
    const links = createLinksClient({ baseUrl, apiKey: "demo-key" });
    await expect(links.GET("/api/account")).rejects.toThrow(
      new RegExp(`^GET /api/account: fetch failed \\(${baseUrl}/api/account\\): .*ECONNREFUSED`),
    );
    const catalog = createCatalogClient({ baseUrl, apiKey: "demo-seller-key" });
    await expect(catalog.GET("/admin/seller-api/me")).rejects.toThrow(`(${baseUrl}/admin/seller-api/me)`);
    const pay = createPayClient({ baseUrl, shopId: "3561", apiKey: "demo-pay-key" });
    const failure: unknown = await pay.POST("/api/balance/", { body: {} }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(TypeError);
    expect((failure as TypeError).message).toContain(`(${baseUrl}/api/balance/)`);
    expect((failure as TypeError).cause).toBeInstanceOf(TypeError);
  });
});
