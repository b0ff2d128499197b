// The pay contract: structure, quirks and gaps. Every wrong payload is a valid example with exactly one change,
// so each rejection below is caused by the quirk or rule under test and nothing else.
import { describe, expect, it } from "vitest";
import {
  describeErrors,
  findOperation,
  listOperations,
  loadBundle,
  requestSchemaPointer,
  resolvePointer,
  responseSchemaPointer,
  validateAt,
} from "../../lib/openapi.js";

const API = "pay" as const;

type Json = any;

/** The value of a named example of a request body. */
function requestExample(operationId: string, name: string): Json {
  const op = findOperation(API, operationId);
  return structuredClone(resolvePointer(API, `${op.pointer}/requestBody/content/application~1json/examples/${name}`).value);
}

/** The value of a named example of a response body. */
function responseExample(operationId: string, status: string, name: string): Json {
  const op = findOperation(API, operationId);
  return structuredClone(resolvePointer(API, `${op.pointer}/responses/${status}/content/application~1json/examples/${name}`).value);
}

function expectValid(pointer: string, data: unknown): void {
  const result = validateAt(API, pointer, data);
  expect(result.valid, describeErrors(result.errors)).toBe(true);
}

function expectInvalid(pointer: string, data: unknown): void {
  expect(validateAt(API, pointer, data).valid).toBe(false);
}

/** Derives a payload from `base` by one mutation and returns it. */
function mutate<T>(base: T, change: (copy: any) => void): T {
  const copy = structuredClone(base);
  change(copy);
  return copy;
}

const REQUEST = {
  listShops: requestSchemaPointer(API, "listShops"),
  listOrders: requestSchemaPointer(API, "listOrders"),
  createOrder: requestSchemaPointer(API, "createOrder"),
  getBalance: requestSchemaPointer(API, "getBalance"),
};
const RESPONSE = {
  listShops: responseSchemaPointer(API, "listShops", "200"),
  listOrders: responseSchemaPointer(API, "listOrders", "200"),
  createOrder: responseSchemaPointer(API, "createOrder", "200"),
  getBalance: responseSchemaPointer(API, "getBalance", "200"),
};
const ERROR = "/components/schemas/Error";
const ORDER = "/components/schemas/Order";
const SHOP = "/components/schemas/Shop";

const shopsResponse = responseExample("listShops", "200", "twoShops");
const ordersResponse = responseExample("listOrders", "200", "paidAndUnpaidOrders");
const createdResponse = responseExample("createOrder", "200", "orderCreated");
const balanceResponse = responseExample("getBalance", "200", "balances");
const paidOrder = ordersResponse.data[0];
const unpaidOrder = ordersResponse.data[1];
const requests = {
  listShops: requestExample("listShops", "listShops"),
  listOrders: requestExample("listOrders", "firstPage"),
  createOrder: requestExample("createOrder", "orderWithReceipt"),
  getBalance: requestExample("getBalance", "balance"),
};

describe("pay: structure", () => {
  it("has exactly the four operations on their exact paths, all POST", () => {
    const ops = listOperations(API).map((op) => `${op.method} ${op.path} ${op.operationId}`).sort();
    expect(ops).toEqual([
      "post /api/balance/ getBalance",
      "post /api/createOrder/ createOrder",
      "post /api/orders/ listOrders",
      "post /api/shops/ listShops",
    ]);
    expect(Object.keys(loadBundle(API).paths ?? {}).sort()).toEqual(["/api/balance/", "/api/createOrder/", "/api/orders/", "/api/shops/"]);
  });

  it("declares the servers in the house order", () => {
    const servers = loadBundle(API).servers ?? [];
    expect(servers.map((s) => s.url)).toEqual(["http://127.0.0.1:4013", "http://127.0.0.1:4023", "{pay_url}"]);
    expect(servers[2]?.variables?.pay_url?.default).toBe("http://127.0.0.1:4023");
  });

  it("tags each operation once with shops, orders or balance", () => {
    const tags = Object.fromEntries(listOperations(API).map((op) => [op.operationId, op.operation.tags]));
    expect(tags).toEqual({ listShops: ["shops"], listOrders: ["orders"], createOrder: ["orders"], getBalance: ["balance"] });
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
      const content = resolvePointer(API, `${op.pointer}/responses/default/content/application~1json`);
      expect(content.schema.$ref, op.operationId).toBe("#/components/schemas/Error");
      const examples = resolvePointer(API, `${op.pointer}/responses/default/content/application~1json/examples`);
      expect(Object.keys(examples).sort()).toEqual(["invalidSignature", "nonceReused", "unknownShop"]);
      for (const example of Object.values<any>(examples)) expect(example.summary).toMatch(/illustrative/);
    }
  });

  it("keeps every request body flat with shop_id (string) and nonce (integer, refused when reused) required", () => {
    for (const [operationId, pointer] of Object.entries(REQUEST)) {
      const schema = resolvePointer(API, pointer);
      expect(schema.required, operationId).toEqual(["shop_id", "nonce"]);
      expect(schema.additionalProperties, operationId).toBe(false);
      expect(resolvePointer(API, `${pointer}/properties/shop_id`).type).toBe("string");
      expect(resolvePointer(API, `${pointer}/properties/nonce`)).toMatchObject({ type: "integer" });
      expect(resolvePointer(API, `${pointer}/properties/nonce`)["x-provider-refuses"]).toMatch(/unique for each request/);
    }
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
    expect(schemas("Error")).toMatch(/values of type on failure/);
    expect(resolvePointer(API, `${ORDER}/properties/status`)["x-undocumented"].join("")).toMatch(/meaning/);
    expect(resolvePointer(API, `${ORDER}/properties/currency_id`)["x-undocumented"].join("")).toMatch(/currency_id/);
    expect(resolvePointer(API, `${ORDER}/properties/payment_system_id`)["x-undocumented"].join("")).toMatch(/payment_system_id/);
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
    const nonces = [requests.listShops, requests.listOrders, requests.createOrder, requests.getBalance].map((b) => b.nonce);
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
    expectValid(ORDER, mutate(paidOrder, (o) => (o.status = 2)));
    expectValid(ORDER, mutate(unpaidOrder, (o) => (o.status = 2)));
  });

  it("accepts negative decimals and any currency code in the balance map", () => {
    expectValid(ORDER, mutate(paidOrder, (o) => (o.fee = "-45.00000000")));
    expectValid(RESPONSE.getBalance, mutate(balanceResponse, (b) => (b.data.balance.KZT = "-3.10")));
  });

  it("keeps fields and receipt open objects (further keys are not shown)", () => {
    expectValid(REQUEST.createOrder, mutate(requests.createOrder, (b) => (b.fields.name = "Ivan")));
    expectValid(REQUEST.createOrder, mutate(requests.createOrder, (b) => (b.receipt.total = 2490)));
  });

  it("requires only shop_id and nonce on createOrder", () => {
    expectValid(REQUEST.createOrder, { shop_id: "3561", nonce: 1709391600005 });
  });

  it("accepts an error envelope without data, and with data of any shape", () => {
    expectValid(ERROR, { type: "error", desc: "Invalid signature" });
    expectValid(ERROR, { type: "error", desc: "Invalid signature", data: [1, "x", null] });
  });
});

describe("pay: wrong payloads are rejected", () => {
  describe("Order", () => {
    it("rejects amount or fee with 2 fraction digits", () => {
      expectInvalid(ORDER, mutate(paidOrder, (o) => (o.amount = "1500.00")));
      expectInvalid(ORDER, mutate(paidOrder, (o) => (o.fee = "45.00")));
      expectInvalid(RESPONSE.listOrders, mutate(ordersResponse, (r) => (r.data[0].amount = "1500.00")));
    });

    it("rejects amount as a number and with 9 fraction digits", () => {
      expectInvalid(ORDER, mutate(paidOrder, (o) => (o.amount = 1500)));
      expectInvalid(ORDER, mutate(paidOrder, (o) => (o.amount = "1500.000000000")));
    });

    it("does not tie status to date_payed: the seed only saw status 0 with null and 1 with a timestamp", () => {
      expectValid(ORDER, mutate(paidOrder, (o) => (o.date_payed = null)));
      expectValid(ORDER, mutate(unpaidOrder, (o) => (o.date_payed = "2024-03-02 15:20:00")));
      expectValid(ORDER, mutate(unpaidOrder, (o) => (o.status = 2)));
    });

    it("rejects timestamps in another format", () => {
      expectInvalid(ORDER, mutate(paidOrder, (o) => (o.date_payed = "2024-03-02T14:07:40Z")));
      expectInvalid(ORDER, mutate(paidOrder, (o) => (o.date_created = "2024-03-02")));
    });

    it("rejects date_paid instead of date_payed", () => {
      expectInvalid(
        ORDER,
        mutate(paidOrder, (o) => {
          o.date_paid = o.date_payed;
          delete o.date_payed;
        }),
      );
    });

    it("rejects test_order as a boolean or outside 0/1", () => {
      expectInvalid(ORDER, mutate(paidOrder, (o) => (o.test_order = false)));
      expectInvalid(ORDER, mutate(paidOrder, (o) => (o.test_order = 2)));
    });

    it("rejects a currency code string in currency_id", () => {
      expectInvalid(ORDER, mutate(paidOrder, (o) => (o.currency_id = "RUB")));
    });

    it("rejects an extra field and a missing field (closed)", () => {
      expectInvalid(ORDER, mutate(paidOrder, (o) => (o.currency = "RUB")));
      expectInvalid(ORDER, mutate(paidOrder, (o) => delete o.payment_id));
    });

    it("rejects an object in data of the order list", () => {
      expectInvalid(RESPONSE.listOrders, mutate(ordersResponse, (r) => (r.data = { orders: r.data })));
    });
  });

  describe("Shop", () => {
    const shop = shopsResponse.data.shops[0];

    it("rejects an extra field (closed)", () => {
      expectInvalid(SHOP, mutate(shop, (s) => (s.currency = "RUB")));
      expectInvalid(RESPONSE.listShops, mutate(shopsResponse, (r) => (r.data.shops[0].owner = 18452)));
    });

    it("rejects id as a string (strings are for requests only)", () => {
      expectInvalid(SHOP, mutate(shop, (s) => (s.id = "3561")));
    });

    it("rejects date_added in another format, status as a string, and a missing public_key", () => {
      expectInvalid(SHOP, mutate(shop, (s) => (s.date_added = "2023-09-14T10:22:05Z")));
      expectInvalid(SHOP, mutate(shop, (s) => (s.status = "1")));
      expectInvalid(SHOP, mutate(shop, (s) => delete s.public_key));
    });

    it("rejects an extra field in the listShops data", () => {
      expectInvalid(RESPONSE.listShops, mutate(shopsResponse, (r) => (r.data.total = 2)));
      expectInvalid(RESPONSE.listShops, mutate(shopsResponse, (r) => delete r.data.user_id));
    });
  });

  describe("request bodies", () => {
    it.each(Object.keys(REQUEST) as Array<keyof typeof REQUEST>)("%s rejects shop_id as an integer", (operationId) => {
      expectValid(REQUEST[operationId], requests[operationId]);
      expectInvalid(REQUEST[operationId], mutate(requests[operationId], (b) => (b.shop_id = Number(b.shop_id))));
    });

    it.each(Object.keys(REQUEST) as Array<keyof typeof REQUEST>)("%s rejects a missing nonce or shop_id", (operationId) => {
      expectInvalid(REQUEST[operationId], mutate(requests[operationId], (b) => delete b.nonce));
      expectInvalid(REQUEST[operationId], mutate(requests[operationId], (b) => delete b.shop_id));
    });

    it.each(Object.keys(REQUEST) as Array<keyof typeof REQUEST>)("%s rejects a fractional nonce, a string nonce and an extra field", (operationId) => {
      expectInvalid(REQUEST[operationId], mutate(requests[operationId], (b) => (b.nonce = 1.5)));
      expectInvalid(REQUEST[operationId], mutate(requests[operationId], (b) => (b.nonce = String(b.nonce))));
      expectInvalid(REQUEST[operationId], mutate(requests[operationId], (b) => (b.signature = "0000")));
    });

    it("listOrders rejects page 0 and a string page", () => {
      expectInvalid(REQUEST.listOrders, mutate(requests.listOrders, (b) => (b.page = 0)));
      expectInvalid(REQUEST.listOrders, mutate(requests.listOrders, (b) => (b.page = "1")));
    });

    it("createOrder rejects fields and receipt sent as arrays", () => {
      expectInvalid(REQUEST.createOrder, mutate(requests.createOrder, (b) => (b.fields = [b.fields.email, b.fields.phone])));
      expectInvalid(REQUEST.createOrder, mutate(requests.createOrder, (b) => (b.receipt = b.receipt.items)));
    });

    it("createOrder rejects amount as a decimal string and payment_system as a string", () => {
      expectInvalid(REQUEST.createOrder, mutate(requests.createOrder, (b) => (b.amount = "2490.00000000")));
      expectInvalid(REQUEST.createOrder, mutate(requests.createOrder, (b) => (b.payment_system = "4")));
    });

    it("createOrder rejects cart lines with a fractional count or a string price", () => {
      expectInvalid(REQUEST.createOrder, mutate(requests.createOrder, (b) => (b.receipt.items[0].count = 1.5)));
      expectInvalid(REQUEST.createOrder, mutate(requests.createOrder, (b) => (b.receipt.items[0].price = "2490")));
      expectInvalid(REQUEST.createOrder, mutate(requests.createOrder, (b) => (b.fields.email = 42)));
    });
  });

  describe("balance", () => {
    it("rejects a balance with 8 fraction digits", () => {
      expectInvalid(RESPONSE.getBalance, mutate(balanceResponse, (r) => (r.data.balance.RUB = "12840.50000000")));
    });

    it("rejects a balance as a number and with 1 fraction digit", () => {
      expectInvalid(RESPONSE.getBalance, mutate(balanceResponse, (r) => (r.data.balance.RUB = 12840.5)));
      expectInvalid(RESPONSE.getBalance, mutate(balanceResponse, (r) => (r.data.balance.RUB = "12840.5")));
    });

    it("rejects an extra field and user_id as a string", () => {
      expectInvalid(RESPONSE.getBalance, mutate(balanceResponse, (r) => (r.data.currency = "RUB")));
      expectInvalid(RESPONSE.getBalance, mutate(balanceResponse, (r) => (r.data.user_id = "18452")));
    });
  });

  describe("createOrder response", () => {
    it("rejects a url that is not a URI, an id as a string and an extra field", () => {
      expectInvalid(RESPONSE.createOrder, mutate(createdResponse, (r) => (r.data.url = "not a link")));
      expectInvalid(RESPONSE.createOrder, mutate(createdResponse, (r) => (r.data.id = "910002")));
      expectInvalid(RESPONSE.createOrder, mutate(createdResponse, (r) => (r.data.status = 0)));
    });
  });

  describe("envelope", () => {
    it.each([
      ["listShops", shopsResponse],
      ["listOrders", ordersResponse],
      ["createOrder", createdResponse],
      ["getBalance", balanceResponse],
    ] as const)("%s success envelope rejects a non-empty desc, a missing data and an extra key; another type is the failure envelope", (operationId, example) => {
      const pointer = RESPONSE[operationId];
      expectValid(pointer, example);
      expectInvalid(pointer, mutate(example, (r) => (r.desc = "OK")));
      // With a type other than success the body is the failure envelope, whose data the seed does not show.
      expectValid(pointer, mutate(example, (r) => (r.type = "error")));
      expectInvalid(pointer, mutate(example, (r) => { r.type = "error"; delete r.desc; }));
      expectInvalid(pointer, mutate(example, (r) => delete r.data));
      expectInvalid(pointer, mutate(example, (r) => (r.status = "ok")));
    });

    it("error envelope rejects type success, a missing desc and an extra key", () => {
      const error = { type: "error", desc: "Invalid signature" };
      expectValid(ERROR, error);
      expectInvalid(ERROR, mutate(error, (e) => (e.type = "success")));
      expectInvalid(ERROR, mutate(error, (e) => delete e.desc));
      expectInvalid(ERROR, mutate(error, (e) => (e.code = 401)));
    });
  });
});
