// The links client against a local server that enforces a fixed-window rate limit the way a live deployment would:
// the limiter waits instead of being refused, honours maxWaitMs, onRateLimit and the call's AbortSignal.
import { describe, expect, it } from "vitest";
import { createLinksClient, LinksApiError, RateLimitError, type RateLimitWait } from "../../clients/links.js";
import { sendJson } from "../support/http.js";
import { ACCOUNT, LINKS_KEY, serve } from "./support.js";

// A fixed window of LIMIT requests per WINDOW_MS, announced in the headers, refusing anything beyond. Each test
// gets a server of its own, so that its first request opens a fresh window (no sleeping until the last test's
// window is over) and the tests wait for their resets side by side.
const LIMIT = 3;
const WINDOW_MS = 1000;

async function rateLimitedServer(): Promise<{ url: string; refused: number; served: number }> {
  let windowStart = 0;
  let count = 0;
  const server = { url: "", refused: 0, served: 0 };
  server.url = await serve((_request, _body, response) => {
    const now = Date.now();
    if (now >= windowStart + WINDOW_MS) {
      windowStart = now;
      count = 0;
    }
    count += 1;
    const headers = {
      "X-RateLimit-Limit": LIMIT,
      "X-RateLimit-Remaining": Math.max(0, LIMIT - count),
      "X-RateLimit-Reset": Math.ceil((windowStart + WINDOW_MS) / 1000),
    };
    if (count > LIMIT) {
      server.refused += 1;
      return sendJson(response, 429, { error: 1, message: "Rate limit exceeded" }, headers);
    }
    server.served += 1;
    sendJson(response, 200, ACCOUNT, headers);
  });
  return server;
}

/** A client whose window is used up: LIMIT calls made in the fresh window of a server of its own. */
async function exhaustedClient(rateLimit: Parameters<typeof createLinksClient>[0]["rateLimit"]) {
  const server = await rateLimitedServer();
  const links = createLinksClient({ baseUrl: server.url, apiKey: LINKS_KEY, rateLimit });
  for (let i = 0; i < LIMIT; i++) await links.GET("/api/account");
  return { links, server };
}

describe.concurrent("links rate limiting", () => {
  it("the server really refuses a burst beyond the cap (raw fetch)", async ({ expect }) => {
    const server = await rateLimitedServer();
    await Promise.all(
      Array.from({ length: LIMIT + 3 }, () => fetch(`${server.url}/api/account`).then((r) => r.arrayBuffer())),
    );
    expect(server.refused).toBeGreaterThan(0);
  });

  it("the client waits for the reset instead of being refused", async ({ expect }) => {
    const server = await rateLimitedServer();
    const links = createLinksClient({ baseUrl: server.url, apiKey: LINKS_KEY });
    const results = await Promise.all(Array.from({ length: 2 * LIMIT + 1 }, () => links.GET("/api/account")));
    expect(results.every((r) => r.data?.data.id === 1)).toBe(true);
    expect(server.served).toBe(2 * LIMIT + 1);
    expect(server.refused).toBe(0);
  });
});

describe.concurrent("links rate limiting: the caller's bounds (onRateLimit, maxWaitMs, AbortSignal)", () => {
  it("reports each wait to onRateLimit before it starts, and fails the call when it returns false", async ({
    expect,
  }) => {
    const waits: RateLimitWait[] = [];
    const { links } = await exhaustedClient({ onRateLimit: (wait) => void waits.push(wait) });
    const started = Date.now();
    await links.GET("/api/account");
    expect(waits).toHaveLength(1);
    expect(waits[0]!.limit).toBe(LIMIT);
    expect(waits[0]!.waitMs).toBeGreaterThan(0);
    expect(Date.now() - started).toBeGreaterThanOrEqual(waits[0]!.waitMs - 50);

    const refusing = await exhaustedClient({ onRateLimit: () => false });
    refusing.server.served = 0;
    const error = await refusing.links.GET("/api/account").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).message).toContain("onRateLimit returned false");
    expect(refusing.server.served).toBe(0);
  });

  it("fails at once instead of waiting longer than maxWaitMs", async ({ expect }) => {
    const { links, server } = await exhaustedClient({ maxWaitMs: 10 });
    server.served = 0;
    const started = Date.now();
    const error = await links.GET("/api/account").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    const { waitMs } = (error as RateLimitError).wait;
    expect(waitMs).toBeGreaterThan(10);
    // Not a speed bound (a busy machine may take 100 ms to get here): it did not wait out the window it refused, and
    // sent nothing.
    expect(Date.now() - started).toBeLessThan(waitMs);
    expect(server.served).toBe(0);
  });

  it("stops waiting when the call's AbortSignal aborts, and sends nothing", async ({ expect }) => {
    const { links, server } = await exhaustedClient(true);
    server.served = 0;
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error("user navigated away")), 20);
    const started = Date.now();
    const error = await links.GET("/api/account", { signal: controller.signal }).catch((e: unknown) => e);
    expect((error as Error).message).toBe("user navigated away");
    expect(Date.now() - started).toBeLessThan(200);
    expect(server.served).toBe(0);
    // The aborted call left no slot taken: the next one goes after the reset.
    expect((await links.GET("/api/account")).data?.data.id).toBe(1);
  });
});

describe("links error envelope (openapi-fetch middleware)", () => {
  it("hands on the checked response whole: parsed data, status, headers, url and a body that can still be read", async () => {
    const url = await serve((request, _body, response) =>
      request.url === "/api/account"
        ? sendJson(response, 200, ACCOUNT, { "X-Request-Id": "r-1" })
        : sendJson(response, 200, { error: 1, message: "Domain not found" }),
    );
    const links = createLinksClient({ baseUrl: url, apiKey: LINKS_KEY, rateLimit: false });
    const { data, response } = await links.GET("/api/account");
    expect(data).toEqual(ACCOUNT);
    expect(response).toMatchObject({ status: 200, ok: true, url: `${url}/api/account` });
    expect(response.headers.get("X-Request-Id")).toBe("r-1");
    expect(await response.clone().json()).toEqual(ACCOUNT);
    const again: unknown = await response.json();
    expect(again).toEqual(ACCOUNT);
    expect(again).not.toBe(data); // each reader gets its own value, as from an unread response
    expect(JSON.parse(new TextDecoder().decode(await response.arrayBuffer()))).toEqual(ACCOUNT);
    const refused = await links
      .DELETE("/api/domain/{id}/delete", { params: { path: { id: 7 } } })
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(LinksApiError);
    expect(refused).toMatchObject({
      status: 200,
      operation: "DELETE /api/domain/7/delete",
      body: { error: 1, message: "Domain not found" },
    });
  });
});
