// A small catalog server that keeps the contract (key, categories from the contract's examples, product creation
// with real Idempotency-Key replay) and breaks it in exactly one way when given a fault.
import { readCall, type Reply, type RunningServer, startServer } from "./http.js";
import { exampleOf } from "./links.js";

export const CATALOG_FAULTS = [
  "idempotency-ignored",
  "title-trimmed",
  "idempotency-key-optional",
  "ignores-wrong-key",
  "malformed-json-500",
] as const;
export type CatalogFault = (typeof CATALOG_FAULTS)[number];

export interface CatalogServer extends RunningServer {
  products: Map<string, Record<string, unknown>>;
}

/**
 * Whether a request body is empty or parses as JSON: the `malformed-json-500` fault answers the rest with a 500 (in
 * JSON, so that only not_a_server_error catches it; a text body would fail content_type_conformance too).
 */
function parses(body: string): boolean {
  try {
    if (body !== "") JSON.parse(body);
    return true;
  } catch {
    return false;
  }
}

export async function startCatalogServer(options: {
  apiKey: string;
  readApiKey?: string;
  fault?: CatalogFault;
  port?: number;
}): Promise<CatalogServer> {
  const products = new Map<string, Record<string, unknown>>();
  let nextId = 1;
  const running = await startServer(
    options.port ?? 0,
    async (request): Promise<Reply> => {
      // The narrower key holds products:read only; scopes are fail-closed and the 403 names the missing one.
      if (
        options.readApiKey !== undefined &&
        request.headers["x-seller-api-key"] === options.readApiKey &&
        request.method !== "GET"
      ) {
        request.resume();
        return { status: 403, body: { error: "missing scope: products:write" } };
      }
      const key = request.headers["x-seller-api-key"];
      const anyKey = options.fault === "ignores-wrong-key" && typeof key === "string" && key !== "";
      if (key !== options.apiKey && (options.readApiKey === undefined || key !== options.readApiKey) && !anyKey) {
        request.resume();
        return { status: 401, body: { error: "invalid API key" } };
      }
      const call = await readCall("catalog", request);
      if (!call) return { status: 404, body: { error: "unknown endpoint" } };
      const keyless = call.headers["idempotency-key"] === undefined;
      // The fault: a write without the Idempotency-Key the seed calls mandatory is accepted like any other.
      const forgiven =
        options.fault === "idempotency-key-optional" && keyless && /Idempotency-Key/.test(call.invalid ?? "");
      if (options.fault === "malformed-json-500" && !parses(call.rawBody))
        return { status: 500, body: { error: "internal error" } };
      if (call.invalid && !forgiven) return { status: 400, body: { error: call.invalid } };
      switch (call.operationId) {
        case "getShop":
          return { status: 200, body: { payout_verified: true } };
        case "listCategories":
          return { status: 200, body: exampleOf("catalog", "listCategories") };
        case "createProduct": {
          const key = keyless ? `no key ${nextId}` : String(call.headers["idempotency-key"]);
          const known = options.fault === "idempotency-ignored" ? undefined : products.get(key);
          if (known) return { status: 200, body: known };
          const body = call.body as {
            title: string;
            status: string;
            variants: Array<{ title: string; prices: Array<{ amount: number; currency_code: string }> }>;
          };
          if (body.variants.some((v) => v.prices.some((p) => p.amount < 0 || p.amount > 1e12)))
            return { status: 422, body: { error: "amount out of range" } };
          const product = {
            id: `prod_${nextId++}`,
            title: options.fault === "title-trimmed" ? body.title.slice(0, 8) : body.title,
            status: body.status,
            variants: body.variants.map((variant) => ({
              title: variant.title,
              prices: variant.prices.map((price) => ({
                amount: price.amount.toFixed(2),
                currency_code: price.currency_code,
              })),
            })),
          };
          products.set(options.fault === "idempotency-ignored" ? `${key} ${product.id}` : key, product);
          return { status: 201, body: product };
        }
        default:
          return { status: 404, body: { error: "unknown endpoint" } };
      }
    },
    new Set([options.apiKey, ...(options.readApiKey ? [options.readApiKey] : [])]),
  );
  return { ...running, products };
}
