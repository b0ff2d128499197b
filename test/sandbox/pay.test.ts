// The payment gateway of the sandbox through the generated client: signed requests with fresh nonces, an order
// created, paid on the sandbox payment page (a plain HTML form) and then listed with status 1 and date_payed, the
// balance moved by amount minus fee; bad signatures and reused nonces refused in the {type, desc} envelope.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hmacSha256Signer, PayApiError } from "../../clients/pay.js";
import { invalidRequestStatus, loadContract } from "../../lib/contract/index.js";
import { clientsFor } from "./support/clients.js";
import { startTestSandbox, type TestSandbox } from "./support/sandbox.js";
import { postPaymentForm, readPaymentForm } from "./support/pay-page.js";

let sandbox: TestSandbox;
let pay: ReturnType<ReturnType<typeof clientsFor>["pay"]>;

beforeAll(async () => {
  sandbox = await startTestSandbox();
  pay = clientsFor(sandbox.urls, sandbox.fetch).pay();
});
afterAll(() => sandbox?.stop());

/** Sends a body signed with the demo key of shop 3561, exactly as given. */
async function signedPost(path: string, body: Record<string, unknown>, signWith = "demo-pay-key") {
  const bytes = new TextEncoder().encode(JSON.stringify(body));
  const response = await sandbox.fetch(`${sandbox.urls.pay}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: await hmacSha256Signer(signWith)(bytes) },
    body: bytes,
  });
  return { status: response.status, body: (await response.json()) as { type: string; desc: string; data?: any } };
}

describe("pay sandbox: values it refuses", () => {
  it("refuses a currency named after an Object.prototype member and an amount that rounds to 0; the order list stays valid", async () => {
    const create = (body: { currency: string; amount: number }) => pay.POST("/api/createOrder/", { body });
    for (const currency of ["constructor", "__proto__", "toString"]) {
      await expect(create({ currency, amount: 5 })).rejects.toMatchObject({
        name: "PayApiError",
        status: 400,
        desc: expect.stringMatching(/^currency must be one of RUB/),
      });
    }
    for (const amount of [1e-9, 5e-324]) {
      await expect(create({ currency: "RUB", amount })).rejects.toMatchObject({
        name: "PayApiError",
        status: 400,
        desc: expect.stringMatching(/^amount must be/),
      });
    }
    expect((await create({ currency: "RUB", amount: 1e-8 })).data.data.id).toBeGreaterThan(0); // the gateway's smallest unit
    // Every order in the list has its currency_id (sandbox.fetch checks the list against the contract too).
    expect(
      (await pay.POST("/api/orders/", { body: { page: 1 } })).data.data.every(
        (order) => typeof order.currency_id === "number",
      ),
    ).toBe(true);
  });
});

describe("pay sandbox", () => {
  it("lists the shops and balances of the contract's examples", async () => {
    const shops = await pay.POST("/api/shops/", { body: {} });
    expect(shops.data?.data.user_id).toBe(18452);
    expect(shops.data?.data.shops.map((s) => s.id)).toEqual([3561, 3562]);
    const balance = await pay.POST("/api/balance/", { body: {} });
    expect(balance.data?.data.balance).toEqual({ RUB: "12840.50", USD: "0.00", EUR: "15.20" });
  });

  it("creates an order, pays it on the payment page, and lists it as paid with the balance moved", async () => {
    const created = await pay.POST("/api/createOrder/", {
      body: {
        currency: "RUB",
        amount: 1000.5,
        order_id: "T-1",
        payment_system: 4,
        fields: { email: "buyer@example.com" },
        receipt: { items: [{ name: "Card", count: 1, price: 1000.5 }] },
      },
    });
    const { id, url } = created.data.data;
    expect(url).toBe(`${sandbox.urls.pay}/_sandbox/pay/${id}`);

    const before = (await pay.POST("/api/orders/", { body: { page: 1 } })).data.data.find((o) => o.id === id)!;
    expect(before).toMatchObject({
      status: 0,
      date_payed: null,
      amount: "1000.50000000",
      fee: "30.01500000",
      email: "buyer@example.com",
      payment_id: "T-1",
      test_order: 1,
    });

    const pageHtml = await (await fetch(url)).text();
    expect(pageHtml).toContain('<button type="submit" name="action" value="pay">');
    expect(pageHtml).toContain('value="cancel"');
    const form = await readPaymentForm(url);
    const paid = await postPaymentForm(form, "pay", { redirect: "manual" });
    expect(paid.status).toBe(303);
    expect(await (await fetch(url)).text()).toMatch(/Paid on \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/);

    const after = (await pay.POST("/api/orders/", { body: { page: 1 } })).data.data.find((o) => o.id === id)!;
    expect(after.status).toBe(1);
    expect(after.date_payed).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    // 1000.50 - 30.015 = 970.485 → 970.49 (half away from zero); 12840.50 + 970.49
    expect((await pay.POST("/api/balance/", { body: {} })).data?.data.balance.RUB).toBe("13810.99");

    const again = await postPaymentForm(form, "pay");
    expect(again.status).toBe(409);
  });

  it("a cancelled order stays unpaid and cannot be paid", async () => {
    const { id, url } = (await pay.POST("/api/createOrder/", { body: { currency: "USD", amount: 5 } })).data.data;
    const form = await readPaymentForm(url);
    expect((await postPaymentForm(form, "cancel", { redirect: "manual" })).status).toBe(303);
    expect(await (await fetch(url)).text()).toContain("The payment was cancelled.");
    expect((await postPaymentForm(form, "pay")).status).toBe(409);
    const order = (await pay.POST("/api/orders/", { body: {} })).data.data.find((o) => o.id === id);
    expect(order).toMatchObject({ status: 0, date_payed: null });
  });

  it("pages the order list, newest first, and answers an empty page past the end", async () => {
    const firstPage = (await pay.POST("/api/orders/", { body: { page: 1 } })).data.data;
    expect(firstPage.map((o) => o.id)).toEqual([...firstPage.map((o) => o.id)].sort((a, b) => b - a));
    expect((await pay.POST("/api/orders/", { body: { page: 99 } })).data.data).toEqual([]);
    const otherShop = clientsFor(sandbox.urls, sandbox.fetch).pay("3562", "demo-pay-key-3562");
    expect((await otherShop.POST("/api/orders/", { body: {} })).data.data).toEqual([]);
  });

  it("refuses a wrong signature, a reused nonce, a stale nonce and an unknown shop", async () => {
    const nonce = Date.now() * 1000 + 999_999;
    const wrongKey = await signedPost("/api/shops/", { shop_id: "3561", nonce }, "not-the-key");
    expect(wrongKey).toMatchObject({ status: 401, body: { type: "error", desc: "Invalid signature" } });

    expect((await signedPost("/api/shops/", { shop_id: "3561", nonce })).body.type).toBe("success");
    const reused = await signedPost("/api/shops/", { shop_id: "3561", nonce });
    expect(reused).toMatchObject({ status: 409, body: { type: "error", desc: expect.stringMatching(/unique/) } });

    for (let i = 1; i <= 64; i++) await signedPost("/api/balance/", { shop_id: "3561", nonce: nonce + i });
    const stale = await signedPost("/api/balance/", { shop_id: "3561", nonce: 1 });
    expect(stale).toMatchObject({ status: 409, body: { desc: expect.stringMatching(/older/) } });

    expect(await signedPost("/api/shops/", { shop_id: "9999", nonce: nonce + 100 })).toMatchObject({
      status: 404,
      body: { desc: "Shop not found" },
    });
  });

  it("refuses what the contract does not allow, and the client surfaces it as PayApiError", async () => {
    const invalid = await signedPost("/api/orders/", { shop_id: "3561", nonce: 5, page: 0, extra: true });
    expect(invalid.status).toBe(invalidRequestStatus(loadContract("pay").operation("listOrders"))); // as the mock answers
    expect(invalid.body.desc).toMatch(/page must be >= 1/);
    expect(invalid.body.desc).toMatch(/additional property "extra"/);
    await expect(pay.POST("/api/createOrder/", { body: { currency: "XXX", amount: 1 } })).rejects.toThrow(PayApiError);
    expect(sandbox.fetch.checked).toBeGreaterThan(10);
  });
});
