// The links API of the sandbox through the generated client: real state (create → list → update → delete → gone),
// pagination, the envelope quirks, and the per-key limit of 30 requests per minute with its three headers. Every
// response is checked against specs/links.yaml by the contract fetch.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LinksApiError } from "../../clients/links.js";
import { clientsFor } from "./support/clients.js";
import { startTestSandbox, type TestSandbox } from "./support/sandbox.js";

let sandbox: TestSandbox;
let links: ReturnType<ReturnType<typeof clientsFor>["links"]>;

beforeAll(async () => {
  sandbox = await startTestSandbox({ rateLimit: false });
  links = clientsFor(sandbox.urls, sandbox.fetch).links();
});
afterAll(() => sandbox?.stop());

describe("links sandbox", () => {
  it("starts with the demo account of the contract's examples", async () => {
    const { data } = await links.GET("/api/account");
    expect(data?.data).toMatchObject({ id: 1, username: "demo", email: "demo@example.com" });
  });

  it("creates, lists, updates and deletes a domain, which is then gone", async () => {
    const created = await links.POST("/api/domain/add", {
      body: { domain: "https://sandbox.example.net", redirectroot: "https://example.net" },
    });
    const id = created.data.id;
    expect(id).toBeGreaterThan(102);

    const listed = await links.GET("/api/domains", { params: { query: { limit: 50 } } });
    expect(listed.data?.error).toBe("0"); // the list quirk: a string
    expect(listed.data?.data.domains).toContainEqual({
      id,
      domain: "https://sandbox.example.net",
      redirectroot: "https://example.net",
      redirect404: "https://sandbox.example.net",
    });

    await links.PUT("/api/domain/{id}/update", {
      params: { path: { id } },
      body: { redirect404: "https://example.net/404" },
    });
    const updated = await links.GET("/api/domains", { params: { query: { limit: 50 } } });
    expect(updated.data?.data.domains.find((d) => d.id === id)?.redirect404).toBe("https://example.net/404");

    const deleted = await links.DELETE("/api/domain/{id}/delete", { params: { path: { id } } });
    expect(deleted.data).toMatchObject({ error: 0 });
    const after = await links.GET("/api/domains", { params: { query: { limit: 50 } } });
    expect(after.data?.data.domains.map((d) => d.id)).not.toContain(id);
    await expect(links.DELETE("/api/domain/{id}/delete", { params: { path: { id } } })).rejects.toThrow(LinksApiError);
  });

  it("returns the campaign name under `domain` and rotator false without a slug", async () => {
    const plain = await links.POST("/api/campaign/add", { body: { name: "Autumn", public: true } });
    expect(plain.data).toMatchObject({ error: 0, domain: "Autumn", public: true, rotator: false });
    expect(plain.data).not.toHaveProperty("name");

    const id = plain.data.id;
    const renamed = await links.PUT("/api/campaign/{id}/update", {
      params: { path: { id } },
      body: { name: "Autumn 2024", slug: "autumn" },
    });
    expect(renamed.data).toMatchObject({ id, domain: "Autumn 2024", rotator: "https://go.example.com/r/autumn" });

    const listed = await links.GET("/api/campaigns", { params: { query: { limit: 50 } } });
    expect(listed.data?.data.campaigns.find((c) => c.id === id)).toMatchObject({
      name: "Autumn 2024",
      rotator: "https://go.example.com/r/autumn",
    });

    await links.POST("/api/campaign/{campaignid}/assign/{linkid}", {
      params: { path: { campaignid: id, linkid: 5001 } },
    });
    await expect(
      links.POST("/api/campaign/{campaignid}/assign/{linkid}", {
        params: { path: { campaignid: id, linkid: 999999 } },
      }),
    ).rejects.toThrow(/does not exist/);

    await links.DELETE("/api/campaign/{id}/delete", { params: { path: { id } } });
    await expect(
      links.PUT("/api/campaign/{id}/update", { params: { path: { id } }, body: { name: "x" } }),
    ).rejects.toThrow(LinksApiError);
  });

  it("pages through lists with perpage, currentpage, nextpage and maxpage", async () => {
    for (const name of ["Work", "Travel", "Music"]) await links.POST("/api/channel/add", { body: { name } });
    const first = await links.GET("/api/channels", { params: { query: { limit: 2, page: 1 } } });
    expect(first.data?.data).toMatchObject({ result: 5, perpage: 2, currentpage: 1, nextpage: 2, maxpage: 3 });
    const last = await links.GET("/api/channels", { params: { query: { limit: 2, page: 3 } } });
    expect(last.data?.data).toMatchObject({ currentpage: 3, nextpage: 3, maxpage: 3 });
    expect(last.data?.data.channels.map((c) => c.name)).toEqual(["Music"]);
    expect(last.data?.data.channels[0]).toMatchObject({ description: "", starred: false });

    const items = await links.GET("/api/channel/{id}", { params: { path: { id: 301 }, query: { limit: 1, page: 2 } } });
    expect(items.data?.data.items).toEqual([expect.objectContaining({ id: 6001, type: "bio" })]);
    await expect(links.GET("/api/channel/{id}", { params: { path: { id: 999 } } })).rejects.toThrow(
      /Channel 999 does not exist/,
    );
  });
});

describe("links sandbox: CORS and keys", () => {
  it("lets a frontend on another origin call it (CORS)", async () => {
    const origin = "http://localhost:5173";
    const preflight = await fetch(`${sandbox.urls.links}/api/domain/add`, {
      method: "OPTIONS",
      headers: {
        origin,
        "access-control-request-method": "POST",
        "access-control-request-headers": "authorization, content-type",
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe(origin);
    expect(preflight.headers.get("access-control-allow-headers")).toBe("authorization, content-type");
    const response = await sandbox.fetch(`${sandbox.urls.links}/api/account`, {
      headers: { origin, authorization: "Bearer demo-links-key" },
    });
    expect(response.headers.get("access-control-allow-origin")).toBe(origin);
    expect(response.headers.get("access-control-expose-headers")).toContain("x-ratelimit-remaining");
  });

  it("updates the account and refuses a missing or expired key in the envelope", async () => {
    await links.PUT("/api/account/update", { body: { email: "demo.user@example.com" } });
    expect((await links.GET("/api/account")).data?.data.email).toBe("demo.user@example.com");

    const expired = await sandbox.fetch(`${sandbox.urls.links}/api/account`, {
      headers: { authorization: "Bearer expired-links-key" },
    });
    expect(expired.status).toBe(401);
    expect(await expired.json()).toEqual({ error: 1, message: "The API key has expired." });
    const missing = await sandbox.fetch(`${sandbox.urls.links}/api/account`);
    expect(await missing.json()).toMatchObject({ error: 1 });
  });
});

describe("links rate limit", () => {
  let limited: TestSandbox;
  beforeAll(async () => {
    limited = await startTestSandbox();
  });
  afterAll(() => limited?.stop());

  it("allows 30 requests per minute per key and refuses the 31st with the three headers", async () => {
    const call = (key: string) =>
      limited.fetch(`${limited.urls.links}/api/account`, { headers: { authorization: `Bearer ${key}` } });
    const statuses: number[] = [];
    let last: Response | undefined;
    for (let i = 0; i < 30; i++) {
      last = await call("demo-links-key");
      statuses.push(last.status);
    }
    expect(statuses.every((s) => s === 200)).toBe(true);
    expect(last!.headers.get("x-ratelimit-limit")).toBe("30");
    expect(last!.headers.get("x-ratelimit-remaining")).toBe("0");
    const reset = Number(last!.headers.get("x-ratelimit-reset"));
    expect(reset).toBeGreaterThan(Date.now() / 1000);
    expect(reset).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000) + 60);

    const refused = await call("demo-links-key");
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject({ error: 1, message: expect.stringMatching(/rate limit/i) });
    expect(refused.headers.get("x-ratelimit-remaining")).toBe("0");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);

    // The window is per key: another key is unaffected.
    expect((await call("expired-links-key")).headers.get("x-ratelimit-remaining")).toBe("29");
  });
});

describe("links rate limit, configured", () => {
  let custom: TestSandbox;
  beforeAll(async () => {
    custom = await startTestSandbox({ rateLimit: { limit: 2, windowSeconds: 1 } });
  });
  afterAll(() => custom?.stop());

  it("uses the configured window and opens a new one when it has passed", async () => {
    const call = () =>
      custom.fetch(`${custom.urls.links}/api/account`, { headers: { authorization: "Bearer demo-links-key" } });
    expect([(await call()).status, (await call()).status, (await call()).status]).toEqual([200, 200, 429]);
    const reset = Number((await call()).headers.get("x-ratelimit-reset"));
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, reset * 1000 - Date.now()) + 50));
    const fresh = await call();
    expect(fresh.status).toBe(200);
    expect(fresh.headers.get("x-ratelimit-remaining")).toBe("1");
  });
});
