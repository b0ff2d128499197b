// The seller catalog contract: structure and recorded gaps. Payloads are in catalog-payloads.test.ts.
import { describe, expect, it } from "vitest";
import { findOperation, listOperations, loadBundle, resolvePointer } from "../support/bundle-nodes.js";
import { allUndocumented, API, expectInvalid, expectValid } from "./support/catalog.js";

describe("catalog: structure", () => {
  it("has exactly the three paths, their operationIds and the issuance webhook", () => {
    const ops = listOperations(API).map(
      (op) => `${op.webhook ? "webhook" : "path"} ${op.method.toUpperCase()} ${op.path} ${op.operationId}`,
    );
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

  it("uses the live, mock and sandbox servers in that order", () => {
    const servers = loadBundle(API).servers ?? [];
    expect(servers.map((s) => s.url)).toEqual(["{api_url}", "http://127.0.0.1:4012", "http://127.0.0.1:4022"]);
    expect(servers[0]?.variables?.api_url?.default).toBe("http://127.0.0.1:4022");
  });

  it("tags each operation with one declared tag", () => {
    const declared = ((loadBundle(API).tags ?? []) as Array<{ name: string }>).map((t) => t.name);
    expect(declared).toEqual(["categories", "issuance", "products", "shop"]);
    const tagOf = Object.fromEntries(listOperations(API).map((op) => [op.operationId, op.operation.tags]));
    expect(tagOf).toEqual({
      getShop: ["shop"],
      listCategories: ["categories"],
      createProduct: ["products"],
      issueGoods: ["issuance"],
    });
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

  it("answers 200 (assumed: no success status is shown), 403 (missing scope) and a default error on every path operation", () => {
    for (const op of listOperations(API).filter((o) => !o.webhook)) {
      expect(Object.keys(op.operation.responses)).toEqual(["200", "403", "default"]);
      expect(resolvePointer(API, `${op.pointer}/responses/200`)["x-assumption"]).toMatch(/no success status code/);
      expect(resolvePointer(API, `${op.pointer}/responses/403`).description).toMatch(/names the missing scope/);
    }
  });
});

describe("catalog: structure", () => {
  it("requires the Idempotency-Key header on createProduct", () => {
    const params = findOperation(API, "createProduct").operation.parameters as Array<{ $ref: string }>;
    expect(params).toEqual([{ $ref: "#/components/parameters/IdempotencyKey" }]);
    const param = resolvePointer(API, "/components/parameters/IdempotencyKey");
    expect(param).toMatchObject({
      name: "Idempotency-Key",
      in: "header",
      required: true,
      schema: { type: "string", minLength: 1 },
    });
    expect(param.description).toMatch(/same key returns the same product and creates\s+no second one/);
    expectValid("/components/parameters/IdempotencyKey/schema", "7c0e9a52-3f1b-4d8e-9a61-2b5f0c4d8e17");
    expectInvalid("/components/parameters/IdempotencyKey/schema", "");
    expect(resolvePointer(API, `${findOperation(API, "createProduct").pointer}/requestBody`).required).toBe(true);
    expect(
      Object.keys(resolvePointer(API, `${findOperation(API, "createProduct").pointer}/requestBody/content`)),
    ).toEqual(["application/json"]);
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
    expect(op.operation.description).toMatch(
      /unreadable reply, including a bare empty JSON object with 200, counts as\s+failure and\s+leads to a refund/,
    );
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
    expect(info).toHaveLength(13);
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
      /status codes of successful reads/,
    ])
      expect(
        info.some((t) => needle.test(t)),
        String(needle),
      ).toBe(true);
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
      [
        "/paths/~1admin~1seller-api~1me/get/responses/default",
        /Status codes of errors other than the missing-scope 403/,
      ],
      [
        "/paths/~1admin~1seller-api~1categories/get/responses/default",
        /Status codes of errors other than the missing-scope 403/,
      ],
      [
        "/paths/~1admin~1seller-api~1products/post/responses/default",
        /Status codes of errors other than the missing-scope 403/,
      ],
      ["/components/securitySchemes/sellerApiKey", /Scope names other than products:read and products:write/],
      ["/paths/~1admin~1seller-api~1me/get", /products:read is our reading/],
      ["/paths/~1admin~1seller-api~1categories/get", /products:read is our reading/],
      ["/paths/~1admin~1seller-api~1products/post", /response body of product creation is not shown/],
      ["/webhooks/issuance/post", /payload, the header names and the signature of the event/],
      ["/webhooks/issuance/post", /signature scheme of the event is not shown/],
    ];
    for (const [pointer, needle] of expectations)
      expect(
        at(pointer).some((t) => needle.test(t)),
        `${pointer} ${needle}`,
      ).toBe(true);
  });
});
