// Issue #38: a local server that only answers for itself. The Host check (loopback names and addresses, the listen
// address, --allowed-host), the CORS policy (the sandbox's own and loopback origins, --allowed-origin; never with
// credentials; HTML pages never), and the payment page, which only its own page can submit: a page of another
// origin cannot pay an order, neither with a cross-site form in a real browser nor by posting without the token.
import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { API_NAMES, type ApiName } from "../../lib/contract/index.js";
import { identityRoutes } from "../../mock/sandbox/identity.js";
import { workerChromium } from "../support/chromium.js";
import { testPort } from "../support/ports.js";
import { runContracts } from "../support/processes.js";
import { clientsFor } from "./support/clients.js";
import { postPaymentForm, readPaymentForm } from "./support/pay-page.js";
import { startTestSandbox, type TestSandbox } from "./support/sandbox.js";

let sandbox: TestSandbox;
beforeAll(async () => {
  sandbox = await startTestSandbox({ rateLimit: false, allowedOrigins: ["https://docs.example.com"] });
});
afterAll(() => sandbox?.stop());

const READS: Record<ApiName, { path: string; headers: Record<string, string> }> = {
  identity: { path: identityRoutes().discovery, headers: {} },
  links: { path: "/api/account", headers: { authorization: "Bearer demo-links-key" } },
  catalog: { path: "/admin/seller-api/me", headers: { "x-seller-api-key": "demo-seller-key" } },
  pay: { path: "/_sandbox/pay/1", headers: {} },
};

/** A request with any Host header (fetch does not let a caller choose it). */
function get(
  url: string,
  headers: Record<string, string>,
  method = "GET",
  body?: string,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, headers }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (body += chunk));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

describe("the Host check", () => {
  it.each(API_NAMES)(
    "%s refuses a foreign Host (DNS rebinding) and answers loopback names and addresses",
    async (api) => {
      const { path, headers } = READS[api];
      const url = `${sandbox.urls[api]}${path}`;
      const port = new URL(url).port;
      const rebound = await get(url, { ...headers, host: `evil.example:${port}` });
      expect(rebound.status).toBe(403);
      expect(rebound.body).toMatch(/Host evil\.example:\d+ is not an address of this sandbox/);
      expect(rebound.body).not.toContain("http://evil.example");
      if (api !== "pay") expect(JSON.parse(rebound.body)).toBeTypeOf("object");
      for (const host of [
        `127.0.0.1:${port}`,
        `localhost:${port}`,
        `app.localhost:${port}`,
        `127.0.0.2:${port}`,
        `[::1]:${port}`,
      ])
        expect((await get(url, { ...headers, host })).status, host).not.toBe(403);
    },
  );

  it("discovery served under a foreign name would list foreign endpoints: it is refused", async () => {
    const discovery = `${sandbox.urls.identity}${identityRoutes().discovery}`;
    expect(JSON.parse((await get(discovery, {})).body).issuer).toBe(sandbox.urls.identity);
    expect((await get(discovery, { host: "evil.example" })).status).toBe(403);
  });

  it("contracts sandbox --allowed-host answers that name too, and still no other", async () => {
    const base = testPort(4760);
    const command = runContracts(["sandbox", "--base-port", String(base), "--allowed-host", "sandbox.test"]);
    try {
      await command.waitForOutput(/Ctrl-C to stop/);
      const url = `http://127.0.0.1:${base + 1}/api/account`;
      const auth = { authorization: "Bearer demo-links-key" };
      expect((await get(url, { ...auth, host: "sandbox.test" })).status).toBe(200);
      expect((await get(url, { ...auth, host: "other.test" })).status).toBe(403);
    } finally {
      command.child.kill("SIGTERM");
      await command.exit;
    }
  });
});

describe("the CORS policy", () => {
  const links = () => `${sandbox.urls.links}/api/account`;
  const auth = { authorization: "Bearer demo-links-key" };

  it("lets loopback origins and --allowed-origin read the JSON APIs, never with credentials", async () => {
    for (const origin of ["http://localhost:5173", "http://127.0.0.1:8080", "https://docs.example.com"]) {
      const preflight = await get(
        links(),
        { origin, "access-control-request-method": "GET", "access-control-request-headers": "authorization" },
        "OPTIONS",
      );
      expect(preflight.status, origin).toBe(204);
      expect(preflight.headers["access-control-allow-origin"]).toBe(origin);
      expect(preflight.headers["access-control-allow-headers"]).toBe("authorization");
      const read = await get(links(), { ...auth, origin });
      expect(read.status).toBe(200);
      expect(read.headers["access-control-allow-origin"]).toBe(origin);
      expect(read.headers.vary).toMatch(/Origin/);
      expect(read.headers["access-control-allow-credentials"]).toBeUndefined();
    }
  });

  it("lets the same origins read identity's token endpoint (the docs site's console on any port), no others", async () => {
    const token = `${sandbox.urls.identity}${identityRoutes().token}`;
    // The demo client and a made-up code: the client is known, so oidc-provider checks the origin, then the code.
    const form = new URLSearchParams({
      grant_type: "authorization_code",
      code: "made-up",
      redirect_uri: "http://127.0.0.1:5173/callback",
      client_id: "demo-app",
      client_secret: "demo-app-secret",
      code_verifier: "v".repeat(43),
    }).toString();
    const headers = { "content-type": "application/x-www-form-urlencoded" };
    for (const origin of ["http://localhost:8173", "http://127.0.0.1:8174", "https://docs.example.com"]) {
      const answer = await get(token, { ...headers, origin }, "POST", form);
      expect(JSON.parse(answer.body), origin).toMatchObject({ error: "invalid_grant" });
      expect(answer.headers["access-control-allow-origin"]).toBe(origin);
    }
    const foreign = await get(token, { ...headers, origin: "https://evil.example" }, "POST", form);
    expect(JSON.parse(foreign.body)).toMatchObject({
      error: "invalid_request",
      error_description: expect.stringContaining("https://evil.example"),
    });
    expect(foreign.headers["access-control-allow-origin"]).toBeUndefined();
  });

  it("refuses other origins, preflight or not, without CORS headers", async () => {
    for (const origin of ["https://evil.example", "null", "http://localhost.evil.example"]) {
      const preflight = await get(links(), { origin, "access-control-request-method": "POST" }, "OPTIONS");
      expect(preflight.status, origin).toBe(403);
      expect(preflight.headers["access-control-allow-origin"]).toBeUndefined();
      const write = await get(links(), { ...auth, origin }, "POST");
      expect(write.status).toBe(403);
      expect(JSON.parse(write.body)).toMatchObject({ error: 1, message: expect.stringContaining(origin) });
    }
  });

  it("gives HTML pages (the payment page) no CORS headers, so another page cannot read its token", async () => {
    const { url } = (
      await clientsFor(sandbox.urls, sandbox.fetch)
        .pay()
        .POST("/api/createOrder/", {
          body: { currency: "RUB", amount: 3 },
        })
    ).data.data;
    const page = await get(url, { origin: "http://localhost:5173" });
    expect(page.status).toBe(200);
    expect(page.headers["access-control-allow-origin"]).toBeUndefined();
    expect(page.headers["content-security-policy"]).toBe("frame-ancestors 'none'");
  });
});

describe("the payment page", () => {
  const createOrder = async () =>
    (
      await clientsFor(sandbox.urls, sandbox.fetch)
        .pay()
        .POST("/api/createOrder/", {
          body: { currency: "RUB", amount: 10 },
        })
    ).data.data;
  const orderStatus = async (id: number) =>
    (await clientsFor(sandbox.urls, sandbox.fetch).pay().POST("/api/orders/", { body: {} })).data.data.find(
      (order) => order.id === id,
    )!.status;

  it("refuses a POST without the page's token, with another order's token, or from another origin", async () => {
    const { id, url } = await createOrder();
    const other = await readPaymentForm((await createOrder()).url);
    const form = await readPaymentForm(url);
    const post = (body: string, headers: Record<string, string> = {}) =>
      fetch(url, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
        body,
      });
    const attempts = [
      await post("action=pay"),
      await post(`action=pay&token=${other.token}`),
      await post(`action=pay&token=${form.token}`, { origin: "http://localhost:5173" }),
      await post(`action=pay&token=${form.token}`, { "sec-fetch-site": "cross-site" }),
      await post(`action=pay&token=${form.token}`, { origin: "https://evil.example" }),
    ];
    expect(attempts.map((response) => response.status)).toEqual([403, 403, 403, 403, 403]);
    expect(await orderStatus(id)).toBe(0);
    const paid = await postPaymentForm(form, "pay", {
      redirect: "manual",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        origin: new URL(url).origin,
        "sec-fetch-site": "same-origin",
      },
    });
    expect(paid.status).toBe(303);
    expect(await orderStatus(id)).toBe(1);
  });

  describe("in a real browser", () => {
    let context: BrowserContext;
    let foreign: Server;
    beforeAll(async () => {
      context = await (await workerChromium()).newContext();
      // A page of another origin that posts the payment form of an order, as a malicious site would.
      foreign = createServer((req, res) => {
        const target = new URL(req.url!, "http://x").searchParams.get("target")!;
        res.writeHead(200, { "content-type": "text/html" }).end(
          `<form id="f" method="post" action="${target}"><input name="action" value="pay"></form>
<script>document.getElementById("f").submit()</script>`,
        );
      });
      await new Promise<void>((resolve) => foreign.listen(0, "127.0.0.1", resolve));
    });
    afterAll(async () => {
      await context?.close();
      foreign?.close();
    });

    it("pays on the sandbox's own page, and a foreign page's form cannot pay", async () => {
      const page = await context.newPage();
      try {
        const attacked = await createOrder();
        const foreignUrl = `http://localhost:${(foreign.address() as AddressInfo).port}/?target=${encodeURIComponent(attacked.url)}`;
        const refused = page.waitForResponse((response) => response.request().method() === "POST");
        await page.goto(foreignUrl);
        expect((await refused).status()).toBe(403);
        expect(await orderStatus(attacked.id)).toBe(0);

        const own = await createOrder();
        await page.goto(own.url);
        await page.click('button[value="pay"]');
        await page.waitForURL(own.url);
        expect(await page.textContent("#status")).toMatch(/^Paid on /);
        expect(await orderStatus(own.id)).toBe(1);
      } finally {
        await page.close();
      }
    });
  });
});
