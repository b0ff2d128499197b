// The seller catalog contract: structure, quirks and gaps. Every wrong payload is a valid example with one change.
import { describe, it, expect } from "vitest";
import {
  describeErrors,
  findOperation,
  listOperations,
  loadBundle,
  pointerSegment,
  requestSchemaPointer,
  resolvePointer,
  responseSchemaPointer,
  validateAt,
} from "../../lib/openapi.js";

const API = "catalog" as const;

const shopSchema = responseSchemaPointer(API, "getShop", "200");
const categoriesSchema = responseSchemaPointer(API, "listCategories", "200");
const createRequestSchema = requestSchemaPointer(API, "createProduct");
const productSchema = responseSchemaPointer(API, "createProduct", "2XX");
const scopeErrorSchema = responseSchemaPointer(API, "createProduct", "403");
const otherErrorSchema = responseSchemaPointer(API, "createProduct", "default");
const eventSchema = requestSchemaPointer(API, "issueGoods");
const replySchema = responseSchemaPointer(API, "issueGoods", "200");

/** A deep copy of one named example of a media type object (pointer to `.../content/application~1json`). */
function example(mediaPointer: string, name: string): any {
  const media = resolvePointer(API, mediaPointer);
  const found = media?.examples?.[name];
  if (!found) throw new Error(`no example ${name} at ${mediaPointer}`);
  return structuredClone(resolvePointer(API, `${mediaPointer}/examples/${name}`).value);
}

const mediaOf = (schemaPointer: string) => schemaPointer.replace(/\/schema$/, "");

function expectValid(pointer: string, data: unknown): void {
  const result = validateAt(API, pointer, data);
  expect(result.valid, describeErrors(result.errors)).toBe(true);
}

function expectInvalid(pointer: string, data: unknown): void {
  expect(validateAt(API, pointer, data).valid).toBe(false);
}

/** Every `x-undocumented` sentence of the bundle, with the pointer where it lives. */
function allUndocumented(): Array<{ at: string; text: string }> {
  const found: Array<{ at: string; text: string }> = [];
  const walk = (node: unknown, at: string): void => {
    if (Array.isArray(node)) node.forEach((child, i) => walk(child, `${at}/${i}`));
    else if (node && typeof node === "object") {
      for (const [key, value] of Object.entries(node)) {
        if (key === "x-undocumented" && Array.isArray(value)) for (const text of value) found.push({ at, text: String(text) });
        else walk(value, `${at}/${pointerSegment(key)}`);
      }
    }
  };
  walk(loadBundle(API), "");
  return found;
}

describe("catalog: structure", () => {
  it("has exactly the three paths, their operationIds and the issuance webhook", () => {
    const ops = listOperations(API).map((op) => `${op.webhook ? "webhook" : "path"} ${op.method.toUpperCase()} ${op.path} ${op.operationId}`);
    expect(ops.sort()).toEqual(
      [
        "path GET /admin/seller-api/me getShop",
        "path GET /admin/seller-api/categories listCategories",
        "path POST /admin/seller-api/products createProduct",
        "webhook POST issuance issueGoods",
      ].sort(),
    );
    expect(Object.keys(loadBundle(API).paths ?? {}).sort()).toEqual(
      ["/admin/seller-api/categories", "/admin/seller-api/me", "/admin/seller-api/products"].sort(),
    );
    expect(Object.keys(loadBundle(API).webhooks ?? {})).toEqual(["issuance"]);
  });

  it("uses the mock, sandbox and live servers in that order", () => {
    const servers = loadBundle(API).servers ?? [];
    expect(servers.map((s) => s.url)).toEqual(["http://127.0.0.1:4012", "http://127.0.0.1:4022", "{api_url}"]);
    expect(servers[2]?.variables?.api_url?.default).toBe("http://127.0.0.1:4022");
  });

  it("tags each operation with one declared tag", () => {
    const declared = ((loadBundle(API).tags ?? []) as Array<{ name: string }>).map((t) => t.name);
    expect(declared).toEqual(["categories", "issuance", "products", "shop"]);
    const tagOf = Object.fromEntries(listOperations(API).map((op) => [op.operationId, op.operation.tags]));
    expect(tagOf).toEqual({ getShop: ["shop"], listCategories: ["categories"], createProduct: ["products"], issueGoods: ["issuance"] });
  });

  it("declares the x-seller-api-key scheme and the scopes per operation", () => {
    const scheme = resolvePointer(API, "/components/securitySchemes/sellerApiKey");
    expect(scheme).toMatchObject({ type: "apiKey", in: "header", name: "x-seller-api-key" });
    expect(scheme.description).toMatch(/fail-closed/);
    expect(scheme.description).toMatch(/issued by the operator's support on request are\s+marked in the dashboard/);
    expect(findOperation(API, "getShop").operation.security).toEqual([{ sellerApiKey: ["products:read"] }]);
    expect(findOperation(API, "listCategories").operation.security).toEqual([{ sellerApiKey: ["products:read"] }]);
    expect(findOperation(API, "createProduct").operation.security).toEqual([{ sellerApiKey: ["products:write"] }]);
    const webhook = findOperation(API, "issueGoods").operation;
    expect(webhook.security).toEqual([]);
    expect(webhook["x-undocumented"].join(" ")).toMatch(/signature scheme of the event is not shown/);
  });

  it("answers 403 (missing scope) and a default error on every path operation", () => {
    for (const op of listOperations(API).filter((o) => !o.webhook)) {
      expect(Object.keys(op.operation.responses).sort()).toEqual(
        (op.operationId === "createProduct" ? ["2XX", "403", "default"] : ["200", "403", "default"]).sort(),
      );
      expect(resolvePointer(API, `${op.pointer}/responses/403`).description).toMatch(/names the missing scope/);
    }
  });

  it("requires the Idempotency-Key header on createProduct", () => {
    const params = findOperation(API, "createProduct").operation.parameters as Array<{ $ref: string }>;
    expect(params).toEqual([{ $ref: "#/components/parameters/IdempotencyKey" }]);
    const param = resolvePointer(API, "/components/parameters/IdempotencyKey");
    expect(param).toMatchObject({ name: "Idempotency-Key", in: "header", required: true, schema: { type: "string", minLength: 1 } });
    expect(param.description).toMatch(/same key returns the same product and creates\s+no second one/);
    expectValid("/components/parameters/IdempotencyKey/schema", "7c0e9a52-3f1b-4d8e-9a61-2b5f0c4d8e17");
    expectInvalid("/components/parameters/IdempotencyKey/schema", "");
    expect(resolvePointer(API, `${findOperation(API, "createProduct").pointer}/requestBody`).required).toBe(true);
    expect(Object.keys(resolvePointer(API, `${findOperation(API, "createProduct").pointer}/requestBody/content`))).toEqual(["application/json"]);
  });

  it("records the machine-readable image limits on thumbnail", () => {
    expect(resolvePointer(API, "/components/schemas/ProductCreate/properties/thumbnail")["x-image-limits"]).toEqual({
      formats: ["png", "jpeg", "webp", "gif"],
      rejected: ["svg"],
      maxBytes: 5242880,
      maxImagesPerProduct: 10,
      detection: "content",
    });
  });

  it("records the webhook reply rules", () => {
    const op = findOperation(API, "issueGoods");
    expect(op.operation["x-reply-rules"]).toEqual({
      issued: "200 with items",
      answered: ["200 with status", "409", "422"],
      failed: ["unreadable body", "bare {} with 200", "200 without items or status"],
      onFailure: "the sale fails and the buyer is refunded",
    });
    expect(Object.keys(op.operation.responses).sort()).toEqual(["200", "409", "422"]);
    expect(op.operation.description).toMatch(/unreadable reply, including a bare empty JSON object with 200, counts as\s+failure and\s+leads to a refund/);
  });

  it("keeps delivery_type and status open (examples, no enum)", () => {
    const props = resolvePointer(API, "/components/schemas/ProductCreate/properties");
    expect(props.delivery_type.enum).toBeUndefined();
    expect(props.delivery_type.examples).toEqual(["digital_instant", "external_api", "smm_panel"]);
    expect(props.status.enum).toBeUndefined();
    expect(props.status.examples).toEqual(["published"]);
  });
});

describe("catalog: recorded gaps", () => {
  const gaps = allUndocumented();
  const texts = gaps.map((g) => g.text);
  const at = (pointer: string) => gaps.filter((g) => g.at === pointer).map((g) => g.text);

  it("writes every gap as a sentence", () => {
    for (const text of texts) expect(text).toMatch(/^.{10,}\.$/s);
  });

  it("lists the API-wide gaps on info", () => {
    const info = at("/info");
    expect(info).toHaveLength(12);
    for (const needle of [
      /read, list, update or delete products/,
      /image upload operation/,
      /pool of ready codes/,
      /supplier list operation/,
      /manual order-line fulfilment/,
      /orders, balance and payout/,
      /error body shape/,
      /Rate limits/,
      /Versioning/,
      /Transitions/,
      /status values other than published/,
      /other than products:read and products:write/,
    ])
      expect(info.some((t) => needle.test(t)), String(needle)).toBe(true);
  });

  it("records the gaps where they live", () => {
    const expectations: Array<[string, RegExp]> = [
      ["/components/schemas/Shop", /other than payout_verified/],
      ["/components/schemas/Category", /other than parent_id/],
      ["/components/schemas/Product", /Response fields of Product are not shown/],
      ["/components/schemas/ProductCreate", /Which request fields are required is not shown/],
      ["/components/schemas/ProductCreate/properties/delivery_type", /manual hand-off/],
      ["/components/schemas/ProductCreate/properties/delivery_type", /pool of ready codes/],
      ["/components/schemas/ProductCreate/properties/status", /other than published/],
      ["/components/schemas/ScopeError", /field that names the missing scope/],
      ["/components/schemas/ErrorBody", /error body shape/],
      ["/components/schemas/IssuanceEvent", /payload of the sale event/],
      ["/paths/~1admin~1seller-api~1me/get/responses/default", /Status codes of errors other than the missing-scope 403/],
      ["/paths/~1admin~1seller-api~1categories/get/responses/default", /Status codes of errors other than the missing-scope 403/],
      ["/paths/~1admin~1seller-api~1products/post/responses/default", /Status codes of errors other than the missing-scope 403/],
      ["/components/securitySchemes/sellerApiKey", /Scope names other than products:read and products:write/],
      ["/paths/~1admin~1seller-api~1me/get", /products:read is our reading/],
      ["/paths/~1admin~1seller-api~1categories/get", /products:read is our reading/],
      ["/paths/~1admin~1seller-api~1products/post", /response body of product creation is not shown/],
      ["/webhooks/issuance/post", /payload, the header names and the signature of the event/],
      ["/webhooks/issuance/post", /signature scheme of the event is not shown/],
    ];
    for (const [pointer, needle] of expectations) expect(at(pointer).some((t) => needle.test(t)), `${pointer} ${needle}`).toBe(true);
  });
});

describe("catalog: shop (me)", () => {
  const media = mediaOf(shopSchema);

  it("accepts both examples and further, unshown fields", () => {
    expectValid(shopSchema, example(media, "verifiedShop"));
    expectValid(shopSchema, example(media, "unverifiedShop"));
    const extra = example(media, "verifiedShop");
    extra.some_unshown_field = "x";
    expectValid(shopSchema, extra);
    expect(resolvePointer(API, "/components/schemas/Shop")["x-quirk"]).toMatch(/storefront hides/);
  });

  it("rejects a shop without payout_verified", () => {
    const data = example(media, "verifiedShop");
    delete data.payout_verified;
    expectInvalid(shopSchema, data);
  });

  it("rejects payout_verified as a string", () => {
    const data = example(media, "unverifiedShop");
    data.payout_verified = "false";
    expectInvalid(shopSchema, data);
  });
});

describe("catalog: categories", () => {
  const media = mediaOf(categoriesSchema);

  it("accepts the flat list with null and pcat_ parents", () => {
    expectValid(categoriesSchema, example(media, "giftCardTree"));
    expectValid(categoriesSchema, example(media, "noCategories"));
  });

  it("rejects a parent_id without the pcat_ prefix", () => {
    const data = example(media, "giftCardTree");
    data[1].parent_id = "8kq2m4x7";
    expectInvalid(categoriesSchema, data);
  });

  it("rejects a row without parent_id", () => {
    const data = example(media, "giftCardTree");
    delete data[0].parent_id;
    expectInvalid(categoriesSchema, data);
  });

  it("rejects the list wrapped in an object (it is a flat JSON array)", () => {
    expectInvalid(categoriesSchema, { categories: example(media, "giftCardTree") });
  });

  it("keeps rows open for the unshown fields", () => {
    const data = example(media, "giftCardTree");
    data[0].unshown = "x";
    expectValid(categoriesSchema, data);
  });
});

describe("catalog: createProduct request", () => {
  const media = mediaOf(createRequestSchema);

  it("accepts the examples, including one without thumbnail", () => {
    expectValid(createRequestSchema, example(media, "giftCardProduct"));
    expectValid(createRequestSchema, example(media, "onTheFlyProduct"));
    expect(example(media, "onTheFlyProduct").thumbnail).toBeUndefined();
  });

  it("rejects a price amount as a string (numbers in requests)", () => {
    const data = example(media, "giftCardProduct");
    data.variants[0].prices[0].amount = "21.50";
    expectInvalid(createRequestSchema, data);
  });

  it("rejects a category_id without the pcat_ prefix", () => {
    const data = example(media, "giftCardProduct");
    data.category_id = "8kq2m4x7";
    expectInvalid(createRequestSchema, data);
  });

  it("rejects an upper-case currency_code", () => {
    const data = example(media, "giftCardProduct");
    data.variants[0].prices[0].currency_code = "USD";
    expectInvalid(createRequestSchema, data);
  });

  it("rejects a currency_code that is not three letters", () => {
    const data = example(media, "giftCardProduct");
    data.variants[0].prices[0].currency_code = "usdt";
    expectInvalid(createRequestSchema, data);
  });

  it("rejects a thumbnail that is not a URL", () => {
    const data = example(media, "giftCardProduct");
    data.thumbnail = "steam wallet cover";
    expectInvalid(createRequestSchema, data);
  });

  it("accepts any delivery_type string but not a number", () => {
    const data = example(media, "giftCardProduct");
    data.delivery_type = "smm_panel";
    expectValid(createRequestSchema, data);
    data.delivery_type = 1;
    expectInvalid(createRequestSchema, data);
  });

  for (const field of ["title", "delivery_type", "category_id", "status", "variants"]) {
    it(`rejects a request without ${field}`, () => {
      const data = example(media, "giftCardProduct");
      delete data[field];
      expectInvalid(createRequestSchema, data);
    });
  }

  it("rejects a variant without prices and a price without currency_code", () => {
    const noPrices = example(media, "giftCardProduct");
    delete noPrices.variants[0].prices;
    expectInvalid(createRequestSchema, noPrices);
    const noCurrency = example(media, "giftCardProduct");
    delete noCurrency.variants[0].prices[0].currency_code;
    expectInvalid(createRequestSchema, noCurrency);
  });

  it("is open at the top (the seed admits a supplier id it does not show) and closed below", () => {
    const top = example(media, "giftCardProduct");
    top.supplier_id = "sup_1";
    expectValid(createRequestSchema, top);
    const variant = example(media, "giftCardProduct");
    variant.variants[0].sku = "STEAM-20";
    expectInvalid(createRequestSchema, variant);
    const price = example(media, "giftCardProduct");
    price.variants[0].prices[0].currency = price.variants[0].prices[0].currency_code;
    delete price.variants[0].prices[0].currency_code;
    expectInvalid(createRequestSchema, price);
  });
});

describe("catalog: createProduct response", () => {
  const media = mediaOf(productSchema);

  it("accepts the examples with two-decimal price strings", () => {
    expectValid(productSchema, example(media, "createdGiftCard"));
    expectValid(productSchema, example(media, "createdOnTheFly"));
  });

  it("rejects a price amount as a number (decimal strings in responses)", () => {
    const data = example(media, "createdGiftCard");
    data.variants[0].prices[0].amount = 21.5;
    expectInvalid(productSchema, data);
  });

  it("rejects price strings that are not two decimals in shape", () => {
    for (const amount of ["21.5", "21", "2150", "21.500", "-21.50"]) {
      const data = example(media, "createdGiftCard");
      data.variants[0].prices[0].amount = amount;
      expectInvalid(productSchema, data);
    }
  });

  it("stays open: no field is required and unshown fields pass", () => {
    expectValid(productSchema, {});
    const data = example(media, "createdGiftCard");
    data.unshown = true;
    data.variants[0].unshown = true;
    data.variants[0].prices[0].unshown = true;
    expectValid(productSchema, data);
  });
});

describe("catalog: errors", () => {
  it("accepts the scope and other-error examples (open objects)", () => {
    expectValid(scopeErrorSchema, example(mediaOf(scopeErrorSchema), "missingProductsWrite"));
    const readScope = responseSchemaPointer(API, "getShop", "403");
    expectValid(readScope, example(mediaOf(readScope), "missingProductsRead"));
    expectValid(otherErrorSchema, example(mediaOf(otherErrorSchema), "invalidKey"));
    expectValid(otherErrorSchema, example(mediaOf(otherErrorSchema), "rejectedBody"));
    expect(JSON.stringify(example(mediaOf(scopeErrorSchema), "missingProductsWrite"))).toContain("products:write");
    expect(JSON.stringify(example(mediaOf(readScope), "missingProductsRead"))).toContain("products:read");
  });

  it("rejects a non-object error body", () => {
    expectInvalid(scopeErrorSchema, "missing scope: products:write");
    expectInvalid(otherErrorSchema, ["invalid API key"]);
  });
});

describe("catalog: issuance webhook", () => {
  const media = mediaOf(replySchema);

  it("accepts issued and answered replies", () => {
    expectValid(replySchema, example(media, "issued"));
    expectValid(replySchema, example(media, "answered"));
    expectValid(eventSchema, example(mediaOf(eventSchema), "saleEvent"));
  });

  it("rejects a bare {} with 200", () => {
    expectInvalid(replySchema, {});
  });

  it("rejects a 200 reply with empty items", () => {
    const data = example(media, "issued");
    data.items = [];
    expectInvalid(replySchema, data);
  });

  it("rejects a 200 reply without items or status", () => {
    const data = example(media, "issued");
    data.goods = data.items;
    delete data.items;
    expectInvalid(replySchema, data);
  });

  it("rejects items that are not an array", () => {
    const data = example(media, "issued");
    data.items = "VPN-7QK2-M4X9-PL3D";
    expectInvalid(replySchema, data);
  });

  it("declares no body for the 409 and 422 answers", () => {
    const op = findOperation(API, "issueGoods");
    expect(op.operation.responses["409"].content).toBeUndefined();
    expect(op.operation.responses["422"].content).toBeUndefined();
  });
});
