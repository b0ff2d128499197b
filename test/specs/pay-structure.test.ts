// The pay contract: structure, gaps, quirks' positive cases and coherent examples. Wrong payloads are in
// pay-payloads.test.ts.
import { describe, expect, it } from "vitest";
import { findOperation, listOperations, loadBundle, resolvePointer } from "../support/bundle-nodes.js";
import {
  API,
  balanceResponse,
  createdResponse,
  ERROR,
  expectValid,
  type Json,
  mutate,
  ORDER,
  ordersResponse,
  paidOrder,
  REQUEST,
  requests,
  RESPONSE,
  SHOP,
  shopsResponse,
  unpaidOrder,
} from "./support/pay.js";

describe("pay: structure", () => {
  it("has exactly the four operations on their exact paths, all POST", () => {
    const ops = listOperations(API)
      .map((op) => `${op.method} ${op.path} ${op.operationId}`)
      .sort();
    expect(ops).toEqual([
      "post /api/balance/ getBalance",
      "post /api/createOrder/ createOrder",
      "post /api/orders/ listOrders",
      "post /api/shops/ listShops",
    ]);
    expect(Object.keys(loadBundle(API).paths ?? {}).sort()).toEqual([
      "/api/balance/",
      "/api/createOrder/",
      "/api/orders/",
      "/api/shops/",
    ]);
  });

  it("declares the servers in the house order", () => {
    const servers = loadBundle(API).servers ?? [];
    expect(servers.map((s) => s.url)).toEqual(["{pay_url}", "http://127.0.0.1:4013", "http://127.0.0.1:4023"]);
    expect(servers[0]?.variables?.pay_url?.default).toBe("http://127.0.0.1:4023");
  });

  it("tags each operation once with shops, orders or balance", () => {
    const tags = Object.fromEntries(listOperations(API).map((op) => [op.operationId, op.operation.tags]));
    expect(tags).toEqual({
      listShops: ["shops"],
      listOrders: ["orders"],
      createOrder: ["orders"],
      getBalance: ["balance"],
    });
  });

  it("signs every operation with the requestSignature scheme in the Authorization header", () => {
    for (const op of listOperations(API)) {
      expect(op.operation.security, op.operationId).toEqual([{ requestSignature: [] }]);
    }
    const scheme = resolvePointer(API, "/components/securitySchemes/requestSignature");
    expect(scheme).toMatchObject({ type: "apiKey", in: "header", name: "Authorization" });
    expect(scheme["x-undocumented"].join(" ")).toMatch(/algorithm/);
    expect(scheme["x-undocumented"].join(" ")).toMatch(/secret/);
    // The contract does not state an algorithm as fact.
    expect(JSON.stringify(scheme)).not.toMatch(/HMAC|SHA-?256/i);
  });

  it("declares the Error envelope under default on every operation, with illustrative named examples", () => {
    for (const op of listOperations(API)) {
      expect(Object.keys(op.operation.responses), op.operationId).toEqual(["200", "default"]);
      expect(resolvePointer(API, `${op.pointer}/responses/200`)["x-assumption"]).toMatch(/no success status code/);
      const content = resolvePointer(API, `${op.pointer}/responses/default/content/application~1json`);
      expect(content.schema.$ref, op.operationId).toBe("#/components/schemas/ErrorEnvelope");
      const examples = resolvePointer(API, `${op.pointer}/responses/default/content/application~1json/examples`);
      expect(Object.keys(examples).sort()).toEqual(["invalidSignature", "nonceReused", "unknownShop"]);
      for (const example of Object.values<any>(examples)) expect(example.summary).toMatch(/illustrative/);
    }
  });
});

describe("pay: structure", () => {
  it("keeps every request body flat with shop_id (string) and nonce (integer) required; a reused nonce is refused", () => {
    for (const [operationId, pointer] of Object.entries(REQUEST)) {
      const schema = resolvePointer(API, pointer);
      expect(schema.required, operationId).toEqual(["shop_id", "nonce"]);
      expect(schema.additionalProperties, operationId).toBe(false);
      expect(resolvePointer(API, `${pointer}/properties/shop_id`).type).toBe("string");
      expect(resolvePointer(API, `${pointer}/properties/nonce`)).toMatchObject({ type: "integer" });
      // The seed's refusal is of a reused nonce, not of a nonce of another type: it is on the signature scheme.
      expect(resolvePointer(API, `${pointer}/properties/nonce`)["x-provider-refuses"]).toBeUndefined();
    }
    expect(resolvePointer(API, "/components/securitySchemes/requestSignature")["x-provider-refuses"]).toMatch(
      /unique for each request/,
    );
  });

  it("records every gap of the seed", () => {
    const info = loadBundle(API).info["x-undocumented"] as string[];
    expect(info).toHaveLength(9);
    const text = info.join("\n");
    for (const topic of [
      /signature algorithm and the signing secret/,
      /values of the envelope field type on failure/,
      /HTTP status codes/,
      /Payment notifications/,
      /Rate limits/,
      /page size of the order list/,
      /transitions/,
      /payment_system.*currency_id/,
      /Versioning/,
    ]) {
      expect(text).toMatch(topic);
    }
    const schemas = (name: string) => resolvePointer(API, `/components/schemas/${name}`)["x-undocumented"].join("\n");
    expect(findOperation(API, "createOrder").operation["x-undocumented"].join("\n")).toMatch(/required/);
    expect(findOperation(API, "listOrders").operation["x-undocumented"].join("\n")).toMatch(/page size/);
    expect(schemas("OrderFields")).toMatch(/Further keys of fields/);
    expect(schemas("Receipt")).toMatch(/Further keys of receipt/);
    expect(schemas("ErrorEnvelope")).toMatch(/values of type on failure/);
    expect(resolvePointer(API, `${ORDER}/properties/status`)["x-undocumented"].join("")).toMatch(/meaning/);
    expect(resolvePointer(API, `${ORDER}/properties/currency_id`)["x-undocumented"].join("")).toMatch(/currency_id/);
    expect(resolvePointer(API, `${ORDER}/properties/payment_system_id`)["x-undocumented"].join("")).toMatch(
      /payment_system_id/,
    );
    expect(resolvePointer(API, `${SHOP}/properties/status`)["x-undocumented"].join("")).toMatch(/meaning/);
  });

  it("marks the quirks where they live", () => {
    const quirk = (pointer: string) => resolvePointer(API, pointer)["x-quirk"];
    for (const pointer of [
      "/components/schemas/Decimal8",
      "/components/schemas/Decimal2",
      "/components/schemas/OrderFields",
      "/components/schemas/Receipt",
      `${ORDER}/properties/date_payed`,
      `${ORDER}/properties/test_order`,
      "/components/schemas/ListOrdersResponse/properties/data",
    ]) {
      expect(quirk(pointer), pointer).toMatch(/\.$/);
    }
  });
});

describe("pay: examples are coherent", () => {
  it("uses shop ids of the shop list in every request, as strings", () => {
    const shopIds = shopsResponse.data.shops.map((s: Json) => String(s.id));
    for (const body of Object.values(requests)) expect(shopIds).toContain(body.shop_id);
  });

  it("uses strictly increasing nonces", () => {
    const nonces = [requests.listShops, requests.listOrders, requests.createOrder, requests.getBalance].map(
      (b) => b.nonce,
    );
    expect([...nonces].sort((a, b) => a - b)).toEqual(nonces);
    expect(new Set(nonces).size).toBe(nonces.length);
  });

  it("returns from createOrder the id of an order in the list, carrying order_id as payment_id", () => {
    const order = ordersResponse.data.find((o: Json) => o.id === createdResponse.data.id);
    expect(order).toBeDefined();
    expect(order.payment_id).toBe(requests.createOrder.order_id);
    expect(Number(order.amount)).toBe(requests.createOrder.amount);
  });

  it("uses one user_id across shops and balance", () => {
    expect(shopsResponse.data.user_id).toBe(balanceResponse.data.user_id);
  });
});

describe("pay: quirks, positive cases", () => {
  it("accepts an unpaid order (status 0, date_payed null) and a paid one (status 1, timestamp)", () => {
    expect(unpaidOrder).toMatchObject({ status: 0, date_payed: null });
    expect(paidOrder.status).toBe(1);
    expectValid(ORDER, unpaidOrder);
    expectValid(ORDER, paidOrder);
  });

  it("leaves status values other than 0 and 1 unconstrained, with either date_payed", () => {
    expectValid(
      ORDER,
      mutate(paidOrder, (o) => (o.status = 2)),
    );
    expectValid(
      ORDER,
      mutate(unpaidOrder, (o) => (o.status = 2)),
    );
  });

  it("accepts negative decimals and any currency code in the balance map", () => {
    expectValid(
      ORDER,
      mutate(paidOrder, (o) => (o.fee = "-45.00000000")),
    );
    expectValid(
      RESPONSE.getBalance,
      mutate(balanceResponse, (b) => (b.data.balance.KZT = "-3.10")),
    );
  });

  it("keeps fields and receipt open objects (further keys are not shown)", () => {
    expectValid(
      REQUEST.createOrder,
      mutate(requests.createOrder, (b) => (b.fields.name = "Ivan")),
    );
    expectValid(
      REQUEST.createOrder,
      mutate(requests.createOrder, (b) => (b.receipt.total = 2490)),
    );
  });

  it("requires only shop_id and nonce on createOrder", () => {
    expectValid(REQUEST.createOrder, { shop_id: "3561", nonce: 1709391600005 });
  });

  it("accepts an error envelope without data, and with data of any shape", () => {
    expectValid(ERROR, { type: "error", desc: "Invalid signature" });
    expectValid(ERROR, { type: "error", desc: "Invalid signature", data: [1, "x", null] });
  });
});
