// Compile-time tests of the clients' calls, checked by `npm run check:ts` (tsc over test/): a misspelt or unknown
// field in a request is a type error (the contracts' request bodies are closed), as are wrong types and missing fields.
// Each `@ts-expect-error` fails the build when the client's types accept what they should refuse.
import type { CatalogClient } from "../../clients/catalog.js";
import type { LinksClient } from "../../clients/links.js";
import type { PayClient } from "../../clients/pay.js";

export async function links(client: LinksClient): Promise<void> {
  await client.POST("/api/campaign/add", { body: { name: "Spring sale", public: true } });
  // @ts-expect-error a misspelt field of the body
  await client.POST("/api/campaign/add", { body: { nmae: "Spring sale" } });
  // @ts-expect-error an unknown field beside every required one
  await client.POST("/api/campaign/add", { body: { name: "Spring sale", pubic: true } });
  // @ts-expect-error a field of the wrong type
  await client.POST("/api/campaign/add", { body: { name: 7 } });
  // @ts-expect-error a misspelt query parameter
  await client.GET("/api/campaigns", { params: { query: { pgae: 2 } } });
  // @ts-expect-error a misspelt option of the call
  await client.GET("/api/campaigns", { parms: { query: { page: 2 } } });
  await client.GET("/api/campaigns", { params: { query: { page: 2 } }, signal: AbortSignal.timeout(1000) });
}

export async function catalog(client: CatalogClient): Promise<void> {
  const product = {
    title: "Gift card",
    delivery_type: "digital_instant",
    category_id: "pcat_1",
    status: "draft",
    variants: [],
  } as const;
  await client.POST("/admin/seller-api/products", { body: { ...product, variants: [] } });
  // A product body is open (the seed does not close it), its variants and prices are closed.
  await client.POST("/admin/seller-api/products", { body: { ...product, variants: [], source: "import" } });
  await client.POST("/admin/seller-api/products", {
    body: { ...product, variants: [{ title: "EU", prices: [{ amount: 10, currency_code: "eur" }] }] },
  });
  await client.POST("/admin/seller-api/products", {
    // @ts-expect-error a misspelt field of a price
    body: { ...product, variants: [{ title: "EU", prices: [{ amount: 10, currency_cod: "eur" }] }] },
  });
}

export async function pay(client: PayClient): Promise<void> {
  await client.POST("/api/createOrder/", {
    body: { currency: "USD", amount: 25.5, order_id: "A-1", payment_system: 4 },
  });
  await client.POST("/api/createOrder/", {
    // @ts-expect-error a misspelt field
    body: { currency: "USD", amount: 25.5, order_id: "A-1", payment_sytem: 4 },
  });
  // @ts-expect-error the client adds the nonce itself
  await client.POST("/api/balance/", { body: { nonce: 1 } });
  await client.POST("/api/balance/");
}
