// The sandbox's payment page (outside the contract): where a person, or a test, pays or cancels an order created
// with createOrder; paying moves the shop's balance by the amount less the fee. Its links are relative (./<id>),
// so the page also works below a path prefix (MSW handlers at a dev proxy's /api/pay).
import { parseForm } from "../../lib/contract/index.js";
import { escapeHtml, formatDateTime, html, page, redirect, type SandboxRequest, type SandboxResponse } from "./http.js";
import { formatUnits, parseUnits, rescale } from "./money.js";
import { AMOUNT_DIGITS, BALANCE_DIGITS, PAYMENT_PAGE_PREFIX, type PayState, type StoredOrder } from "./pay.js";

function orderPage(state: PayState, order: StoredOrder, status = 200): SandboxResponse {
  const shop = state.shops.find((row) => row.id === order.shop_id);
  const outcome =
    order.status === 1
      ? `Paid on ${order.date_payed} (UTC).`
      : order.cancelled
        ? "The payment was cancelled."
        : "Waiting for payment.";
  const actions =
    order.status === 0 && !order.cancelled
      ? `<form method="post" action="./${order.id}">
<button type="submit" name="action" value="pay">Pay ${escapeHtml(order.amount)} ${escapeHtml(order.currency)}</button>
<button type="submit" name="action" value="cancel">Cancel</button>
</form>`
      : "";
  return html(
    status,
    page(
      `Order ${order.id}`,
      `<h1>Pay ${escapeHtml(shop?.name ?? "the shop")}</h1>
<dl><dt>Order</dt><dd>${order.id} (${escapeHtml(order.payment_id || "no shop label")})</dd>
<dt>Amount</dt><dd>${escapeHtml(order.amount)} ${escapeHtml(order.currency)}</dd>
<dt>Buyer</dt><dd>${escapeHtml(order.email || "not given")}</dd>
<dt>Status</dt><dd id="status">${escapeHtml(outcome)}</dd></dl>
${actions}`,
    ),
  );
}

/** The handler of the payment pages: GET shows an order, POST action=pay|cancel settles it. */
export function createPaymentPage(
  state: PayState,
  now: () => Date,
  changed: () => void,
): (request: SandboxRequest) => SandboxResponse {
  return (request) => {
    const id = request.url.pathname.slice(PAYMENT_PAGE_PREFIX.length);
    const order = /^\d+$/.test(id) ? state.orders.find((row) => row.id === Number(id)) : undefined;
    if (!order)
      return html(404, page("Unknown order", `<h1>Unknown order</h1><p>There is no order ${escapeHtml(id)}.</p>`));
    if (request.method === "GET") return orderPage(state, order);
    if (request.method !== "POST")
      return html(405, page("Not allowed", "<h1>Use GET or POST</h1>"), { allow: "GET, POST" });
    const action = parseForm(request.body).action;
    if (order.status !== 0 || order.cancelled) return orderPage(state, order, 409);
    if (action === "pay") {
      order.status = 1;
      order.date_payed = formatDateTime(now());
      const net = rescale(
        parseUnits(order.amount, AMOUNT_DIGITS) - parseUnits(order.fee, AMOUNT_DIGITS),
        AMOUNT_DIGITS,
        BALANCE_DIGITS,
      );
      const before = parseUnits(state.balance[order.currency] ?? "0.00", BALANCE_DIGITS);
      state.balance[order.currency] = formatUnits(before + net, BALANCE_DIGITS);
    } else if (action === "cancel") {
      order.cancelled = true;
    } else {
      return html(400, page("Unknown action", `<h1>Unknown action</h1><p>Send action=pay or action=cancel.</p>`));
    }
    changed();
    return redirect(`./${order.id}`);
  };
}
