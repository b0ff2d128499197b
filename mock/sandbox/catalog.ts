// The seller catalog API with real state: the key's shop, its category tree, product creation with real
// Idempotency-Key semantics, scopes enforced per key (fail-closed, from each operation's `security` in the
// contract), and a sandbox-only sale that sends the issuance event to the seller's URL and applies the reply rules.
import type { OperationInfo } from "../../lib/contract/index.js";
import { canonicalJson } from "../../lib/canonical-json.js";
import { createSalesEndpoints, SANDBOX_PREFIX } from "./catalog-sales.js";
import type { SandboxConfig } from "./config.js";
import { json, type SandboxApi, type SandboxRequest, type SandboxResponse } from "./http.js";
import { formatUnits, fractionDigits, MAX_AMOUNT, toUnits } from "./money.js";
import { type HandlerTable, OperationServer } from "./operations.js";
import { ownValue, setOwnValue } from "./records.js";

export type StoredProduct = {
  id: string;
  title: string;
  delivery_type: string;
  category_id: string;
  thumbnail: string | null;
  status: string;
  variants: Array<{ id: string; title: string; prices: Array<{ amount: string; currency_code: string }> }>;
  created_at: string;
};

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
  /**
   * Idempotency-Key → the fingerprint (SHA-256 of the canonical JSON) of the body it was first used with and the
   * product it created.
   */
  idempotency: Record<string, { fingerprint: string; status: number; product_id: string }>;
  sales: Sale[];
}

export interface CatalogState {
  shops: CatalogShop[];
  nextProduct: number;
  nextSale: number;
}

export { SANDBOX_PREFIX };

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
  state: CatalogState;
  shop: CatalogShop;
  changed: () => void;
}

/** The scopes the contract's `security` requires for the operation (sellerApiKey: [...]). */
function requiredScopes(operation: OperationInfo): string[] {
  return (operation.operation.security ?? []).flatMap((requirement) => requirement.sellerApiKey ?? []);
}

// The API's answers carry what the contract documents and no field of the sandbox's own (issue 36: `contracts
// conform` against the sandbox observed them as undocumented): the seeds show the shop's payout_verified, a
// category's parent_id (and the contract assumes its `id`), and of the product only the shape of its prices (and
// the assumed `id`). The full rows stay in the sandbox, under /_sandbox/.
export const shopView = (shop: CatalogShop) => ({ payout_verified: shop.payout_verified });

const categoryView = (category: CatalogShop["categories"][number]) => ({
  id: category.id,
  parent_id: category.parent_id,
});

const productView = (product: StoredProduct) => ({
  id: product.id,
  variants: product.variants.map((variant) => ({ prices: variant.prices.map(({ amount }) => ({ amount })) })),
});

/**
 * Hex SHA-256 with Web Crypto (the MSW handlers run in browsers too): a fingerprint of fixed size, whatever the body.
 */
async function sha256Hex(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

const unprocessable = (error: string) => ({ status: 422, body: { error } });
/** Prices are two-decimal strings in responses (the contract's Price). */
const PRICE_DIGITS = 2;

/** The refusal of a price the sandbox cannot count in minor units, if any (the same range as pay's amounts). */
function priceProblem(variants: Array<{ prices: Array<{ amount: number }> }>): string | undefined {
  const fits = (amount: number) => amount >= 0 && amount <= MAX_AMOUNT && fractionDigits(amount) <= PRICE_DIGITS;
  const bad = variants.flatMap((variant) => variant.prices).find((price) => !fits(price.amount));
  return (
    bad &&
    `amount ${bad.amount} must be a number from 0 to 1e12 with at most two decimals (the sandbox requires it; money is counted in minor units)`
  );
}

const handlers: HandlerTable<"catalog", Context> = {
  getShop: ({ context }) => ({ status: 200, body: shopView(context.shop) }),
  listCategories: ({ context }) => ({ status: 200, body: context.shop.categories.map(categoryView) }),
  createProduct: async ({ params, body, context: { shop, state, changed } }) => {
    const key = params["Idempotency-Key"];
    const canonical = canonicalJson(body);
    const fingerprint = await sha256Hex(canonical);
    const earlier = ownValue(shop.idempotency, key);
    if (earlier) {
      // Data files of older sandboxes kept the canonical body itself as the fingerprint.
      if (earlier.fingerprint !== fingerprint && earlier.fingerprint !== canonical)
        return unprocessable(
          `Idempotency-Key ${key} was already used with a different request body; use a new key for a new product`,
        );
      const product = shop.products.find((row) => row.id === earlier.product_id);
      if (!product) throw new Error(`the sandbox lost product ${earlier.product_id}`);
      // The same answer again, and nothing that says it is a replay: the contract documents no such header.
      return { status: earlier.status, body: productView(product) };
    }
    if (!shop.categories.some((category) => category.id === body.category_id))
      return unprocessable(`category_id: unknown category ${body.category_id}`);
    const badPrice = priceProblem(body.variants);
    if (badPrice) return unprocessable(badPrice);
    const number = String(state.nextProduct++).padStart(6, "0");
    const product: StoredProduct = {
      id: `prod_${number}`,
      title: body.title,
      delivery_type: body.delivery_type,
      category_id: body.category_id,
      thumbnail: body.thumbnail ?? null,
      status: body.status,
      variants: body.variants.map((variant, index) => ({
        id: `var_${number}_${index + 1}`,
        title: variant.title,
        prices: variant.prices.map((price) => ({
          amount: formatUnits(toUnits(price.amount, PRICE_DIGITS), PRICE_DIGITS),
          currency_code: price.currency_code,
        })),
      })),
      created_at: new Date().toISOString(),
    };
    shop.products.push(product);
    // 200: the contract's assumed success status (data files of older sandboxes keep the 201 they answered then).
    setOwnValue(shop.idempotency, key, { fingerprint, status: 200, product_id: product.id });
    changed();
    return { status: 200, body: productView(product) };
  },
};

export function createCatalogApi(state: CatalogState, options: CatalogApiOptions): SandboxApi {
  const server = new OperationServer("catalog", handlers);
  const keys = new Map(options.config.keys.map((key) => [key.api_key, key]));
  const changed = () => options.onChange?.();
  const refuse = (
    status: number,
    error: string,
    extra: Record<string, unknown> = {},
    headers: Record<string, string> = {},
  ) => json(status, { error, ...extra }, headers);

  function authenticate(request: SandboxRequest) {
    const apiKey = request.headers.get("x-seller-api-key");
    if (!apiKey) return { refused: refuse(401, "the x-seller-api-key header is required") };
    const key = keys.get(apiKey);
    const shop = key && state.shops.find((row) => row.id === key.shop);
    if (!key || !shop) return { refused: refuse(401, "invalid API key") };
    return { key, shop };
  }

  async function handleApi(request: SandboxRequest): Promise<SandboxResponse> {
    const routing = server.route(request);
    if (!routing.ok) return refuse(routing.status, routing.message, {}, routing.headers);
    const auth = authenticate(request);
    if (auth.refused) return auth.refused;
    const missing = requiredScopes(routing.match.operation).find((scope) => !auth.key.scopes.includes(scope));
    // Named in `error`, as the contract's example does (clients read the scope from the words).
    if (missing) return refuse(403, `missing scope: ${missing}`);
    const checked = server.check(routing.match, request);
    if (!checked.ok) return refuse(checked.status, checked.message);
    return server.dispatch(checked, { state, shop: auth.shop, changed });
  }

  const handleSandbox = createSalesEndpoints(state, options, { authenticate, refuse, changed });
  return {
    handle: async (request) =>
      request.url.pathname.startsWith(SANDBOX_PREFIX) ? handleSandbox(request) : handleApi(request),
    refuse: (status, message) => refuse(status, message),
  };
}
