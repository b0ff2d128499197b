// The sandbox's payment page (outside the contract): where a person, or a test, pays or cancels an order created
// with createOrder; paying moves the shop's balance by the amount less the fee. Its links are relative (./<id>),
// so the page also works below a path prefix (MSW handlers at a dev proxy's /api/pay). Only the page itself can pay:
// its form carries the order's own random token (a page of another origin cannot read it), a POST that a browser
// marks as coming from another origin is refused, and the page may not be framed (no clickjacking).
import { parseForm } from "../../lib/contract/index.js";
import { escapeHtml, formatDateTime, html, page, redirect, type SandboxRequest, type SandboxResponse } from "./http.js";
import { formatUnits, parseUnits, rescale } from "./money.js";
import {
  AMOUNT_DIGITS,
  BALANCE_DIGITS,
  constantTimeEqual,
  newPageToken,
  PAYMENT_PAGE_PREFIX,
  type PayState,
  type StoredOrder,
} from "./pay.js";

/** What every payment page answer carries: never framed by another page, never cached. */
const PAGE_HEADERS = {
  "content-security-policy": "frame-ancestors 'none'",
  "x-frame-options": "DENY",
  "cache-control": "no-store",
};

/** Why a POST is not the page's own form, if it is not: another origin's page, or a token that is not the order's. */
function foreignPost(request: SandboxRequest, order: StoredOrder, token: unknown): string | undefined {
  const origin = request.headers.get("origin");
  const host = request.headers.get("host");
  const ownOrigins = [request.url.origin, ...(host ? [`http://${host}`, `https://${host}`] : [])];
  const fetchSite = request.headers.get("sec-fetch-site");
  if (
    (origin !== null && !ownOrigins.includes(origin)) ||
    (fetchSite !== null && !["same-origin", "none"].includes(fetchSite))
  )
    return "This order can only be paid on its own payment page, not from another site.";
  if (typeof token !== "string" || !order.page_token || !constantTimeEqual(order.page_token, token))
    return "This form is not from this order's payment page; open the page and use its buttons.";
  return undefined;
}

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
<input type="hidden" name="token" value="${escapeHtml(order.page_token ?? "")}">
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
    PAGE_HEADERS,
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
    if (request.method === "GET") {
      if (!order.page_token) {
        order.page_token = newPageToken(); // orders of older data files get theirs when first shown
        changed();
      }
      return orderPage(state, order);
    }
    if (request.method !== "POST")
      return html(405, page("Not allowed", "<h1>Use GET or POST</h1>"), { allow: "GET, POST" });
    const form = parseForm(request.body);
    const foreign = foreignPost(request, order, form.token);
    if (foreign) return html(403, page("Refused", `<h1>Refused</h1><p>${escapeHtml(foreign)}</p>`), PAGE_HEADERS);
    const action = form.action;
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
