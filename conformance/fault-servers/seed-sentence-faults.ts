// The faults that break one behavioural sentence of a seed each (the table conformance/seed-sentences.yaml names
// them): lists that ignore their parameters, updates that do not show, a mandatory header that is not required.
// Part of the fault table of faults.ts; the self-test runs them like every other fault.
import type { Fault } from "./faults.js";
import { startCatalogServer } from "./catalog.js";
import { FAULT_SERVER_CREDENTIALS as C } from "./credentials.js";
import { type LinksFault, startLinksServer } from "./links.js";

const links = (fault: LinksFault) => (port?: number) =>
  startLinksServer({ token: C.LINKS_TOKEN, fault, port, rateLimit: { windowMs: 1000 } });

export const SEED_SENTENCE_FAULTS: Fault[] = [
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
