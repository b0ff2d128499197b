// The payment gateway with real state: shops, paged orders, createOrder with a sandbox payment page where a
// person (or a test) pays or cancels, and balances that move when an order is paid. Every request must be signed
// with the default signer of lib/pay-signature.ts and carry a nonce the shop has not used.
import type { components } from "../../generated/types/pay.js";
import { loadContract } from "../../lib/contract/index.js";
import { hmacSha256Signer, type RequestSigner } from "../../lib/pay-signature.js";
import type { SandboxConfig } from "./config.js";
import { formatDateTime, json, omit, type SandboxApi, type SandboxRequest, type SandboxResponse } from "./http.js";
import { formatUnits, MAX_AMOUNT, percentOf, toUnits } from "./money.js";
import { type HandlerTable, OperationServer } from "./operations.js";
import { createPaymentPage } from "./pay-page.js";
import { ownValue } from "./records.js";
import { missingCredential } from "../refusals.js";

type Schemas = components["schemas"];

/** An order as stored: the contract's Order plus what the sandbox needs to show and pay it. */
export type StoredOrder = Schemas["Order"] & {
  shop_id: number;
  currency: string;
  cancelled: boolean;
  /** The secret of the order's payment page form (missing in orders of older data files until shown). */
  page_token?: string;
};

export interface PayState {
  user_id: number;
  shops: Schemas["Shop"][];
  orders: StoredOrder[];
  balance: Record<string, string>;
  /** The most recent nonces per shop id, ascending. */
  nonces: Record<string, number[]>;
  nextOrderId: number;
}

export const AMOUNT_DIGITS = 8;
export const BALANCE_DIGITS = 2;
/** How many recent nonces per shop are remembered; a nonce lower than all of them is refused as stale. */
export const NONCE_WINDOW = 64;
export const PAYMENT_PAGE_PREFIX = "/_sandbox/pay/";

/** The account, its shops, orders and balances from the contract's examples (the orders belong to the first shop). */
export function seedPay(config: SandboxConfig["pay"]): PayState {
  const contract = loadContract("pay");
  const shops = (contract.responseExample("listShops", "twoShops") as Schemas["ListShopsResponse"]).data;
  const orders = (contract.responseExample("listOrders", "paidAndUnpaidOrders") as Schemas["ListOrdersResponse"]).data;
  const balance = (contract.responseExample("getBalance", "balances") as Schemas["GetBalanceResponse"]).data;
  const currencyCodes = new Map(Object.entries(config.currencies).map(([code, id]) => [id, code]));
  return {
    user_id: shops.user_id,
    shops: shops.shops,
    orders: orders.map((order) => ({
      ...order,
      shop_id: shops.shops[0]!.id,
      currency: currencyCodes.get(order.currency_id) ?? "RUB",
      cancelled: false,
    })),
    balance: balance.balance,
    nonces: {},
    nextOrderId: Math.max(...orders.map((order) => order.id)) + 1,
  };
}

/** A new order's page token: 128 random bits (Web Crypto, so that the MSW handlers run in a browser too). */
export function newPageToken(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, "0")).join("");
}

export interface PayApiOptions {
  config: SandboxConfig["pay"];
  /** The address this API is reached at, for the payment links it hands out. */
  baseUrl: () => string;
  now?: () => Date;
  onChange?: () => void;
}

interface Context {
  state: PayState;
  shop: Schemas["Shop"];
  options: PayApiOptions;
  now: () => Date;
}

const success = <T>(data: T) => ({ status: 200 as const, body: { type: "success" as const, desc: "", data } });
const fail = (status: number, desc: string) => ({ status, body: { type: "error", desc } });
const publicOrder = (order: StoredOrder): Schemas["Order"] =>
  omit(order, "shop_id", "currency", "cancelled", "page_token");

const handlers: HandlerTable<"pay", Context> = {
  listShops: ({ context: { state } }) => success({ user_id: state.user_id, shops: state.shops }),
  getBalance: ({ context: { state } }) => success({ user_id: state.user_id, balance: state.balance }),
  listOrders: ({ body, context: { state, shop, options } }) => {
    const size = options.config.ordersPerPage;
    const pageNumber = body.page ?? 1;
    const orders = state.orders.filter((order) => order.shop_id === shop.id).sort((a, b) => b.id - a.id);
    return success(orders.slice((pageNumber - 1) * size, pageNumber * size).map(publicOrder));
  },
  createOrder: ({ body, context: { state, shop, options, now } }) => {
    const currency = body.currency ?? "";
    const currencyId = ownValue(options.config.currencies, currency);
    if (currencyId === undefined)
      return fail(
        400,
        `currency must be one of ${Object.keys(options.config.currencies).join(", ")} (the sandbox requires it)`,
      );
    const amount =
      typeof body.amount === "number" && body.amount > 0 && body.amount <= MAX_AMOUNT
        ? toUnits(body.amount, AMOUNT_DIGITS)
        : 0n;
    // An amount that rounds to 0 in the gateway's 8 decimals would be an order of nothing.
    if (amount <= 0n)
      return fail(
        400,
        `amount must be a number of at least 0.${"0".repeat(AMOUNT_DIGITS - 1)}1 and at most 1e12 (the sandbox requires it)`,
      );
    const order: StoredOrder = {
      id: state.nextOrderId++,
      date_created: formatDateTime(now()),
      date_payed: null,
      status: 0,
      payment_system_id: body.payment_system ?? options.config.defaultPaymentSystem,
      currency_id: currencyId,
      amount: formatUnits(amount, AMOUNT_DIGITS),
      fee: formatUnits(percentOf(amount, options.config.feePercent), AMOUNT_DIGITS),
      email: typeof body.fields?.email === "string" ? body.fields.email : "",
      test_order: 1,
      payment_id: body.order_id ?? "",
      shop_id: shop.id,
      currency,
      cancelled: false,
      page_token: newPageToken(),
    };
    state.orders.push(order);
    options.onChange?.();
    return success({ id: order.id, url: `${options.baseUrl()}${PAYMENT_PAGE_PREFIX}${order.id}` });
  },
};

export function createPayApi(state: PayState, options: PayApiOptions): SandboxApi {
  const server = new OperationServer("pay", handlers);
  const signers = new Map<string, RequestSigner>(
    options.config.keys.map((key) => [key.shop_id, hmacSha256Signer(key.api_key)]),
  );
  const now = options.now ?? (() => new Date());
  const changed = () => options.onChange?.();
  const refuse = (status: number, desc: string, headers: Record<string, string> = {}) =>
    json(status, { type: "error", desc }, headers);

  async function signatureMatches(shopId: string, authorization: string | null, body: Uint8Array): Promise<boolean> {
    const signer = signers.get(shopId);
    if (!signer || authorization === null) return false;
    return constantTimeEqual(await signer(new Uint8Array(body)), authorization);
  }

  /** Records the nonce, or says why it is refused: already used, or older than every remembered one. */
  function acceptNonce(shopId: string, nonce: number): string | undefined {
    const recent = (state.nonces[shopId] ??= []);
    if (recent.includes(nonce)) return `Nonce must be unique for each request: ${nonce} was already used`;
    if (recent.length >= NONCE_WINDOW && nonce < recent[0]!)
      return `Nonce ${nonce} is older than the shop's recent nonces; send a larger one`;
    recent.push(nonce);
    recent.sort((a, b) => a - b);
    if (recent.length > NONCE_WINDOW) recent.splice(0, recent.length - NONCE_WINDOW);
    return undefined;
  }

  async function handleApi(request: SandboxRequest): Promise<SandboxResponse> {
    const routing = server.route(request);
    if (!routing.ok) return refuse(routing.status, routing.message, routing.headers);
    // Named as the mock names it; a signature that does not match is the provider's "Invalid signature" below.
    if (!request.headers.get("authorization")) return refuse(401, missingCredential("pay", routing.match.operation));
    const checked = server.check(routing.match, request);
    if (!checked.ok) return refuse(checked.status, checked.message);
    const body = checked.body as { shop_id: string; nonce: number };
    const shop = state.shops.find((row) => String(row.id) === body.shop_id);
    if (!shop || !signers.has(body.shop_id)) return refuse(404, "Shop not found");
    if (!(await signatureMatches(body.shop_id, request.headers.get("authorization"), request.body)))
      return refuse(401, "Invalid signature");
    const nonceProblem = acceptNonce(body.shop_id, body.nonce);
    if (nonceProblem) return refuse(409, nonceProblem);
    changed();
    return server.dispatch(checked, { state, shop, options, now });
  }

  const paymentPage = createPaymentPage(state, now, changed);

  return {
    handle: async (request) =>
      request.url.pathname.startsWith(PAYMENT_PAGE_PREFIX) ? paymentPage(request) : handleApi(request),
    refuse: (status, message) => refuse(status, message),
  };
}

/**
 * Compares two strings in time that depends on their length only, so that a signature cannot be guessed byte by byte.
 */
export function constantTimeEqual(expected: string, received: string): boolean {
  let difference = expected.length ^ received.length;
  for (let i = 0; i < expected.length; i++)
    difference |= expected.charCodeAt(i) ^ received.charCodeAt(i % Math.max(1, received.length));
  return difference === 0;
}
