// A small payment gateway that keeps the contract (signed bodies checked with the default signer, single-use
// nonces, orders that appear in the order list) and breaks it in exactly one way when given a fault.
import { hmacSha256Signer } from "../../lib/pay-signature.js";
import { readCall, type Reply, type RunningServer, startServer } from "./http.js";
import { exampleOf } from "./links.js";

export const PAY_FAULTS = [
  "nonce-not-checked",
  "order-not-listed",
  "payment-id-not-order-id",
  "signature-not-checked",
  "paid-order-without-date",
] as const;
export type PayFault = (typeof PAY_FAULTS)[number];

export interface PayServer extends RunningServer {
  orders: Array<Record<string, unknown>>;
}

const PAGE_SIZE = 10;

function timestamp(date: Date): string {
  return date.toISOString().slice(0, 19).replace("T", " ");
}

/** `pageSize`: orders per listOrders page (10; a real gateway may send hundreds in one body). */
export async function startPayServer(options: {
  shopId: string;
  secret: string;
  fault?: PayFault;
  port?: number;
  pageSize?: number;
}): Promise<PayServer> {
  const pageSize = options.pageSize ?? PAGE_SIZE;
  const sign = hmacSha256Signer(options.secret);
  const usedNonces = new Set<number>();
  const orders = (exampleOf("pay", "listOrders") as { data: Array<Record<string, unknown>> }).data;
  const hidden = new Set<unknown>();
  let nextId = 920_000;
  const error = (status: number, desc: string): Reply => ({ status, body: { type: "error", desc } });
  const secretsSeen = new Set([options.secret]);
  const running = await startServer(
    options.port ?? 0,
    async (request): Promise<Reply> => {
      const call = await readCall("pay", request);
      if (!call) return error(404, "Unknown method");
      const signature = await sign(new TextEncoder().encode(call.rawBody));
      if (request.headers.authorization !== signature && options.fault !== "signature-not-checked")
        return error(401, "Invalid signature");
      secretsSeen.add(signature.replace(/^Bearer /, ""));
      if (call.invalid) return error(400, call.invalid);
      const body = call.body as {
        shop_id?: unknown;
        nonce: number;
        page?: number;
        amount?: unknown;
        payment_system?: number;
        order_id?: string;
        fields?: { email?: string };
      };
      if (body.shop_id !== options.shopId) return error(404, "Shop not found");
      if (options.fault !== "nonce-not-checked") {
        if (usedNonces.has(body.nonce)) return error(409, "Nonce must be unique for each request");
        usedNonces.add(body.nonce);
      }
      const success = (data: unknown): Reply => ({ status: 200, body: { type: "success", desc: "", data } });
      switch (call.operationId) {
        case "listShops":
          return success((exampleOf("pay", "listShops") as { data: unknown }).data);
        case "getBalance":
          return success((exampleOf("pay", "getBalance") as { data: unknown }).data);
        case "listOrders": {
          const page = body.page ?? 1;
          return success(orders.filter((order) => !hidden.has(order.id)).slice((page - 1) * pageSize, page * pageSize));
        }
        case "createOrder": {
          const amount = typeof body.amount === "number" ? body.amount : 0;
          if (!Number.isFinite(amount) || Math.abs(amount) > 1e12) return error(400, "amount out of range");
          const id = nextId++;
          orders.unshift({
            id,
            date_created: timestamp(new Date()),
            date_payed: null,
            // The seed has seen status 1 only with a date_payed timestamp.
            status: options.fault === "paid-order-without-date" ? 1 : 0,
            payment_system_id: body.payment_system ?? 1,
            currency_id: 1,
            amount: amount.toFixed(8),
            fee: "0.00000000",
            email: body.fields?.email ?? "",
            test_order: 1,
            payment_id: options.fault === "payment-id-not-order-id" ? `P-${id}` : (body.order_id ?? String(id)),
          });
          if (options.fault === "order-not-listed") hidden.add(id);
          return success({ id, url: `https://pay.example.com/order/${id}` });
        }
        default:
          return error(404, "Unknown method");
      }
    },
    secretsSeen,
  );
  return { ...running, orders };
}
