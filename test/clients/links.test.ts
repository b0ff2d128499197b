// The links client against a local server that enforces a fixed-window rate limit the way a live deployment would:
// the limiter waits instead of being refused, honours maxWaitMs, onRateLimit and the call's AbortSignal.
import { beforeAll, describe, expect, it } from "vitest";
import { createLinksClient, LinksApiError, RateLimitError, type RateLimitWait } from "../../clients/links.js";
import { sendJson } from "../support/http.js";
import { ACCOUNT, LINKS_KEY, serve } from "./support.js";

// A fixed window of LIMIT requests per WINDOW_MS, announced in the headers, refusing anything beyond.
const LIMIT = 3;
const WINDOW_MS = 1000;
let windowStart = 0;
let count = 0;
let refused = 0;
let served = 0;
let url = "";

beforeAll(async () => {
  url = await serve((_request, _body, response) => {
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
      refused += 1;
      return sendJson(response, 429, { error: 1, message: "Rate limit exceeded" }, headers);
    }
    served += 1;
    sendJson(response, 200, ACCOUNT, headers);
  });
});

/** A client whose window is used up: LIMIT calls made in a fresh window. */
async function exhaustedClient(rateLimit: Parameters<typeof createLinksClient>[0]["rateLimit"]) {
  await new Promise((resolve) => setTimeout(resolve, WINDOW_MS));
  const links = createLinksClient({ baseUrl: url, apiKey: LINKS_KEY, rateLimit });
  for (let i = 0; i < LIMIT; i++) await links.GET("/api/account");
  return links;
}

describe("links rate limiting", () => {
  it("the server really refuses a burst beyond the cap (raw fetch)", async () => {
    windowStart = 0;
    refused = 0;
    await Promise.all(Array.from({ length: LIMIT + 3 }, () => fetch(`${url}/api/account`).then((r) => r.arrayBuffer())));
    expect(refused).toBeGreaterThan(0);
  });

  it("the client waits for the reset instead of being refused", async () => {
    await new Promise((resolve) => setTimeout(resolve, WINDOW_MS)); // start from a fresh window
    refused = 0;
    served = 0;
    const links = createLinksClient({ baseUrl: url, apiKey: LINKS_KEY });
    const results = await Promise.all(Array.from({ length: 2 * LIMIT + 1 }, () => links.GET("/api/account")));
    expect(results.every((r) => r.data?.data.id === 1)).toBe(true);
    expect(served).toBe(2 * LIMIT + 1);
    expect(refused).toBe(0);
  });

});

describe("links rate limiting: the caller's bounds (onRateLimit, maxWaitMs, AbortSignal)", () => {
  it("reports each wait to onRateLimit before it starts, and fails the call when it returns false", async () => {
    const waits: RateLimitWait[] = [];
    const links = await exhaustedClient({ onRateLimit: (wait) => void waits.push(wait) });
    const started = Date.now();
    await links.GET("/api/account");
    expect(waits).toHaveLength(1);
    expect(waits[0]!.limit).toBe(LIMIT);
    expect(waits[0]!.waitMs).toBeGreaterThan(0);
    expect(Date.now() - started).toBeGreaterThanOrEqual(waits[0]!.waitMs - 50);

    const refusing = await exhaustedClient({ onRateLimit: () => false });
    served = 0;
    const error = await refusing.GET("/api/account").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).message).toContain("onRateLimit returned false");
    expect(served).toBe(0);
  });

  it("fails at once instead of waiting longer than maxWaitMs", async () => {
    const links = await exhaustedClient({ maxWaitMs: 10 });
    const started = Date.now();
    const error = await links.GET("/api/account").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).wait.waitMs).toBeGreaterThan(10);
    expect(Date.now() - started).toBeLessThan(100);
  });

  it("stops waiting when the call's AbortSignal aborts, and sends nothing", async () => {
    const links = await exhaustedClient(true);
    served = 0;
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error("user navigated away")), 20);
    const started = Date.now();
    const error = await links.GET("/api/account", { signal: controller.signal }).catch((e: unknown) => e);
    expect((error as Error).message).toBe("user navigated away");
    expect(Date.now() - started).toBeLessThan(200);
    expect(served).toBe(0);
    // The aborted call left no slot taken: the next one goes after the reset.
    expect((await links.GET("/api/account")).data?.data.id).toBe(1);
  });
});

describe("links error envelope (openapi-fetch middleware)", () => {
  it("hands on the checked response whole: parsed data, status, headers, url and a body that can still be read", async () => {
    const url = await serve((request, _body, response) =>
      request.url === "/api/account" ? sendJson(response, 200, ACCOUNT, { "X-Request-Id": "r-1" }) : sendJson(response, 200, { error: 1, message: "Domain not found" }),
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
    const refused = await links.DELETE("/api/domain/{id}/delete", { params: { path: { id: 7 } } }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(LinksApiError);
    expect(refused).toMatchObject({ status: 200, operation: "DELETE /api/domain/7/delete", body: { error: 1, message: "Domain not found" } });
  });
});
