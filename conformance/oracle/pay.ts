// An independent payment gateway, written from the commerce seed alone: every operation is a signed POST with
// shop_id and a nonce unique for each request (across all operations), answers carry type/desc/data, the order
// list shows each order with the shop's own label as payment_id. The signature is HMAC-SHA256 of the body bytes
// keyed with the shop's secret (the contract's choice; the seed does not show it). Each fault breaks one thing.
import { createHmac } from "node:crypto";
import type { RunningServer } from "../fault-servers/http.js";
import { type OracleReply, type OracleRequest, serveOracle } from "./serve.js";

export const ORACLE_PAY_FAULTS = [
  "order-without-payment-id",
  "nonce-per-endpoint",
  "nonce-unchecked-on-create",
  "answers-get",
  "slow-balance",
  "allow-lists-get",
] as const;
export type OraclePayFault = (typeof ORACLE_PAY_FAULTS)[number];

export interface OraclePayOptions {
  shopId: string;
  secret: string;
  fault?: OraclePayFault;
  port?: number;
  /** The HTTP status of createOrder's success: the seed shows no status codes, so 201 is as right as 200. */
  createdStatus?: number;
  /** Orders the shop already has: a gateway in use lists hundreds, over many pages of 10. */
  orderHistory?: number;
  /** The order list's order: newest first (the default), or oldest first (the seed shows none). */
  listOrder?: "newest-first" | "oldest-first";
  /**
   * The nonces taken: positive integers only (the default), or any number or string not used before, read by its
   * text (a numeric string included), as a gateway whose language reads JSON loosely does: the seed promises only
   * uniqueness.
   */
  nonceValues?: "integers" | "any-unique";
  /** Unique nonces (the seed's word), or each above the highest accepted so far, as many gateways require. */
  nonceOrder?: "unique" | "increasing";
}

interface PayState {
  usedNonces: Set<string>;
  /** The highest nonce accepted so far (nonceOrder "increasing"). */
  highestNonce: number;
  orders: Array<Record<string, unknown>>;
  nextId: number;
}

const fail = (status: number, desc: string): OracleReply => ({ status, body: { type: "error", desc } });
const success = (data: unknown): OracleReply => ({ status: 200, body: { type: "success", desc: "", data } });

const stamp = () => new Date().toISOString().slice(0, 19).replace("T", " ");

function newOrder(id: number, amount: number, order: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id,
    date_created: stamp(),
    date_payed: null,
    status: 0,
    payment_system_id: 1,
    currency_id: 1,
    amount: amount.toFixed(8),
    fee: "0.00000000",
    email: "",
    test_order: 1,
    payment_id: String(id),
    ...order,
  };
}

export async function startOraclePayServer(options: OraclePayOptions): Promise<RunningServer & { orders: unknown[] }> {
  const state: PayState = { usedNonces: new Set(), highestNonce: 0, orders: [], nextId: 700_001 };
  for (let n = 0; n < (options.orderHistory ?? 0); n++) state.orders.unshift(newOrder(state.nextId++, 10));
  const secretsSeen = new Set([options.secret]);
  const running = await serveOracle(options.port ?? 0, secretsSeen, async (request) => {
    const { method, url } = request;
    if (options.fault === "answers-get" && method === "GET")
      return { status: 200, body: { type: "success", desc: "", data: { user_id: 18452, balance: { USD: "12.50" } } } };
    if (options.fault === "slow-balance" && url.pathname === "/api/balance/")
      await new Promise((resolve) => setTimeout(resolve, 300));
    const refused = refuseUnsigned(options, state, secretsSeen, request);
    if (refused) return refused;
    const json = request.json!;
    switch (url.pathname) {
      case "/api/shops/":
        return success({ user_id: 18452, shops: [demoShop(options.shopId)] });
      case "/api/balance/":
        return success({ user_id: 18452, balance: { RUB: "0.00", USD: "12.50" } });
      case "/api/orders/": {
        const page = typeof json.page === "number" && json.page >= 1 ? Math.floor(json.page) : 1;
        return success(state.orders.slice((page - 1) * 10, page * 10));
      }
      case "/api/createOrder/":
        return createOrder(options, state, json);
      default:
        return fail(404, "Unknown method");
    }
  });
  return { ...running, orders: state.orders };
}

/**
 * The checks every operation makes before it answers: a POST signed with the shop's secret, for this shop, with a
 * nonce not used before. Returns the error reply, or undefined when the request may go on (its body is then JSON).
 */
function refuseUnsigned(
  options: OraclePayOptions,
  state: PayState,
  secretsSeen: Set<string>,
  { method, url, headers, text, json }: OracleRequest,
): OracleReply | undefined {
  const signature = `Bearer ${createHmac("sha256", options.secret).update(text).digest("hex")}`;
  // RFC 9110 §15.5.6: a 405 carries Allow, the methods the path supports.
  if (method !== "POST")
    return {
      ...fail(405, "Only POST is supported"),
      headers: { Allow: options.fault === "allow-lists-get" ? "GET" : "POST" },
    };
  if (headers.authorization !== signature) return fail(401, "Invalid signature");
  secretsSeen.add(signature.slice("Bearer ".length));
  if (!json) return fail(400, "The body must be a JSON object");
  if (String(json.shop_id) !== options.shopId) return fail(404, "Shop not found");
  const loose =
    options.nonceValues === "any-unique" && (typeof json.nonce === "string" || typeof json.nonce === "number");
  if (!loose && (typeof json.nonce !== "number" || !Number.isInteger(json.nonce) || json.nonce < 1))
    return fail(400, "nonce must be a positive integer");
  if (options.nonceOrder === "increasing") {
    if (!(Number(json.nonce) > state.highestNonce)) return fail(409, "Nonce must be greater than the last one used");
    state.highestNonce = Number(json.nonce);
  }
  const nonceKey =
    options.fault === "nonce-per-endpoint" ? `${url.pathname} ${String(json.nonce)}` : String(json.nonce);
  const nonceChecked = !(options.fault === "nonce-unchecked-on-create" && url.pathname === "/api/createOrder/");
  if (nonceChecked && state.usedNonces.has(nonceKey)) return fail(409, "Nonce must be unique for each request");
  state.usedNonces.add(nonceKey);
  return undefined;
}

function demoShop(shopId: string): Record<string, unknown> {
  return {
    id: Number(shopId),
    date_added: "2024-01-01 10:00:00",
    name: "Demo",
    url: "https://shop.example.com",
    status: 1,
    public_key: "pk_demo",
    desc: "",
  };
}

/** createOrder: the order joins the list, labelled with the shop's own order_id as payment_id when one is given. */
function createOrder(options: OraclePayOptions, state: PayState, json: Record<string, unknown>): OracleReply {
  const amount = typeof json.amount === "number" ? json.amount : 0;
  if (!Number.isFinite(amount) || Math.abs(amount) > 1e12) return fail(400, "amount out of range");
  const id = state.nextId++;
  const order: Record<string, unknown> = newOrder(id, amount, {
    ...(typeof json.payment_system === "number" ? { payment_system_id: json.payment_system } : {}),
    ...(typeof (json.fields as { email?: unknown } | undefined)?.email === "string"
      ? { email: (json.fields as { email: string }).email }
      : {}),
    ...(typeof json.order_id === "string" ? { payment_id: json.order_id } : {}),
  });
  if (options.fault === "order-without-payment-id") delete order.payment_id;
  if (options.listOrder === "oldest-first") state.orders.push(order);
  else state.orders.unshift(order);
  return { ...success({ id, url: `https://pay.example.com/order/${id}` }), status: options.createdStatus ?? 200 };
}
