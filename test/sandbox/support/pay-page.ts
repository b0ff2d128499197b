// Pays or cancels an order as a buyer does: opens the order's payment page and submits its form (which carries the
// order's page token), rather than posting to the page's address blindly.
export interface PaymentForm {
  action: string;
  token: string;
}

export async function readPaymentForm(url: string): Promise<PaymentForm> {
  const html = await (await fetch(url)).text();
  const form = /<form method="post" action="([^"]+)">\s*<input type="hidden" name="token" value="([^"]*)">/.exec(html);
  if (!form) throw new Error(`no payment form on ${url}:\n${html}`);
  return { action: new URL(form[1]!, url).href, token: form[2]! };
}

/** Submits a form read earlier (a second submission of the same form, for instance). */
export function postPaymentForm(form: PaymentForm, action: "pay" | "cancel", init: RequestInit = {}) {
  return fetch(form.action, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ token: form.token, action }).toString(),
    ...init,
  });
}

export async function submitPaymentPage(url: string, action: "pay" | "cancel", init: RequestInit = {}) {
  return postPaymentForm(await readPaymentForm(url), action, init);
}
