// The seller catalog contract: quirks and payloads. Every wrong payload is a valid example with one change.
import { describe, expect, it } from "vitest";
import { findOperation, resolvePointer, responseSchemaPointer } from "../support/bundle-nodes.js";
import {
  API,
  categoriesSchema,
  createRequestSchema,
  eventSchema,
  example,
  expectInvalid,
  expectValid,
  mediaOf,
  otherErrorSchema,
  productSchema,
  replySchema,
  scopeErrorSchema,
  shopSchema,
} from "./support/catalog.js";

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
