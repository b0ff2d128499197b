// An independent seller catalog server, written from the commerce seed alone: the key decides the shop and its
// scopes (fail-closed: a key lacking a scope gets 403 naming it), categories carry the pcat_ prefix, a product
// creation needs an Idempotency-Key and a repeat returns the same product, the thumbnail is optional ("when a
// thumbnail URL is given") and shown as the service's own copy, prices come back as two-decimal strings. Lenient
// elsewhere: unknown fields are ignored. Each fault breaks one thing the seed says.
import type { RunningServer } from "../fault-servers/http.js";
import { type OracleReply, serveOracle } from "./serve.js";

export const ORACLE_CATALOG_FAULTS = [
  "read-key-can-write",
  "forbidden-without-scope-name",
  "thumbnail-required",
] as const;
export type OracleCatalogFault = (typeof ORACLE_CATALOG_FAULTS)[number];

export interface OracleCatalogOptions {
  /** A key with products:read and products:write. */
  apiKey: string;
  /** A key with products:read only. */
  readApiKey: string;
  fault?: OracleCatalogFault;
  port?: number;
}

const CATEGORIES = [
  { id: "pcat_root01", parent_id: null, name: "Games" },
  { id: "pcat_keys02", parent_id: "pcat_root01", name: "Keys" },
];

interface Price {
  amount: string;
  currency_code: string;
}

interface CatalogState {
  fault: OracleCatalogFault | undefined;
  byIdempotencyKey: Map<string, Record<string, unknown>>;
  nextId: number;
}

export async function startOracleCatalogServer(options: OracleCatalogOptions): Promise<RunningServer> {
  const scopes = new Map([
    [options.apiKey, new Set(["products:read", "products:write"])],
    [options.readApiKey, new Set(["products:read"])],
  ]);
  const state: CatalogState = { fault: options.fault, byIdempotencyKey: new Map(), nextId: 1 };
  return serveOracle(
    options.port ?? 0,
    new Set([options.apiKey, options.readApiKey]),
    ({ method, url, headers, json }) => {
      const key = headers["x-seller-api-key"];
      const granted = typeof key === "string" ? scopes.get(key) : undefined;
      if (!granted) return { status: 401, body: { error: "invalid API key" } };
      const need = (scope: string) => {
        if (granted.has(scope) || (options.fault === "read-key-can-write" && scope === "products:write"))
          return undefined;
        return {
          status: 403,
          body: { error: options.fault === "forbidden-without-scope-name" ? "forbidden" : `missing scope: ${scope}` },
        };
      };
      const route = `${method} ${url.pathname.replace(/\/$/, "")}`;
      if (route === "GET /admin/seller-api/me")
        return need("products:read") ?? { status: 200, body: { payout_verified: true, name: "Demo shop" } };
      if (route === "GET /admin/seller-api/categories")
        return need("products:read") ?? { status: 200, body: CATEGORIES };
      if (route !== "POST /admin/seller-api/products") return { status: 404, body: { error: "not found" } };
      return need("products:write") ?? createProduct(state, headers["idempotency-key"], json);
    },
  );
}

/** POST /products: an Idempotency-Key is required, and a repeat of one returns the product it created. */
function createProduct(
  state: CatalogState,
  idempotencyKey: string | string[] | undefined,
  body: Record<string, unknown> | undefined,
): OracleReply {
  if (typeof idempotencyKey !== "string" || idempotencyKey === "")
    return { status: 400, body: { error: "Idempotency-Key is required on writes" } };
  const known = state.byIdempotencyKey.get(idempotencyKey);
  if (known) return { status: 200, body: known };
  const text = (name: string) => typeof body?.[name] === "string";
  if (!body || !["title", "delivery_type", "category_id", "status"].every(text) || !Array.isArray(body.variants))
    return { status: 400, body: { error: "title, delivery_type, category_id, status and variants are required" } };
  // A product belongs to one of the shop's categories (the seed: category_id is a category identifier).
  if (!CATEGORIES.some((category) => category.id === body.category_id))
    return { status: 422, body: { error: `category_id: unknown category ${String(body.category_id)}` } };
  if (state.fault === "thumbnail-required" && !text("thumbnail"))
    return { status: 422, body: { error: "thumbnail is required" } };
  const variants = pricedVariants(body.variants as Array<Record<string, unknown>>);
  if (!Array.isArray(variants)) return variants;
  const id = `prod_${state.nextId++}`;
  // "The service downloads the image and keeps its own copy": the product shows the copy's address, not the one
  // sent.
  const product = {
    id,
    title: body.title,
    status: body.status,
    category_id: body.category_id,
    ...(text("thumbnail") ? { thumbnail: `https://images.catalog.invalid/${id}/cover` } : {}),
    variants,
  };
  state.byIdempotencyKey.set(idempotencyKey, product);
  return { status: 201, body: product };
}

/** The variants as the product shows them, prices as two-decimal strings; the error reply for a bad one. */
function pricedVariants(
  variants: Array<Record<string, unknown>>,
): Array<{ title: unknown; prices: Price[] }> | OracleReply {
  const result: Array<{ title: unknown; prices: Price[] }> = [];
  for (const variant of variants) {
    if (!variant || !Array.isArray(variant.prices))
      return { status: 400, body: { error: "each variant needs prices" } };
    const prices: Price[] = [];
    for (const price of variant.prices as Array<Record<string, unknown>>) {
      // Money is counted in minor units: a price must be a non-negative number that fits them.
      if (
        typeof price?.amount !== "number" ||
        !(price.amount >= 0 && price.amount <= 1e12) ||
        typeof price.currency_code !== "string"
      )
        return { status: 422, body: { error: "invalid price" } };
      prices.push({
        amount: (Math.round(price.amount * 100) / 100).toFixed(2),
        currency_code: price.currency_code,
      });
    }
    result.push({ title: variant.title, prices });
  }
  return result;
}
