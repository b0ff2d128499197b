// The seeds (the provider's prose in ../shared/seeds) against the contracts: every endpoint, every field of every
// resource, and every "not shown" of the seeds must be in the specs. The seeds are restated here as data so that the
// test runs without them; each row names the seed sentence it stands for.
import { describe, expect, it } from "vitest";
import { type ApiName, listOperations, loadBundle, resolvePointer } from "../support/bundle-nodes.js";

// The identity endpoints by the operations that serve them: their paths are spelled only in specs/identity.yaml, and
// test/specs/identity-structure.test.ts checks them against the discovery example and the security schemes.
const IDENTITY_ENDPOINTS: Array<[method: string, operationId: string]> = [
  ["get", "getOpenIdConfiguration"],
  ["get", "authorize"],
  ["post", "exchangeToken"],
  ["get", "getUserInfo"],
  ["get", "getJwks"],
  ["get", "logout"],
];

const ENDPOINTS: Record<Exclude<ApiName, "identity">, Array<[method: string, path: string]>> = {
  links: [
    ["get", "/api/account"],
    ["put", "/api/account/update"],
    ["get", "/api/domains"],
    ["post", "/api/domain/add"],
    ["put", "/api/domain/{id}/update"],
    ["delete", "/api/domain/{id}/delete"],
    ["get", "/api/overlay"],
    ["get", "/api/campaigns"],
    ["post", "/api/campaign/add"],
    ["post", "/api/campaign/{campaignid}/assign/{linkid}"],
    ["put", "/api/campaign/{id}/update"],
    ["delete", "/api/campaign/{id}/delete"],
    ["get", "/api/channels"],
    ["get", "/api/channel/{id}"],
    ["post", "/api/channel/add"],
  ],
  catalog: [
    ["get", "/admin/seller-api/me"],
    ["get", "/admin/seller-api/categories"],
    ["post", "/admin/seller-api/products"],
  ],
  pay: [
    ["post", "/api/shops/"],
    ["post", "/api/orders/"],
    ["post", "/api/createOrder/"],
    ["post", "/api/balance/"],
  ],
};

// Resource tables of the seeds: schema → the fields the seed lists for it.
const FIELDS: Array<[ApiName, string, string[]]> = [
  [
    "identity",
    "UserInfo",
    [
      "iss",
      "aud",
      "sub",
      "name",
      "preferred_username",
      "picture",
      "tg_id",
      "tg_username",
      "email",
      "email_verified",
      "wallets",
    ],
  ],
  ["identity", "IdTokenClaims", ["iss", "aud", "sub"]],
  ["identity", "Wallet", ["chain", "address"]],
  ["identity", "AuthorizationCodeGrant", ["grant_type", "code", "client_id", "client_secret", "redirect_uri"]],
  ["identity", "TokenResponse", ["access_token", "refresh_token"]],
  ["links", "ErrorEnvelope", ["error", "message"]],
  ["links", "Account", ["id", "email", "username", "avatar", "status", "expires", "registered"]],
  ["links", "AccountUpdate", ["email", "password"]],
  ["links", "Domain", ["id", "domain", "redirectroot", "redirect404"]],
  ["links", "DomainAdd", ["domain", "redirectroot", "redirect404"]],
  ["links", "DomainUpdate", ["redirectroot", "redirect404"]],
  ["links", "Overlay", ["id", "type", "name", "date"]],
  ["links", "Campaign", ["id", "name", "public", "rotator", "list"]],
  ["links", "CampaignAdd", ["name", "slug", "public"]],
  ["links", "CampaignUpdate", ["name", "slug", "public"]],
  ["links", "CampaignSaved", ["error", "id", "domain", "public", "rotator", "list"]],
  ["links", "Channel", ["id", "name", "description", "color", "starred"]],
  ["links", "ChannelAdd", ["name", "description", "color", "starred"]],
  ["links", "ChannelItem", ["type", "id", "title", "preview", "link", "date"]],
  ["links", "DomainPage", ["result", "perpage", "currentpage", "nextpage", "maxpage", "domains"]],
  ["links", "OverlayPage", ["result", "perpage", "currentpage", "nextpage", "maxpage", "cta"]],
  ["links", "CampaignPage", ["result", "perpage", "currentpage", "nextpage", "maxpage", "campaigns"]],
  ["links", "ChannelPage", ["result", "perpage", "currentpage", "nextpage", "maxpage", "channels"]],
  ["links", "ChannelItemPage", ["result", "perpage", "currentpage", "nextpage", "maxpage", "items"]],
  ["catalog", "Shop", ["payout_verified"]],
  ["catalog", "Category", ["parent_id"]],
  ["catalog", "ProductCreate", ["title", "delivery_type", "category_id", "thumbnail", "status", "variants"]],
  ["catalog", "VariantCreate", ["title", "prices"]],
  ["catalog", "PriceCreate", ["amount", "currency_code"]],
  ["catalog", "IssuedReply", ["items"]],
  ["catalog", "AnsweredReply", ["status"]],
  ["pay", "Shop", ["id", "date_added", "name", "url", "status", "public_key", "desc"]],
  [
    "pay",
    "Order",
    [
      "id",
      "date_created",
      "date_payed",
      "status",
      "payment_system_id",
      "currency_id",
      "amount",
      "fee",
      "email",
      "test_order",
      "payment_id",
    ],
  ],
  ["pay", "ShopsData", ["user_id", "shops"]],
  ["pay", "BalanceData", ["user_id", "balance"]],
  ["pay", "CreatedOrder", ["id", "url"]],
  [
    "pay",
    "CreateOrderRequest",
    ["shop_id", "nonce", "currency", "amount", "order_id", "payment_system", "fields", "receipt"],
  ],
  ["pay", "ListOrdersRequest", ["shop_id", "nonce", "page"]],
  ["pay", "OrderFields", ["email", "phone"]],
  ["pay", "Receipt", ["items"]],
  ["pay", "ReceiptItem", ["name", "count", "price"]],
  ["pay", "ErrorEnvelope", ["type", "desc", "data"]],
];

// Every "not shown" of the seeds, as a pattern some x-undocumented entry of the API must match.
const NOT_SHOWN: Array<[ApiName, string, RegExp]> = [
  ["identity", "Structure of the verification data attached to each wallet", /verification/i],
  ["identity", "States and transitions of any resource", /transitions/i],
  ["identity", "Names of the PKCE parameters", /PKCE/],
  ["identity", "Other response fields (token)", /other (token )?response fields|fields .*not shown/i],
  ["identity", "Discovery: its fields", /discovery/i],
  ["identity", "JWKS: its shape", /JWK/],
  ["identity", "Logout: method, parameters and response", /logout/i],
  ["identity", "Lifetime of access_token and refresh_token", /lifetime/i],
  ["identity", "Events", /events/i],
  ["identity", "Errors", /errors?\b.*not shown|error responses/i],
  ["identity", "Limits", /limits/i],
  ["identity", "Versioning", /versioning/i],
  ["links", "Complete list of account status values", /status/i],
  ["links", "Complete list of overlay type values", /overlay|values/i],
  ["links", "Complete list of channel-item type values", /values/i],
  ["links", "States and transitions", /transitions/i],
  ["links", "Required fields for account update", /required fields for account update/i],
  ["links", "Response of channel creation", /channel creation/i],
  ["links", "Operations after channel creation", /channel update and delete/i],
  ["links", "Events", /events/i],
  ["links", "HTTP status codes for each error case", /status codes/i],
  ["links", "Behaviour once the cap is exceeded", /cap/i],
  ["links", "The maximum value of limit", /maximum/i],
  ["links", "Versioning", /versioning/i],
  ["catalog", "The identifier of the manual hand-off type", /manual/i],
  ["catalog", "Which value stands for the pool of ready codes", /pool/i],
  ["catalog", "Response fields of Product", /product/i],
  ["catalog", "Fields of Category other than parent_id", /categor/i],
  ["catalog", "Fields of the shop response other than payout_verified", /shop/i],
  ["catalog", "Product status values other than published", /published|status values/i],
  ["catalog", "Transitions", /transitions/i],
  ["catalog", "Operations to read, list, update or delete products", /update|delete/i],
  ["catalog", "Image upload operation", /image upload/i],
  ["catalog", "Upload operation for the pool of ready codes", /pool/i],
  ["catalog", "Supplier list operation", /supplier list/i],
  ["catalog", "Manual order-line fulfilment operation", /fulfil/i],
  ["catalog", "Orders, balance and payout operations of the seller API", /payout/i],
  ["catalog", "Other scope names of the seller API", /scope names/i],
  ["catalog", "Signature scheme of the issuance event", /signature/i],
  ["catalog", "Payload, header names and signature of the event", /payload/i],
  ["catalog", "Seller API error body shape", /error body|shape/i],
  ["catalog", "Rate limits", /rate limit/i],
  ["catalog", "Versioning", /versioning/i],
  ["pay", "Further keys of fields", /further keys of .?fields/i],
  ["pay", "Further keys of receipt", /receipt/i],
  ["pay", "Mapping of payment_system numbers", /payment.system/i],
  ["pay", "Mapping of currency_id numbers", /currency/i],
  ["pay", "Mapping of status numbers", /status/i],
  ["pay", "Transitions", /transitions/i],
  ["pay", "Which createOrder body fields are required", /required/i],
  ["pay", "Signature algorithm", /algorithm/i],
  ["pay", "Signing secret", /secret/i],
  ["pay", "Payment notifications", /notifications/i],
  ["pay", "Values of type on failure", /failure|type/i],
  ["pay", "Rate limits", /rate limit/i],
  ["pay", "Page size of the order list", /page size/i],
  ["pay", "Versioning", /versioning/i],
];

function undocumentedEntries(api: ApiName): string[] {
  const entries: string[] = [];
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!node || typeof node !== "object") return;
    for (const [key, value] of Object.entries(node)) {
      if (key === "x-undocumented" && Array.isArray(value)) entries.push(...(value as string[]));
      else visit(value);
    }
  };
  visit(loadBundle(api));
  return entries;
}

describe("the specs cover the seeds", () => {
  it.each(IDENTITY_ENDPOINTS)("identity has %s %s", (method, operationId) => {
    const operation = listOperations("identity").find((op) => op.operationId === operationId);
    expect(operation?.method).toBe(method);
    expect(operation?.webhook).toBe(false);
  });

  it.each(Object.entries(ENDPOINTS).flatMap(([api, endpoints]) => endpoints.map(([m, p]) => [api, m, p] as const)))(
    "%s has %s %s",
    (api, method, path) => {
      expect(listOperations(api as ApiName).some((op) => op.method === method && op.path === path && !op.webhook)).toBe(
        true,
      );
    },
  );

  it("catalog has the issuance event as a webhook", () => {
    expect(
      listOperations("catalog")
        .filter((op) => op.webhook)
        .map((op) => op.operationId),
    ).toEqual(["issueGoods"]);
  });

  it.each(FIELDS)("%s %s has every field of the seed", (api, schema, fields) => {
    const properties = Object.keys(resolvePointer(api, `/components/schemas/${schema}`).properties ?? {});
    expect(properties).toEqual(expect.arrayContaining(fields));
  });

  it.each(NOT_SHOWN)("%s records as undocumented: %s", (api, _sentence, pattern) => {
    const entries = undocumentedEntries(api);
    expect(
      entries.some((entry) => pattern.test(entry)),
      `no x-undocumented entry of ${api} matches ${pattern}`,
    ).toBe(true);
  });

  it.each(["identity", "links", "catalog", "pay"] as const)("%s marks its quirks with x-quirk", (api) => {
    expect(JSON.stringify(loadBundle(api)).match(/"x-quirk"/g)?.length ?? 0).toBeGreaterThan(
      api === "identity" ? 1 : 2,
    );
  });
});
