// The fault table: each entry is one of the small servers breaking the contract in exactly one way, the check that
// must catch it, and the smallest run that exercises it. The self-test (test/conformance/faults.test.ts) runs the
// real CLI against every entry and asserts that exactly `check` fails.
import type { ApiName } from "../../lib/contract/index.js";
import type { RunningServer } from "./http.js";
import { startCatalogServer } from "./catalog.js";
import { type IdentityFault, startIdentityServer } from "./identity.js";
import { FLOWS } from "./identity-fault-runs.js";
import { startLinksServer } from "./links.js";
import { startPayServer } from "./pay.js";
import { type OracleCatalogFault, startOracleCatalogServer } from "../oracle/catalog.js";
import { type OraclePayFault, startOraclePayServer } from "../oracle/pay.js";
import { startOracleLinksServer } from "../oracle/links.js";
import { FAULT_SERVER_CREDENTIALS } from "./credentials.js";
import type { ContractPatch } from "./contract-patch.js";
import { SEED_SENTENCE_FAULTS } from "./seed-sentence-faults.js";

export { FAULT_SERVER_CREDENTIALS };

export interface Fault {
  name: string;
  api: ApiName;
  /** The one check that must fail. */
  check: string;
  /** How the server breaks the contract. */
  breaks: string;
  /** Extra CLI arguments that keep the run small but still reach the fault. */
  args: string[];
  start(port?: number): Promise<RunningServer>;
  /** Contract words the fault needs (e.g. the provider's promise to refuse), added to the loaded bundle for the run. */
  contract?: ContractPatch[];
}

/** A promise to refuse, as a fixture: the real specs carry these where a seed or a standard makes the promise. */
const refuses = (api: ApiName, pointer: string): ContractPatch => ({
  api,
  pointer,
  key: "x-provider-refuses",
  value: "Test fixture: the provider promises to refuse requests that break this constraint.",
});

/** The run that must catch `fault` against its server at `baseUrl`: a few cases, a fixed seed, no rate-limit waits. */
export function faultRunArgs(fault: Fault, baseUrl: string): string[] {
  return [
    fault.api,
    "--base-url",
    baseUrl,
    "--max-examples",
    "3",
    ...fault.args,
    "--seed",
    "7",
    "--rate-limit",
    "1000/s",
  ];
}

const C = FAULT_SERVER_CREDENTIALS;
const links = (fault: Parameters<typeof startLinksServer>[0]["fault"]) => (port?: number) =>
  startLinksServer({ token: C.LINKS_TOKEN, fault, port, rateLimit: { windowMs: 1000 } });
const identity = (fault: IdentityFault) => (port?: number) => startIdentityServer({ fault, port });
/** The independent servers (conformance/oracle), written from the seeds without this repository's validators. */
const oracleCatalog = (fault?: OracleCatalogFault) => (port?: number) =>
  startOracleCatalogServer({ apiKey: C.CATALOG_API_KEY, readApiKey: C.CATALOG_READ_API_KEY, fault, port });
const oraclePay = (fault?: OraclePayFault) => (port?: number) =>
  startOraclePayServer({ shopId: C.PAY_SHOP_ID, secret: C.PAY_SECRET, fault, port });

export const FAULTS: Fault[] = [
  ...SEED_SENTENCE_FAULTS,
  {
    name: "links-server-error",
    api: "links",
    check: "not_a_server_error",
    breaks: "listOverlays answers 500",
    args: ["--operation", "listOverlays"],
    start: links("server-error"),
  },
  {
    name: "identity-undocumented-status",
    api: "identity",
    check: "status_code_conformance",
    breaks: "the discovery document comes with status 203, which the contract does not document",
    args: ["--operation", "getOpenIdConfiguration"],
    start: identity("discovery-status-203"),
  },
  {
    name: "links-wrong-content-type",
    api: "links",
    check: "content_type_conformance",
    breaks: "getAccount sends its JSON as text/plain",
    args: ["--operation", "getAccount"],
    start: links("wrong-content-type"),
  },
  {
    name: "links-list-error-as-integer",
    api: "links",
    check: "response_schema_conformance",
    breaks: 'list envelopes carry the integer 0 instead of the string "0" (the quirk smoothed over)',
    args: ["--operation", "listCampaigns"],
    start: links("list-error-as-integer"),
  },
  {
    name: "links-no-reset-header",
    api: "links",
    check: "response_headers_conformance",
    breaks: "responses lack X-RateLimit-Reset",
    args: ["--operation", "getAccount"],
    start: links("no-reset-header"),
  },
  {
    name: "links-accepts-invalid",
    api: "links",
    check: "negative_data_rejection",
    breaks: "requests are not validated: limit=0 or limit=abc get a page",
    args: ["--operation", "listDomains", "--strict"],
    start: links("accepts-invalid"),
    contract: [refuses("links", "/components/parameters/limit")],
  },
  {
    name: "links-refuses-large-limit",
    api: "links",
    check: "positive_data_acceptance",
    breaks:
      "limit above 100 is refused, though the contract assumes no maximum (its x-assumption: a warning, caught under --strict)",
    args: ["--operation", "listDomains", "--strict"],
    start: links("refuses-large-limit"),
  },
  {
    name: "links-ignores-wrong-token",
    api: "links",
    check: "ignored_auth",
    breaks: "any bearer token is accepted",
    args: ["--operation", "getAccount"],
    start: links("ignores-wrong-token"),
  },
  {
    name: "links-delete-keeps-resource",
    api: "links",
    check: "use_after_free",
    breaks: "deleteDomain answers 200 but keeps the domain",
    args: ["--operation", "addDomain", "--allow-writes"],
    start: links("delete-keeps-resource"),
  },
  {
    name: "links-created-not-listed",
    api: "links",
    check: "ensure_resource_availability",
    breaks: "created domains never appear in listDomains",
    args: ["--operation", "addDomain", "--allow-writes"],
    start: links("created-not-listed"),
  },
  {
    name: "links-remaining-stuck",
    api: "links",
    check: "rate_limit_headers_consistent",
    breaks: "X-RateLimit-Remaining never counts down",
    args: ["--operation", "getAccount"],
    start: links("remaining-stuck"),
  },
  {
    name: "catalog-idempotency-ignored",
    api: "catalog",
    check: "idempotency",
    breaks: "a repeated Idempotency-Key creates a second product",
    args: ["--operation", "createProduct", "--allow-writes"],
    start: (port) =>
      startCatalogServer({
        apiKey: C.CATALOG_API_KEY,
        readApiKey: C.CATALOG_READ_API_KEY,
        fault: "idempotency-ignored",
        port,
      }),
  },
  {
    name: "catalog-malformed-json-500",
    api: "catalog",
    check: "not_a_server_error",
    breaks:
      "a product creation with malformed JSON is answered 500; --max-writes 1 keeps no creation for invalid data, and a malformed body, which cannot create one, is sent all the same",
    args: ["--operation", "createProduct", "--allow-writes", "--max-writes", "1"],
    start: (port) =>
      startCatalogServer({
        apiKey: C.CATALOG_API_KEY,
        readApiKey: C.CATALOG_READ_API_KEY,
        fault: "malformed-json-500",
        port,
      }),
  },
  {
    name: "pay-nonce-not-checked",
    api: "pay",
    check: "nonce_replay",
    breaks: "a used nonce is accepted again",
    args: ["--operation", "getBalance"],
    start: (port) => startPayServer({ shopId: C.PAY_SHOP_ID, secret: C.PAY_SECRET, fault: "nonce-not-checked", port }),
  },
  {
    name: "pay-order-not-listed",
    api: "pay",
    check: "ensure_resource_availability",
    breaks: "created orders never appear in listOrders",
    args: ["--operation", "createOrder", "--operation", "listOrders", "--allow-writes"],
    start: (port) => startPayServer({ shopId: C.PAY_SHOP_ID, secret: C.PAY_SECRET, fault: "order-not-listed", port }),
  },
  {
    name: "oracle-catalog-read-key-can-write",
    api: "catalog",
    check: "scope_enforcement",
    breaks: "a key without products:write can create products",
    args: ["--operation", "createProduct", "--allow-writes"],
    start: oracleCatalog("read-key-can-write"),
  },
  {
    name: "oracle-catalog-forbidden-without-scope-name",
    api: "catalog",
    check: "scope_enforcement",
    breaks: "the 403 for a missing scope does not name the scope",
    args: ["--operation", "createProduct", "--allow-writes"],
    start: oracleCatalog("forbidden-without-scope-name"),
  },
  {
    name: "oracle-catalog-thumbnail-required",
    api: "catalog",
    check: "positive_data_acceptance",
    breaks: "a product without a thumbnail is refused, though the seed makes it optional",
    args: ["--operation", "createProduct", "--allow-writes", "--max-examples", "8"],
    start: oracleCatalog("thumbnail-required"),
  },
  {
    name: "oracle-pay-order-without-payment-id",
    api: "pay",
    check: "response_schema_conformance",
    breaks: "orders are listed without payment_id",
    args: ["--operation", "createOrder", "--operation", "listOrders", "--allow-writes"],
    start: oraclePay("order-without-payment-id"),
  },
  {
    name: "oracle-pay-nonce-per-endpoint",
    api: "pay",
    check: "nonce_replay",
    breaks: "a nonce is unique per endpoint only: one used on getBalance is accepted on listShops",
    args: ["--operation", "getBalance"],
    start: oraclePay("nonce-per-endpoint"),
  },
  {
    name: "oracle-pay-nonce-unchecked-on-create",
    api: "pay",
    check: "nonce_replay",
    breaks: "createOrder accepts a used nonce (reads refuse it): a replayed order is made twice",
    args: ["--operation", "createOrder", "--allow-writes"],
    start: oraclePay("nonce-unchecked-on-create"),
  },
  {
    name: "oracle-pay-answers-get",
    api: "pay",
    check: "unsupported_method",
    breaks: "GET, which no pay path documents, is answered with a success",
    args: ["--operation", "getBalance"],
    start: oraclePay("answers-get"),
  },
  {
    name: "oracle-pay-allow-lists-get",
    api: "pay",
    check: "allow_header",
    breaks: "a GET gets 405 whose Allow lists GET, not the POST the path supports",
    args: ["--operation", "getBalance"],
    start: oraclePay("allow-lists-get"),
  },
  {
    name: "oracle-pay-slow-balance",
    api: "pay",
    check: "max_response_time",
    breaks: "getBalance takes 300 ms",
    args: ["--operation", "getBalance", "--max-response-time", "150"],
    start: oraclePay("slow-balance"),
  },
  {
    name: "oracle-links-channel-name-uppercased",
    api: "links",
    check: "created_values_echoed",
    breaks: "a new channel's name is listed in capitals, not as sent",
    args: ["--operation", "addChannel", "--allow-writes"],
    start: (port) =>
      startOracleLinksServer({ token: C.LINKS_TOKEN, fault: "channel-name-uppercased", windowMs: 1000, port }),
  },
  {
    name: "catalog-title-trimmed",
    api: "catalog",
    check: "created_values_echoed",
    breaks: "a new product's title comes back cut to 8 characters",
    args: ["--operation", "createProduct", "--allow-writes"],
    start: (port) =>
      startCatalogServer({
        apiKey: C.CATALOG_API_KEY,
        readApiKey: C.CATALOG_READ_API_KEY,
        fault: "title-trimmed",
        port,
      }),
  },
  {
    name: "pay-payment-id-not-order-id",
    api: "pay",
    check: "created_values_echoed",
    breaks: "a new order is listed with a payment_id of the server's own, not the order_id sent",
    args: ["--operation", "createOrder", "--operation", "listOrders", "--allow-writes"],
    start: (port) =>
      startPayServer({ shopId: C.PAY_SHOP_ID, secret: C.PAY_SECRET, fault: "payment-id-not-order-id", port }),
  },
  {
    name: "identity-wrong-issuer",
    api: "identity",
    check: "discovery_fields_and_issuer",
    breaks: "the discovery document names another issuer",
    args: ["--operation", "getOpenIdConfiguration"],
    start: identity("wrong-issuer"),
  },
  {
    name: "identity-jwks-rsa-key-without-modulus",
    api: "identity",
    check: "jwks_shape",
    breaks: "the RSA key of the JWKS has no n (the schema leaves n optional; RFC 7518 does not)",
    args: ["--operation", "getJwks"],
    start: identity("jwks-rsa-key-without-modulus"),
  },
  {
    name: "identity-wrong-secret-is-invalid-grant",
    api: "identity",
    check: "token_errors",
    breaks: "a wrong client_secret gets invalid_grant instead of invalid_client",
    args: FLOWS,
    start: identity("wrong-secret-invalid-grant"),
  },
  {
    name: "identity-pkce-not-enforced",
    api: "identity",
    check: "pkce_enforcement",
    breaks: "the code_verifier is not checked",
    args: FLOWS,
    start: identity("pkce-not-enforced"),
  },
  {
    name: "identity-code-reusable",
    api: "identity",
    check: "code_reuse",
    breaks: "an authorization code can be exchanged twice",
    // Replayed 30 seconds later it is accepted too, but FLOWS leaves code_reuse_30_seconds out.
    args: FLOWS,
    start: identity("code-reusable"),
  },
  {
    name: "identity-redirect-uri-not-checked",
    api: "identity",
    check: "redirect_uri_mismatch",
    breaks: "the token endpoint ignores redirect_uri",
    args: FLOWS,
    start: identity("redirect-uri-not-checked"),
  },
  {
    name: "identity-id-token-wrong-audience",
    api: "identity",
    check: "id_token_signature_and_claims",
    breaks: "id_tokens carry another audience",
    args: FLOWS,
    start: identity("id-token-wrong-audience"),
  },
  {
    name: "identity-userinfo-ignores-scope",
    api: "identity",
    check: "userinfo_by_scope",
    breaks: "userinfo releases the e-mail claims without the email scope",
    args: ["--operation", "getUserInfo"],
    start: identity("userinfo-ignores-scope"),
  },
];

/**
 * The independent, seed-written servers without a fault: they must pass too (links: test/conformance/verdicts.test.ts).
 */
export const ORACLES: Array<{ api: ApiName; start(port?: number): Promise<RunningServer> }> = [
  { api: "catalog", start: oracleCatalog() },
  { api: "pay", start: oraclePay() },
];

/** A correct server of each API, for runs that must show no failure at all. */
export function startReferenceServer(api: ApiName, port?: number): Promise<RunningServer> {
  switch (api) {
    case "links":
      return startLinksServer({ token: C.LINKS_TOKEN, port, rateLimit: { windowMs: 1000 } });
    case "catalog":
      return startCatalogServer({ apiKey: C.CATALOG_API_KEY, readApiKey: C.CATALOG_READ_API_KEY, port });
    case "pay":
      return startPayServer({ shopId: C.PAY_SHOP_ID, secret: C.PAY_SECRET, port });
    case "identity":
      return startIdentityServer({ port });
  }
}
