// The faults that break one behavioural sentence of a seed each (the table conformance/seed-sentences.yaml names
// them): lists that ignore their parameters, updates that do not show, a mandatory header that is not required.
// Part of the fault table of faults.ts; the self-test runs them like every other fault.
import type { Fault } from "./faults.js";
import { startCatalogServer } from "./catalog.js";
import { FAULT_SERVER_CREDENTIALS as C } from "./credentials.js";
import { type LinksFault, startLinksServer } from "./links.js";
import { type PayFault, startPayServer } from "./pay.js";

const links = (fault: LinksFault) => (port?: number) =>
  startLinksServer({ token: C.LINKS_TOKEN, fault, port, rateLimit: { windowMs: 1000 } });

const pay = (fault: PayFault) => (port?: number) =>
  startPayServer({ shopId: C.PAY_SHOP_ID, secret: C.PAY_SECRET, fault, port });

export const SEED_SENTENCE_FAULTS: Fault[] = [
  {
    name: "links-error-without-message",
    api: "links",
    check: "response_schema_conformance",
    breaks: "error bodies carry error 1 but no message",
    args: ["--operation", "getAccount"],
    start: links("errors-without-message"),
  },
  {
    name: "links-limit-header-not-the-cap",
    api: "links",
    check: "rate_limit_headers_consistent",
    breaks: "X-RateLimit-Limit says 60, not the seed's cap of 30",
    args: ["--operation", "getAccount"],
    start: links("limit-header-not-the-cap"),
  },
  {
    name: "catalog-ignores-wrong-key",
    api: "catalog",
    check: "ignored_auth",
    breaks: "any x-seller-api-key is accepted",
    args: ["--operation", "getShop"],
    start: (port) =>
      startCatalogServer({
        apiKey: C.CATALOG_API_KEY,
        readApiKey: C.CATALOG_READ_API_KEY,
        fault: "ignores-wrong-key",
        port,
      }),
  },
  {
    name: "pay-signature-not-checked",
    api: "pay",
    check: "ignored_auth",
    breaks: "requests are accepted whatever their signature",
    args: ["--operation", "getBalance"],
    start: pay("signature-not-checked"),
  },
  {
    name: "pay-paid-order-without-date",
    api: "pay",
    check: "seen_together",
    breaks:
      "new orders are listed with status 1 and date_payed null (the seed has seen 1 only with a timestamp: an x-assumption, caught under --strict)",
    args: ["--operation", "createOrder", "--operation", "listOrders", "--allow-writes", "--strict"],
    start: pay("paid-order-without-date"),
  },
  {
    name: "links-ignores-limit",
    api: "links",
    check: "list_parameters_honoured",
    breaks: "lists ignore limit: always 10 rows a page, perpage 10",
    args: ["--operation", "listDomains"],
    start: links("ignores-limit"),
  },
  {
    name: "links-currentpage-from-zero",
    api: "links",
    check: "list_parameters_honoured",
    breaks: "currentpage counts from 0: page 1 is reported as currentpage 0",
    args: ["--operation", "listCampaigns"],
    start: links("currentpage-from-zero"),
  },
  {
    name: "links-currentpage-always-1",
    api: "links",
    check: "list_parameters_honoured",
    breaks: "currentpage is 1 whatever page is asked for: page 2 with limit 1 of the domain list says currentpage 1",
    args: ["--operation", "listDomains"],
    start: links("currentpage-always-1"),
  },
  {
    name: "links-adds-domain-without-domain",
    api: "links",
    check: "negative_data_rejection",
    breaks:
      "a domain add without the domain the seed calls required is answered with success (and a domain of its own)",
    // The kinds of invalid data the provider promised to refuse come first (plan/build.ts): the missing domain.
    args: ["--operation", "addDomain", "--allow-writes"],
    start: links("adds-domain-without-domain"),
  },
  {
    name: "links-undocumented-method-html",
    api: "links",
    check: "unsupported_method",
    breaks: "a method a path does not document is answered 405 with an HTML page, though all responses are JSON",
    args: ["--operation", "addDomain", "--allow-writes"],
    start: links("undocumented-method-html"),
  },
  {
    name: "links-domain-update-keeps-old-values",
    api: "links",
    check: "update_visible_on_read",
    breaks: "updateDomain answers success but keeps the old redirects",
    args: ["--operation", "addDomain", "--allow-writes"],
    start: links("update-keeps-old-values"),
  },
  {
    name: "links-campaign-update-keeps-old-values",
    api: "links",
    check: "update_visible_on_read",
    breaks: "updateCampaign answers success with the new values but keeps the old ones",
    args: ["--operation", "addCampaign", "--allow-writes"],
    start: links("update-keeps-old-values"),
  },
  {
    name: "links-account-update-keeps-old-values",
    api: "links",
    check: "update_visible_on_read",
    breaks: "updateAccount answers success but getAccount shows the old e-mail address",
    args: ["--operation", "updateAccount", "--operation", "getAccount", "--allow-writes"],
    start: links("update-keeps-old-values"),
  },
  {
    name: "catalog-idempotency-key-optional",
    api: "catalog",
    check: "negative_data_rejection",
    breaks: "a product creation without the Idempotency-Key the seed calls mandatory is accepted",
    args: ["--operation", "createProduct", "--allow-writes"],
    start: (port) =>
      startCatalogServer({
        apiKey: C.CATALOG_API_KEY,
        readApiKey: C.CATALOG_READ_API_KEY,
        fault: "idempotency-key-optional",
        port,
      }),
  },
];
