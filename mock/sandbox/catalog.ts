// The seller catalog API with real state: the key's shop, its category tree, product creation with real
// Idempotency-Key semantics, scopes enforced per key (fail-closed, from each operation's `security` in the
// contract), and a sandbox-only sale that sends the issuance event to the seller's URL and applies the reply rules.
import { hmacSha256Signer } from "../../lib/pay-signature.js";
import { requestSchemaPointer, responseSchemaPointer, schemaValidator } from "../../lib/openapi.js";
import type { SandboxConfig } from "./config.js";
import { assertImplemented, checkRequest, ContractRouter, type ContractRoute, routeRequest } from "./contract.js";
import { json, type SandboxApi, type SandboxRequest, type SandboxResponse } from "./http.js";
import { formatUnits, toUnits } from "./money.js";

export interface StoredProduct {
  id: string;
  title: string;
  delivery_type: string;
  category_id: string;
  thumbnail: string | null;
  status: string;
  variants: Array<{ id: string; title: string; prices: Array<{ amount: string; currency_code: string }> }>;
  created_at: string;
}

/** What happened to one simulated sale, after the seller's server replied (or did not). */
export interface Sale {
  id: string;
  product_id: string;
  variant_id: string;
  quantity: number;
  created_at: string;
  /** issued: 200 with items; answered: 200 with status; declined: 409 or 422; failed: anything else. */
  outcome: "issued" | "answered" | "declined" | "failed";
  /** Failed sales are refunded to the buyer. */
  refunded: boolean;
  items?: unknown[];
  answer?: unknown;
  reply: { http_status: number | null; body: string };
  reason: string;
}

export interface CatalogShop {
  id: string;
  name: string;
  payout_verified: boolean;
  /** Where issuance events of external_api products are sent (set in the config or with PATCH /_sandbox/shop). */
  issuance_url: string | null;
  categories: Array<{ id: string; name: string; parent_id: string | null }>;
  products: StoredProduct[];
  /** Idempotency-Key → the fingerprint of the body it was first used with and the product it created. */
  idempotency: Record<string, { fingerprint: string; status: number; product_id: string }>;
  sales: Sale[];
}

export interface CatalogState {
  shops: CatalogShop[];
  nextProduct: number;
  nextSale: number;
}

export const SANDBOX_PREFIX = "/_sandbox/";

export function seedCatalog(config: SandboxConfig["catalog"]): CatalogState {
  return {
    shops: config.shops.map((shop) => ({
      id: shop.id,
      name: shop.name,
      payout_verified: shop.payout_verified,
      issuance_url: shop.issuance_url,
      categories: structuredClone(shop.categories),
      products: [],
      idempotency: {},
      sales: [],
    })),
    nextProduct: 1,
    nextSale: 1,
  };
}

export interface CatalogApiOptions {
  config: SandboxConfig["catalog"];
  onChange?: () => void;
  /** How the issuance event is sent; defaults to the global fetch. */
  fetch?: typeof fetch;
}

interface Context {
  shop: CatalogShop;
  params: Record<string, any>;
  body: any;
}

/** JSON with object keys sorted, so that two bodies that differ only in key order have the same fingerprint. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value && typeof value === "object") {
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`)
      .join(",")}}`;
  }
  return JSON.stringify(value);
}

/** The scopes the contract's `security` requires for the operation (sellerApiKey: [...]). */
function requiredScopes(route: ContractRoute): string[] {
  const requirements = (route.op.operation.security ?? []) as Array<Record<string, string[]>>;
  return requirements.flatMap((requirement) => requirement.sellerApiKey ?? []);
}

export function createCatalogApi(state: CatalogState, options: CatalogApiOptions): SandboxApi {
  const router = new ContractRouter("catalog");
  const keys = new Map(options.config.keys.map((key) => [key.api_key, key]));
  const secrets = new Map(options.config.shops.map((shop) => [shop.id, shop.issuance_secret]));
  const send = options.fetch ?? ((input, init) => fetch(input, init));
  const changed = () => options.onChange?.();
  const refuse = (status: number, error: string, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}) => json(status, { error, ...extra }, headers);
  const validEvent = schemaValidator("catalog", requestSchemaPointer("catalog", "issueGoods"));
  const readableReply = schemaValidator("catalog", responseSchemaPointer("catalog", "issueGoods", "200"));

  const shopView = (shop: CatalogShop) => ({ id: shop.id, name: shop.name, payout_verified: shop.payout_verified });

  const handlers: Record<string, (context: Context) => SandboxResponse> = {
    getShop: ({ shop }) => json(200, shopView(shop)),
    listCategories: ({ shop }) => json(200, shop.categories),
    createProduct: ({ shop, params, body }) => {
      const key: string = params["Idempotency-Key"];
      const fingerprint = canonicalJson(body);
      const earlier = shop.idempotency[key];
      if (earlier) {
        if (earlier.fingerprint !== fingerprint) {
          return refuse(422, `Idempotency-Key ${key} was already used with a different request body; use a new key for a new product`);
        }
        const product = shop.products.find((row) => row.id === earlier.product_id)!;
        return json(earlier.status, product, { "idempotent-replayed": "true" });
      }
      if (!shop.categories.some((category) => category.id === body.category_id)) return refuse(422, `category_id: unknown category ${body.category_id}`);
      const prices = (body.variants as Array<{ prices: Array<{ amount: number }> }>).flatMap((variant) => variant.prices);
      const badPrice = prices.find((price) => price.amount < 0 || Math.abs(price.amount * 100 - Math.round(price.amount * 100)) > 1e-6);
      if (badPrice) return refuse(422, `amount ${badPrice.amount} must be 0 or more with at most two decimals (money is counted in minor units)`);
      const number = state.nextProduct++;
      const product: StoredProduct = {
        id: `prod_${String(number).padStart(6, "0")}`,
        title: body.title,
        delivery_type: body.delivery_type,
        category_id: body.category_id,
        thumbnail: body.thumbnail ?? null,
        status: body.status,
        variants: (body.variants as Array<{ title: string; prices: Array<{ amount: number; currency_code: string }> }>).map((variant, index) => ({
          id: `var_${String(number).padStart(6, "0")}_${index + 1}`,
          title: variant.title,
          prices: variant.prices.map((price) => ({ amount: formatUnits(toUnits(price.amount, 2), 2), currency_code: price.currency_code })),
        })),
        created_at: new Date().toISOString(),
      };
      shop.products.push(product);
      shop.idempotency[key] = { fingerprint, status: 201, product_id: product.id };
      changed();
      return json(201, product);
    },
  };
  assertImplemented(router, Object.keys(handlers));

  function authenticate(request: SandboxRequest) {
    const apiKey = request.headers.get("x-seller-api-key");
    if (!apiKey) return { refused: refuse(401, "the x-seller-api-key header is required") };
    const key = keys.get(apiKey);
    const shop = key && state.shops.find((row) => row.id === key.shop);
    if (!key || !shop) return { refused: refuse(401, "invalid API key") };
    return { key, shop };
  }

  function handleApi(request: SandboxRequest): SandboxResponse {
    const routing = routeRequest(router, request);
    if (!routing.ok) return refuse(routing.status, routing.message, {}, routing.headers);
    const auth = authenticate(request);
    if (auth.refused) return auth.refused;
    const missing = requiredScopes(routing.match.route).find((scope) => !auth.key.scopes.includes(scope));
    if (missing) return refuse(403, `missing scope: ${missing}`, { missing_scope: missing });
    const checked = checkRequest(routing.match, request);
    if (!checked.ok) return refuse(checked.status, checked.message);
    return handlers[routing.match.route.op.operationId]!({ shop: auth.shop, params: checked.params, body: checked.body });
  }

  // ---- sandbox-only endpoints (outside the contract): products list, shop settings, simulated sales ----

  function readJson(request: SandboxRequest): { ok: true; value: Record<string, unknown> } | { ok: false; response: SandboxResponse } {
    try {
      const value = request.body.byteLength === 0 ? {} : JSON.parse(new TextDecoder().decode(request.body));
      if (value && typeof value === "object" && !Array.isArray(value)) return { ok: true, value };
    } catch {
      // refused below
    }
    return { ok: false, response: refuse(400, "the body must be a JSON object") };
  }

  async function sell(shop: CatalogShop, body: Record<string, unknown>): Promise<SandboxResponse> {
    const product = shop.products.find((row) => row.id === body.product_id);
    if (!product) return refuse(404, `product_id: no product ${String(body.product_id)} in this shop`);
    if (product.delivery_type !== "external_api") return refuse(422, `product ${product.id} is not issued on the fly (delivery_type is ${product.delivery_type}, not external_api)`);
    const variant = body.variant_id === undefined ? product.variants[0] : product.variants.find((row) => row.id === body.variant_id);
    if (!variant) return refuse(404, `variant_id: no variant ${String(body.variant_id)} in product ${product.id}`);
    const quantity = body.quantity ?? 1;
    if (typeof quantity !== "number" || !Number.isInteger(quantity) || quantity < 1) return refuse(400, "quantity must be a whole number of at least 1");
    if (!shop.issuance_url) return refuse(409, "the shop has no issuance URL: set one with PATCH /_sandbox/shop {\"issuance_url\": \"...\"}");

    const sale: Sale = {
      id: `sale_${String(state.nextSale++).padStart(6, "0")}`,
      product_id: product.id,
      variant_id: variant.id,
      quantity,
      created_at: new Date().toISOString(),
      outcome: "failed",
      refunded: true,
      reply: { http_status: null, body: "" },
      reason: "",
    };
    // The event's payload, headers and signature are not shown by the provider: this shape is the sandbox's own.
    const event = { event: "sale", sale_id: sale.id, product_id: product.id, variant_id: variant.id, variant_title: variant.title, quantity, prices: variant.prices, created_at: sale.created_at };
    if (!validEvent(event)) throw new Error("the sandbox's issuance event does not match the contract");
    const bytes = new TextEncoder().encode(JSON.stringify(event));
    try {
      const reply = await send(shop.issuance_url, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: await hmacSha256Signer(secrets.get(shop.id) ?? "")(bytes) },
        body: bytes,
        signal: AbortSignal.timeout(options.config.issuanceTimeoutMs),
        redirect: "manual",
      });
      const text = await reply.text();
      sale.reply = { http_status: reply.status, body: text.slice(0, 2000) };
      Object.assign(sale, classifyReply(reply.status, text));
    } catch (error) {
      sale.reason = `no reply from ${shop.issuance_url}: ${(error as Error).message}`;
    }
    shop.sales.push(sale);
    changed();
    return json(200, sale);
  }

  /** The reply rules of the contract's `issuance` webhook; a 200 body must validate against its IssuanceReply. */
  function classifyReply(status: number, text: string): Pick<Sale, "outcome" | "refunded" | "reason" | "items" | "answer"> {
    if (status === 409 || status === 422) return { outcome: "declined", refunded: false, reason: `the seller declined with HTTP ${status}` };
    if (status !== 200) return { outcome: "failed", refunded: true, reason: `HTTP ${status} is not an answer; the buyer is refunded` };
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return { outcome: "failed", refunded: true, reason: "the reply is not readable JSON; the buyer is refunded" };
    }
    if (!readableReply(body)) return { outcome: "failed", refunded: true, reason: "the reply carries neither items nor status (e.g. a bare {}); the buyer is refunded" };
    const reply = body as { items?: unknown[]; status?: unknown };
    if (reply.items) return { outcome: "issued", refunded: false, reason: `${reply.items.length} item(s) issued`, items: reply.items };
    return { outcome: "answered", refunded: false, reason: "the seller answered with a status instead of items", answer: reply.status };
  }

  async function handleSandbox(request: SandboxRequest): Promise<SandboxResponse> {
    const auth = authenticate(request);
    if (auth.refused) return auth.refused;
    const { shop } = auth;
    const path = request.url.pathname.slice(SANDBOX_PREFIX.length);
    const route = `${request.method} ${path.replace(/^sales\/.+$/, "sales/:id")}`;
    switch (route) {
      case "GET products":
        return json(200, shop.products);
      case "GET shop":
        return json(200, { ...shopView(shop), issuance_url: shop.issuance_url });
      case "PATCH shop": {
        const body = readJson(request);
        if (!body.ok) return body.response;
        const { issuance_url, payout_verified } = body.value;
        if (issuance_url !== undefined && issuance_url !== null && (typeof issuance_url !== "string" || !URL.canParse(issuance_url))) return refuse(400, "issuance_url must be an absolute URL or null");
        if (payout_verified !== undefined && typeof payout_verified !== "boolean") return refuse(400, "payout_verified must be true or false");
        if (issuance_url !== undefined) shop.issuance_url = issuance_url as string | null;
        if (payout_verified !== undefined) shop.payout_verified = payout_verified;
        changed();
        return json(200, { ...shopView(shop), issuance_url: shop.issuance_url });
      }
      case "GET sales":
        return json(200, shop.sales);
      case "GET sales/:id": {
        const sale = shop.sales.find((row) => row.id === path.slice("sales/".length));
        return sale ? json(200, sale) : refuse(404, `no sale ${path.slice("sales/".length)}`);
      }
      case "POST sales": {
        const body = readJson(request);
        return body.ok ? sell(shop, body.value) : body.response;
      }
      default:
        return refuse(404, `no sandbox endpoint ${request.method} ${request.url.pathname}; see the README section "Stateful sandbox"`);
    }
  }

  return {
    handle: async (request) => (request.url.pathname.startsWith(SANDBOX_PREFIX) ? handleSandbox(request) : handleApi(request)),
    refuse: (status, message) => refuse(status, message),
  };
}
