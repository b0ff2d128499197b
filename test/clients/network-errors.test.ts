// A client whose server is not there (stopped, wrong port) says which call failed and the URL it tried, not fetch's
// bare "fetch failed"; the reason fetch gives (ECONNREFUSED) is kept, and the original error is the cause. Identity's
// client too, whose requests openid-client and jose send: at discovery, and after a real sandbox has stopped.
import { createServer } from "node:net";
import { describe, expect, it } from "vitest";
import { createCatalogClient } from "../../clients/catalog.js";
import { createIdentityClient } from "../../clients/identity.js";
import { createLinksClient } from "../../clients/links.js";
import { createPayClient } from "../../clients/pay.js";
import { API_NAMES, loadContract } from "../../lib/contract/index.js";
import { DEFAULT_CONFIG } from "../../mock/sandbox/default-config.js";
import { startSandbox } from "../../mock/sandbox/server.js";

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

  it("identity: discovery, and the token and userinfo endpoints of a provider that has stopped", async () => {
    const demo = DEFAULT_CONFIG.identity.clients[0]!;
    const options = {
      clientId: demo.client_id,
      clientSecret: demo.client_secret,
      redirectUri: demo.redirect_uris[0]!,
      allowInsecureRequests: true,
    };
    const issuer = `http://127.0.0.1:${await closedPort()}`;
    const discovery = loadContract("identity").operation("getOpenIdConfiguration").path;
    await expect(createIdentityClient({ ...options, issuer })).rejects.toThrow(
      new RegExp(`^GET ${discovery}: fetch failed \\(${issuer}${discovery}\\): .*ECONNREFUSED`),
    );

    const sandbox = await startSandbox({ ports: Object.fromEntries(API_NAMES.map((api) => [api, 0])) });
    const identity = await createIdentityClient({ ...options, issuer: sandbox.urls.identity }).finally(() =>
      sandbox.stop(),
    );
    const contract = loadContract("identity");
    const token = contract.operation("exchangeToken").path;
    await expect(identity.refresh("a-refresh-token")).rejects.toThrow(
      new RegExp(`^POST ${token}: fetch failed \\(${sandbox.urls.identity}${token}\\): .*ECONNREFUSED`),
    );
    const userinfo = contract.operation("getUserInfo").path;
    await expect(identity.userInfo("an-access-token", "a-subject")).rejects.toThrow(
      `GET ${userinfo}: fetch failed (${sandbox.urls.identity}${userinfo})`,
    );
  });
});
