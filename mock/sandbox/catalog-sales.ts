// The catalog sandbox's own endpoints under /_sandbox/ (outside the contract): the shop's products and settings,
// and simulated sales that send the signed issuance event to the seller's URL and apply the contract's reply rules.
import { hmacSha256Signer } from "../../lib/pay-signature.js";
import { joinPointer, loadContract } from "../../lib/contract/index.js";
import type { CatalogApiOptions, CatalogShop, CatalogState, Sale } from "./catalog.js";
import { DEFAULT_MAX_BODY_BYTES, json, type SandboxRequest, type SandboxResponse } from "./http.js";

export const SANDBOX_PREFIX = "/_sandbox/";

interface SalesDeps {
  authenticate(request: SandboxRequest): { refused: SandboxResponse } | { refused?: undefined; shop: CatalogShop };
  refuse(status: number, error: string): SandboxResponse;
  changed(): void;
}

type JsonObject = Record<string, unknown>;

const shopSettings = (shop: CatalogShop) => ({
  id: shop.id,
  name: shop.name,
  payout_verified: shop.payout_verified,
  issuance_url: shop.issuance_url,
});

function issuanceValidators() {
  const catalog = loadContract("catalog");
  const issueGoods = catalog.operation("issueGoods");
  return {
    validEvent: catalog.validator(
      joinPointer(issueGoods.pointer, "requestBody", "content", "application/json", "schema"),
    ),
    readableReply: catalog.validator(
      joinPointer(issueGoods.pointer, "responses", "200", "content", "application/json", "schema"),
    ),
  };
}

/** The reply rules of the contract's `issuance` webhook; a 200 body must validate against its IssuanceReply. */
function classifyReply(
  status: number,
  text: string,
): Pick<Sale, "outcome" | "refunded" | "reason" | "items" | "answer"> {
  if (status === 409 || status === 422)
    return { outcome: "declined", refunded: false, reason: `the seller declined with HTTP ${status}` };
  if (status !== 200)
    return { outcome: "failed", refunded: true, reason: `HTTP ${status} is not an answer; the buyer is refunded` };
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return { outcome: "failed", refunded: true, reason: "the reply is not readable JSON; the buyer is refunded" };
  }
  if (!issuanceValidators().readableReply(body))
    return {
      outcome: "failed",
      refunded: true,
      reason: "the reply carries neither items nor status (e.g. a bare {}); the buyer is refunded",
    };
  const reply = body as { items?: unknown[]; status?: unknown };
  if (reply.items)
    return { outcome: "issued", refunded: false, reason: `${reply.items.length} item(s) issued`, items: reply.items };
  return {
    outcome: "answered",
    refunded: false,
    reason: "the seller answered with a status instead of items",
    answer: reply.status,
  };
}

function readJson(request: SandboxRequest): JsonObject | undefined {
  try {
    const value: unknown = request.body.byteLength === 0 ? {} : JSON.parse(new TextDecoder().decode(request.body));
    if (value && typeof value === "object" && !Array.isArray(value)) return value as JsonObject;
  } catch {
    // refused by the caller
  }
  return undefined;
}

/** The first bytes of a reply as text, up to `limit`; `overrun` when there was more (the rest is never read). */
async function readCapped(reply: Response, limit: number): Promise<{ text: string; overrun: boolean }> {
  if (Number(reply.headers.get("content-length") ?? 0) > limit) {
    await reply.body?.cancel();
    return { text: "", overrun: true };
  }
  const decoder = new TextDecoder();
  let text = "";
  let size = 0;
  for (const reader = reply.body?.getReader(); reader;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      return { text, overrun: true };
    }
    text += decoder.decode(value, { stream: true });
  }
  return { text: text + decoder.decode(), overrun: false };
}

/** Sends the signed issuance event of a sale and records what the seller's reply means. */
async function deliver(
  sale: Sale,
  event: JsonObject,
  shop: CatalogShop & { issuance_url: string },
  options: CatalogApiOptions,
): Promise<void> {
  const secret = options.config.shops.find((row) => row.id === shop.id)?.issuance_secret ?? "";
  const send = options.fetch ?? ((input, init) => fetch(input, init));
  const bytes = new TextEncoder().encode(JSON.stringify(event));
  try {
    const reply = await send(shop.issuance_url, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: await hmacSha256Signer(secret)(bytes) },
      body: bytes,
      signal: AbortSignal.timeout(options.config.issuanceTimeoutMs),
      redirect: "manual",
    });
    // Capped like request bodies: a seller's reply is echoed in the sale and kept in the state (and its data file).
    const { text, overrun } = await readCapped(reply, DEFAULT_MAX_BODY_BYTES);
    sale.reply = { http_status: reply.status, body: text.slice(0, 2000) };
    if (overrun)
      sale.reason = `the reply is larger than ${DEFAULT_MAX_BODY_BYTES} bytes, so it was not read; the buyer is refunded`;
    else Object.assign(sale, classifyReply(reply.status, text));
  } catch (error) {
    sale.reason = `no reply from ${shop.issuance_url}: ${(error as Error).message}`;
  }
}

async function sell(
  state: CatalogState,
  shop: CatalogShop,
  body: JsonObject,
  options: CatalogApiOptions,
  deps: SalesDeps,
): Promise<SandboxResponse> {
  const product = shop.products.find((row) => row.id === body.product_id);
  if (!product) return deps.refuse(404, `product_id: no product ${String(body.product_id)} in this shop`);
  if (product.delivery_type !== "external_api")
    return deps.refuse(
      422,
      `product ${product.id} is not issued on the fly (delivery_type is ${product.delivery_type}, not external_api)`,
    );
  const variant =
    body.variant_id === undefined ? product.variants[0] : product.variants.find((row) => row.id === body.variant_id);
  if (!variant) return deps.refuse(404, `variant_id: no variant ${String(body.variant_id)} in product ${product.id}`);
  const quantity = body.quantity ?? 1;
  if (typeof quantity !== "number" || !Number.isInteger(quantity) || quantity < 1)
    return deps.refuse(400, "quantity must be a whole number of at least 1");
  const issuanceUrl = shop.issuance_url;
  if (!issuanceUrl)
    return deps.refuse(409, 'the shop has no issuance URL: set one with PATCH /_sandbox/shop {"issuance_url": "..."}');
  const created_at = new Date().toISOString();
  const sale: Sale = {
    id: `sale_${String(state.nextSale++).padStart(6, "0")}`,
    product_id: product.id,
    variant_id: variant.id,
    quantity,
    created_at,
    outcome: "failed",
    refunded: true,
    reply: { http_status: null, body: "" },
    reason: "",
  };
  // The event's payload, headers and signature are not shown by the provider: this shape is the sandbox's own.
  const event = {
    event: "sale",
    sale_id: sale.id,
    product_id: product.id,
    variant_id: variant.id,
    variant_title: variant.title,
    quantity,
    prices: variant.prices,
    created_at,
  };
  if (!issuanceValidators().validEvent(event))
    throw new Error("the sandbox's issuance event does not match the contract");
  await deliver(sale, event, { ...shop, issuance_url: issuanceUrl }, options);
  shop.sales.push(sale);
  deps.changed();
  return json(200, sale);
}

function patchShop(shop: CatalogShop, body: JsonObject, deps: SalesDeps): SandboxResponse {
  const { issuance_url, payout_verified } = body;
  if (
    issuance_url !== undefined &&
    issuance_url !== null &&
    (typeof issuance_url !== "string" || !URL.canParse(issuance_url))
  )
    return deps.refuse(400, "issuance_url must be an absolute URL or null");
  if (payout_verified !== undefined && typeof payout_verified !== "boolean")
    return deps.refuse(400, "payout_verified must be true or false");
  if (issuance_url !== undefined) shop.issuance_url = issuance_url;
  if (payout_verified !== undefined) shop.payout_verified = payout_verified;
  deps.changed();
  return json(200, shopSettings(shop));
}

/** The handler of every /_sandbox/ request. */
export function createSalesEndpoints(
  state: CatalogState,
  options: CatalogApiOptions,
  deps: SalesDeps,
): (request: SandboxRequest) => Promise<SandboxResponse> {
  return async (request) => {
    const auth = deps.authenticate(request);
    if (auth.refused) return auth.refused;
    const { shop } = auth;
    const path = request.url.pathname.slice(SANDBOX_PREFIX.length);
    const notJson = () => deps.refuse(400, "the body must be a JSON object");
    switch (`${request.method} ${path.replace(/^sales\/.+$/, "sales/:id")}`) {
      case "GET products":
        return json(200, shop.products);
      case "GET shop":
        return json(200, shopSettings(shop));
      case "PATCH shop": {
        const body = readJson(request);
        return body ? patchShop(shop, body, deps) : notJson();
      }
      case "GET sales":
        return json(200, shop.sales);
      case "GET sales/:id": {
        const sale = shop.sales.find((row) => row.id === path.slice("sales/".length));
        return sale ? json(200, sale) : deps.refuse(404, `no sale ${path.slice("sales/".length)}`);
      }
      case "POST sales": {
        const body = readJson(request);
        return body ? sell(state, shop, body, options, deps) : notJson();
      }
      default:
        return deps.refuse(
          404,
          `no sandbox endpoint ${request.method} ${request.url.pathname}; see docs/guide/sandbox.md`,
        );
    }
  };
}
