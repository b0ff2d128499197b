// The generated clients of links, catalog and pay with the sandbox's demo credentials, sending through a given
// (contract-checked) fetch: a real sandbox server or the MSW handlers.
import { createCatalogClient } from "../../../clients/catalog.js";
import { createLinksClient } from "../../../clients/links.js";
import { createPayClient } from "../../../clients/pay.js";
import type { ApiName } from "../../../lib/contract/index.js";

/** The generated clients of links, catalog and pay wired to a sandbox through a contract-checked fetch. */
export function clientsFor(
  urls: Pick<Record<ApiName, string>, "links" | "catalog" | "pay">,
  checkedFetch: typeof fetch,
) {
  const asClientFetch = (request: Request) => checkedFetch(request);
  return {
    links: (apiKey = "demo-links-key") =>
      createLinksClient({ baseUrl: urls.links, apiKey, rateLimit: false, fetch: asClientFetch }),
    catalog: (apiKey = "demo-seller-key") =>
      createCatalogClient({ baseUrl: urls.catalog, apiKey, retries: 0, fetch: asClientFetch }),
    pay: (shopId = "3561", apiKey = "demo-pay-key") =>
      createPayClient({ baseUrl: urls.pay, shopId, apiKey, fetch: asClientFetch }),
  };
}
