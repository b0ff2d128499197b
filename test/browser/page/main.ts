// The page of test/browser/clients-msw.test.ts, bundled for the browser by esbuild: the pay and links clients as an
// integrator's frontend uses them, answered by the MSW handlers (the sandbox) through MSW's service worker. Every
// call below is type-checked by `npm run check:ts` like any other file of the repository.
import { setupWorker } from "msw/browser";
import { createLinksClient, LinksApiError } from "../../../clients/links.js";
import { createPayClient, PayApiError } from "../../../clients/pay.js";
import { createSandboxHandlers } from "../../../mock/msw.js";

const urls = {
  links: "http://links.browser.test",
  catalog: "http://catalog.browser.test",
  pay: "http://pay.browser.test",
};

async function errorOf(call: () => Promise<unknown>): Promise<string> {
  try {
    await call();
    return "no error";
  } catch (error) {
    return `${(error as Error).name}: ${(error as Error).message}`;
  }
}

async function run() {
  const worker = setupWorker(...createSandboxHandlers({ baseUrls: urls }));
  await worker.start({ serviceWorker: { url: "/mockServiceWorker.js" }, onUnhandledRequest: "error", quiet: true });

  const links = createLinksClient({ baseUrl: urls.links, apiKey: "demo-links-key" });
  const created = await links.POST("/api/campaign/add", { body: { name: "From the browser", slug: "browser" } });
  const campaigns = await links.GET("/api/campaigns");
  const expired = await errorOf(() =>
    createLinksClient({ baseUrl: urls.links, apiKey: "expired-links-key" }).GET("/api/account"),
  );

  const pay = createPayClient({ baseUrl: urls.pay, shopId: "3561", apiKey: "demo-pay-key" });
  const balance = await pay.POST("/api/balance/");
  const order = await pay.POST("/api/createOrder/", { body: { currency: "EUR", amount: 10 } });
  const orders = await pay.POST("/api/orders/");
  const badSignature = await errorOf(() =>
    createPayClient({ baseUrl: urls.pay, shopId: "3561", apiKey: "wrong-key" }).POST("/api/balance/"),
  );

  worker.stop();
  return {
    campaignName: created.data?.domain,
    listed: campaigns.data?.data.campaigns.map((c) => c.name) ?? [],
    expired,
    balanceType: balance.data?.type,
    orderUrl: order.data?.data.url,
    orderListed: orders.data?.data.some((o) => o.id === order.data?.data.id) ?? false,
    badSignature,
    payErrorClass: badSignature.startsWith(new PayApiError(200, "error", "", "").name),
    linksErrorClass: expired.startsWith(new LinksApiError(401, { error: 1, message: "" }, "").name),
  };
}

declare global {
  interface Window {
    testResult?: Promise<unknown>;
  }
}
window.testResult = run();
