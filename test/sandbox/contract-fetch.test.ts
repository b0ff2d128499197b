// The contract fetch that guards every sandbox test must itself catch drift: each case below is a response that
// breaks the contract in one way, served by a fake inner fetch.
import { describe, expect, it } from "vitest";
import { loadContract } from "../../lib/contract/index.js";
import { contractFetch, ContractViolation } from "./support/contract-fetch.js";

const BASES = { links: "http://links.test", pay: "http://pay.test", identity: "http://id.test" };
const RATE = { "x-ratelimit-limit": "30", "x-ratelimit-remaining": "29", "x-ratelimit-reset": "1717232460" };

function serving(status: number, body: unknown, headers: Record<string, string> = {}) {
  return contractFetch(BASES, () =>
    Promise.resolve(
      new Response(typeof body === "string" ? body : JSON.stringify(body), {
        status,
        headers: { "content-type": "application/json", ...headers },
      }),
    ),
  );
}

describe("contract fetch", () => {
  it("passes a response the contract documents and counts it", async () => {
    const checked = serving(
      200,
      {
        error: 0,
        data: {
          id: 1,
          email: "a@example.com",
          username: "a",
          avatar: "https://x.example/a.png",
          status: "pro",
          expires: "2025-01-01 00:00:00",
          registered: "2024-01-01 00:00:00",
        },
      },
      RATE,
    );
    await checked(`${BASES.links}/api/account`);
    expect(checked.checked).toBe(1);
  });

  it.each([
    [
      "a list whose error flag is the integer 0",
      200,
      { error: 0, data: { result: 0, perpage: 10, currentpage: 1, nextpage: 1, maxpage: 1, domains: [] } },
      RATE,
      "/api/domains",
    ],
    [
      "a missing rate-limit header",
      200,
      { error: "0", data: { result: 0, perpage: 10, currentpage: 1, nextpage: 1, maxpage: 1, domains: [] } },
      { "x-ratelimit-limit": "30" },
      "/api/domains",
    ],
    ["an error outside the envelope", 404, { message: "gone" }, RATE, "/api/domain/1/delete"],
  ])("rejects %s", async (_name, status, body, headers, path) => {
    await expect(
      serving(status, body, headers)(`${BASES.links}${path}`, { method: path.endsWith("delete") ? "DELETE" : "GET" }),
    ).rejects.toBeInstanceOf(ContractViolation);
  });

  it("rejects an order without date_payed, and userinfo without iss and aud", async () => {
    const order = {
      id: 1,
      date_created: "2024-01-01 00:00:00",
      status: 1,
      payment_system_id: 4,
      currency_id: 1,
      amount: "1.00000000",
      fee: "0.03000000",
      email: "",
      test_order: 1,
      payment_id: "",
    };
    await expect(
      serving(200, { type: "success", desc: "", data: [order] })(`${BASES.pay}/api/orders/`, { method: "POST" }),
    ).rejects.toThrow(/date_payed/);
    const userinfo = loadContract("identity").operation("getUserInfo").path;
    await expect(
      serving(200, { sub: "5b8f2c4e-1a7d-4e3b-9c6f-0d2a8e7b4f91" })(`${BASES.identity}${userinfo}`),
    ).rejects.toThrow(/iss/);
  });

  it("rejects an undocumented status, a header that breaks its schema and an undocumented media type", async () => {
    const order = (status: number, body: string, headers: Record<string, string>) =>
      contractFetch(BASES, () => Promise.resolve(new Response(body, { status, headers })))(
        `${BASES.links}/api/account`,
      );
    await expect(order(200, "{}", { ...RATE, "content-type": "text/html" })).rejects.toThrow(
      /content type "text\/html" is not one of application\/json/,
    );
    await expect(order(200, "{", { ...RATE, "content-type": "application/json" })).rejects.toThrow(/not JSON/);
    await expect(
      order(200, JSON.stringify({ error: 1, message: "x" }), {
        ...RATE,
        "x-ratelimit-remaining": "many",
        "content-type": "application/json",
      }),
    ).rejects.toThrow(/header X-RateLimit-Remaining/);
    await expect(
      contractFetch(BASES, () => Promise.resolve(new Response(null, { status: 204 })))(`${BASES.pay}/api/shops/`, {
        method: "POST",
      }),
    ).rejects.toThrow(/./);
  });

  it("leaves paths outside the contracts alone", async () => {
    const checked = serving(500, "anything");
    await checked(`${BASES.pay}/_sandbox/pay/1`);
    expect(checked.checked).toBe(0);
  });
});
