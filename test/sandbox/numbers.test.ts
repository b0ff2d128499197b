// Money and other numbers at their edges, sent as raw JSON text (1e400 cannot be written with JSON.stringify):
// amounts too large for toFixed (1e21 and up), beyond the double range (1e400 reads as Infinity), with more decimals
// than the API counts, -0, and amounts whose double is not the decimal the client wrote. The sandbox refuses what
// it cannot count with a 4xx in the API's own envelope, never a 500, and keeps what it accepts exactly as written.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hmacSha256Signer } from "../../lib/pay-signature.js";
import { startTestSandbox, type TestSandbox } from "./support/sandbox.js";

let sandbox: TestSandbox;

beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterAll(() => sandbox?.stop());

let keys = 0;
/** Creates a product with one price whose amount is the given JSON text. */
async function createWithAmount(amount: string) {
  const body = `{"title":"Edge","delivery_type":"digital_instant","category_id":"pcat_8kq2m4x7","status":"published","variants":[{"title":"one","prices":[{"amount":${amount},"currency_code":"usd"}]}]}`;
  const response = await sandbox.fetch(`${sandbox.urls.catalog}/admin/seller-api/products`, {
    method: "POST",
    headers: {
      "x-seller-api-key": "demo-seller-key",
      "idempotency-key": `numbers-${keys++}`,
      "content-type": "application/json",
    },
    body,
  });
  return {
    status: response.status,
    body: (await response.json()) as { error?: string; variants?: Array<{ prices: Array<{ amount: string }> }> },
  };
}

let nonce = Date.now();
/** A signed pay request whose body is the given JSON text. */
async function signedPay(path: string, body: string) {
  const bytes = new TextEncoder().encode(body);
  const response = await sandbox.fetch(`${sandbox.urls.pay}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: await hmacSha256Signer("demo-pay-key")(bytes) },
    body: bytes,
  });
  return {
    status: response.status,
    body: (await response.json()) as { type: string; desc: string; data?: { id: number } },
  };
}

describe("catalog prices", () => {
  it.each([
    "1e21",
    "1e300",
    "1e400",
    "1000000000000.01",
    "-1e400",
    "-0.01",
    "1e-7",
    "1e-9",
    "5e-324",
    "0.30000000000000004",
    "4.999",
  ])("refuses %s with a 4xx in the catalog envelope and creates nothing", async (amount) => {
    const before = sandbox.sandbox.state.catalog.nextProduct;
    const refused = await createWithAmount(amount);
    expect(refused.status, JSON.stringify(refused.body)).toBeGreaterThanOrEqual(400);
    expect(refused.status).toBeLessThan(500);
    expect(refused.body.error).toMatch(
      /^(amount .* must be a number from 0 to 1e12 with at most two decimals|body\/variants\/0\/prices\/0\/amount (is a number too large|must be >= 0))/,
    );
    expect(sandbox.sandbox.state.catalog.nextProduct).toBe(before);
  });

  it.each([
    ["-0", "0.00"],
    ["0", "0.00"],
    ["1e12", "1000000000000.00"],
    ["999999999999.99", "999999999999.99"],
    ["1.1e1", "11.00"],
    ["4.99", "4.99"],
  ])("keeps %s as %s", async (amount, expected) => {
    const created = await createWithAmount(amount);
    expect(created.status).toBe(200);
    expect(created.body.variants?.[0]?.prices[0]?.amount).toBe(expected);
  });
});

describe("pay amounts and nonces", () => {
  it("keeps an amount as the client wrote it, not as its double's binary expansion", async () => {
    for (const [amount, expected] of [
      ["100000000000.01", "100000000000.01000000"],
      ["999999999999.99", "999999999999.99000000"],
      ["1e-7", "0.00000010"],
    ]) {
      const created = await signedPay(
        "/api/createOrder/",
        `{"shop_id":"3561","nonce":${nonce++},"currency":"RUB","amount":${amount}}`,
      );
      expect(created.status).toBe(200);
      const order = sandbox.sandbox.state.pay.orders.find((row) => row.id === created.body.data?.id);
      expect(order?.amount).toBe(expected);
    }
  });

  it("refuses amounts above 1e12 or of -0, and a nonce or page beyond the double range, in the pay envelope", async () => {
    for (const amount of ["1e21", "1e400", "-0"]) {
      const refused = await signedPay(
        "/api/createOrder/",
        `{"shop_id":"3561","nonce":${nonce++},"currency":"RUB","amount":${amount}}`,
      );
      expect(refused).toMatchObject({
        status: 400,
        body: {
          type: "error",
          desc: expect.stringMatching(/^(amount must be a number|body\/amount is a number too large)/),
        },
      });
    }
    const infiniteNonce = await signedPay(
      "/api/createOrder/",
      `{"shop_id":"3561","nonce":1e400,"currency":"RUB","amount":5}`,
    );
    expect(infiniteNonce).toMatchObject({
      status: 400,
      body: { type: "error", desc: "body/nonce is a number too large to represent (it reads as Infinity)" },
    });
    const infinitePage = await signedPay("/api/orders/", `{"shop_id":"3561","nonce":${nonce++},"page":1e400}`);
    expect(infinitePage).toMatchObject({
      status: 400,
      body: { type: "error", desc: "body/page is a number too large to represent (it reads as Infinity)" },
    });
    // Nothing unwritable was kept: the state survives a JSON round trip unchanged.
    expect(JSON.parse(JSON.stringify(sandbox.sandbox.state.pay))).toEqual(sandbox.sandbox.state.pay);
  });
});
