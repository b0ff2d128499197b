/* eslint-disable max-lines -- over the cap since the code was formatted at 120 columns; to be split */
// Payloads written from the seeds' wording (../shared/seeds), not from our specs: what a deployment that follows the
// provider's documents may send must validate against the bundled schemas (Ajv 2020), and what the seeds rule out
// must be refused. Each case quotes the seed sentence (or the standard the seed relies on) it stands for, so a
// contract that invents a rule fails the first list and a contract that smooths a quirk away fails the second.
import { describe, expect, it } from "vitest";
import {
  type ApiName,
  describeErrors,
  findOperation,
  listOperations,
  loadBundle,
  pointerSegment,
  validateAt,
} from "../support/bundle-nodes.js";

type Case = [why: string, pointer: string, payload: unknown];

const JSON_MEDIA = pointerSegment("application/json");
const FORM_MEDIA = pointerSegment("application/x-www-form-urlencoded");
/** The path of an identity operation, as specs/identity.yaml spells it. */
const pathOf = (operationId: string) => findOperation("identity", operationId).path;

/** The body schema of one response of an operation (a `default` that is a `$ref` is followed to its component). */
function response(api: ApiName, operationId: string, status: string, media = JSON_MEDIA): string {
  const op = findOperation(api, operationId);
  const declared = op.operation.responses[status];
  const base =
    typeof declared?.$ref === "string" ? declared.$ref.slice(1) : `${op.pointer}/responses/${pointerSegment(status)}`;
  return `${base}/content/${media}/schema`;
}

function request(api: ApiName, operationId: string, media = JSON_MEDIA): string {
  return `${findOperation(api, operationId).pointer}/requestBody/content/${media}/schema`;
}

function parameter(api: ApiName, operationId: string, name: string): string {
  const op = findOperation(api, operationId);
  const index = (op.operation.parameters as Array<{ name: string }>).findIndex((p) => p.name === name);
  expect(index, `${operationId} has no parameter ${name}`).toBeGreaterThanOrEqual(0);
  return `${op.pointer}/parameters/${index}/schema`;
}

function checkAccepted(api: ApiName, cases: Case[]): void {
  it.each(cases)("accepts: %s", (_why, pointer, payload) => {
    const result = validateAt(api, pointer, payload);
    expect(result.valid, describeErrors(result.errors)).toBe(true);
  });
}

function checkRefused(api: ApiName, cases: Case[]): void {
  it.each(cases)("refuses: %s", (_why, pointer, payload) => {
    expect(validateAt(api, pointer, payload).valid).toBe(false);
  });
}

const page = { result: 1, perpage: 10, currentpage: 1, nextpage: 1, maxpage: 1 };

describe("links: what a seed-conforming deployment may send", () => {
  const account = {
    id: 7,
    email: "owner@localhost",
    username: "owner",
    avatar: "https://cdn.example.net/a.png",
    status: "starter",
    expires: "2030-01-01 00:00:00",
    registered: "2024-05-06 07:08:09",
  };
  checkAccepted("links", [
    [
      "'Every failing response has body with error = 1 and a message string', sent with HTTP 200 ('HTTP status codes for each error case: not shown')",
      response("links", "getAccount", "200"),
      { error: 1, message: "Invalid API key" },
    ],
    [
      "the error envelope with HTTP 200 on a list endpoint too",
      response("links", "listCampaigns", "200"),
      { error: 1, message: "Too many requests" },
    ],
    [
      "the error envelope with HTTP 200 on a creation",
      response("links", "addDomain", "200"),
      { error: 1, message: "Domain already exists" },
    ],
    [
      "the error envelope under any other status",
      response("links", "getAccount", "default"),
      { error: 1, message: "API key expired" },
    ],
    [
      "Account 'email | string': a string the seed does not restrict further",
      response("links", "getAccount", "200"),
      { error: 0, data: account },
    ],
    [
      "Domain added with only 'domain (string, required)': redirectroot and redirect404 were optional, so a read may lack them",
      response("links", "listDomains", "200"),
      { error: "0", data: { ...page, domains: [{ id: 3, domain: "https://go.example.net" }] } },
    ],
    [
      "Domain redirects typed 'string (URL)' on read, whatever the provider stores for an empty one",
      response("links", "listDomains", "200"),
      {
        error: "0",
        data: { ...page, domains: [{ id: 3, domain: "https://go.example.net", redirectroot: "", redirect404: "" }] },
      },
    ],
    [
      "Channel created with only 'name (string, required)': description, color and starred may be absent on read",
      response("links", "listChannels", "200"),
      { error: "0", data: { ...page, channels: [{ id: 4, name: "Inbox" }] } },
    ],
    [
      "Channel 'color | string | badge color in HEX form' spelled without a '#'",
      response("links", "listChannels", "200"),
      {
        error: "0",
        data: { ...page, channels: [{ id: 4, name: "Inbox", description: "", color: "1e88e5", starred: false }] },
      },
    ],
    [
      "'Response of channel creation: not shown': error 0 and the id ('present on creations') plus fields not shown",
      response("links", "addChannel", "200"),
      { error: 0, id: 12, name: "Inbox", color: "#000" },
    ],
    [
      "campaign add: 'name (string, optional)': a campaign created without a name comes back with its name under domain",
      response("links", "addCampaign", "200"),
      { error: 0, id: 9, domain: "", public: false, rotator: false, list: "https://go.example.net/u/owner/9" },
    ],
    ["campaign add body: every field is optional", request("links", "addCampaign"), {}],
    ["domain update body: 'any subset may be sent'", request("links", "updateDomain"), {}],
  ]);
  checkRefused("links", [
    [
      "'error = 1 and a message string': an error envelope without a message",
      response("links", "getAccount", "200"),
      { error: 1 },
    ],
    [
      "'list responses carry the string form \"0\"': a list with the integer 0",
      response("links", "listCampaigns", "200"),
      { error: 0, data: { ...page, campaigns: [] } },
    ],
    [
      "'error | integer 0 or 1': the string \"0\" outside list responses",
      response("links", "getAccount", "200"),
      { error: "0", data: account },
    ],
    ["'error | integer 0 or 1': any other value", response("links", "deleteDomain", "200"), { error: 2, message: "?" }],
    [
      "Account 'id | integer' sent as a string",
      response("links", "getAccount", "200"),
      { error: 0, data: { ...account, id: "7" } },
    ],
    [
      "'in responses to campaign add and update the campaign name appears under the key domain': a name key instead",
      response("links", "addCampaign", "200"),
      { error: 0, id: 9, name: "Spring", public: true, rotator: false, list: "https://go.example.net/u/owner/9" },
    ],
    [
      "Campaign 'rotator | string (URL) or false': true",
      response("links", "listCampaigns", "200"),
      {
        error: "0",
        data: {
          ...page,
          campaigns: [{ id: 9, name: "Spring", public: true, rotator: true, list: "https://go.example.net/u/owner/9" }],
        },
      },
    ],
    [
      "Channel item 'date | format YYYY-MM-DD' with a time",
      response("links", "listChannelItems", "200"),
      {
        error: "0",
        data: {
          ...page,
          items: [
            {
              type: "links",
              id: 1,
              title: "t",
              preview: "https://example.net/p",
              link: "https://go.example.net/x",
              date: "2024-03-02 10:00:00",
            },
          ],
        },
      },
    ],
    [
      "domain add: 'domain (string, required, includes http or https)' without a scheme",
      request("links", "addDomain"),
      { domain: "go.example.net" },
    ],
    ["campaign update: 'name (string, required)' missing", request("links", "updateCampaign"), { public: true }],
  ]);
});

describe("pay: what a seed-conforming deployment may send", () => {
  const order = {
    id: 1,
    date_created: "2024-03-02 14:05:11",
    date_payed: null,
    status: 0,
    payment_system_id: 4,
    currency_id: 1,
    amount: "10.00000000",
    fee: "0.30000000",
    email: "buyer@example.net",
    test_order: 0,
    payment_id: "A-1",
  };
  checkAccepted("pay", [
    [
      "'the values of type on failure: not shown', with HTTP 200 (HTTP statuses are not documented)",
      response("pay", "getBalance", "200"),
      { type: "error", desc: "Invalid signature" },
    ],
    [
      "a failure type other than error, with data whose shape is not shown",
      response("pay", "createOrder", "200"),
      { type: "fail", desc: "Amount too small", data: { min: 10 } },
    ],
    [
      "the failure envelope under any other status",
      response("pay", "listShops", "default"),
      { type: "error", desc: "Nonce must be unique" },
    ],
    [
      "Order status: 'the value 0 is seen together with date_payed null' is an observation, so status 0 with a timestamp is not ruled out",
      response("pay", "listOrders", "200"),
      { type: "success", desc: "", data: [{ ...order, date_payed: "2024-03-02 14:07:40" }] },
    ],
    [
      "Order 'status | integer' with a value not seen yet ('mapping of ... status numbers to meanings: not shown')",
      response("pay", "listOrders", "200"),
      { type: "success", desc: "", data: [{ ...order, status: 2 }] },
    ],
    [
      "Balance 'a currency code to a decimal string with two fraction digits', for a currency not in the examples",
      response("pay", "getBalance", "200"),
      { type: "success", desc: "", data: { user_id: 5, balance: { BTC: "0.00" } } },
    ],
    [
      "'shop_id (string)': a shop id that is not a number (the seed never ties it to Shop.id)",
      request("pay", "listShops"),
      { shop_id: "shop_north", nonce: 17 },
    ],
    [
      "'nonce (integer, unique request number)': zero is an integer",
      request("pay", "getBalance"),
      { shop_id: "3561", nonce: 0 },
    ],
    [
      "'Which createOrder body fields are required: not shown': only shop_id and nonce",
      request("pay", "createOrder"),
      { shop_id: "3561", nonce: 18 },
    ],
    [
      "'Further keys of these arrays ... not shown': fields and receipt with keys the seed does not list",
      request("pay", "createOrder"),
      {
        shop_id: "3561",
        nonce: 19,
        fields: { email: "b@example.net", phone: "+1", name: "B" },
        receipt: { items: [{ name: "Card", count: 1, price: 5, vat: "none" }], taxation: "osn" },
      },
    ],
  ]);
  checkRefused("pay", [
    [
      "'desc | description, empty on success': a non-empty desc with type success",
      response("pay", "getBalance", "200"),
      { type: "success", desc: "OK", data: { user_id: 5, balance: {} } },
    ],
    [
      "the envelope '{type, desc, data}' without type",
      response("pay", "getBalance", "200"),
      { desc: "", data: { user_id: 5, balance: {} } },
    ],
    [
      "Order 'amount | string | decimal with 8 fraction digits' as a number",
      response("pay", "listOrders", "200"),
      { type: "success", desc: "", data: [{ ...order, amount: 10 }] },
    ],
    [
      "Order amount with 2 fraction digits",
      response("pay", "listOrders", "200"),
      { type: "success", desc: "", data: [{ ...order, amount: "10.00" }] },
    ],
    [
      "Order 'date_payed | string or null' as false",
      response("pay", "listOrders", "200"),
      { type: "success", desc: "", data: [{ ...order, date_payed: false }] },
    ],
    [
      "Order 'test_order | integer | 0 or 1 flag' as a boolean",
      response("pay", "listOrders", "200"),
      { type: "success", desc: "", data: [{ ...order, test_order: true }] },
    ],
    [
      "Order 'date_created | YYYY-MM-DD HH:MM:SS' in ISO 8601",
      response("pay", "listOrders", "200"),
      { type: "success", desc: "", data: [{ ...order, date_created: "2024-03-02T14:05:11Z" }] },
    ],
    [
      "Balance with one fraction digit",
      response("pay", "getBalance", "200"),
      { type: "success", desc: "", data: { user_id: 5, balance: { RUB: "12.5" } } },
    ],
    ["'shop_id (string)' sent as a number", request("pay", "listShops"), { shop_id: 3561, nonce: 20 }],
    ["'nonce (integer ...)' sent as a string", request("pay", "listShops"), { shop_id: "3561", nonce: "21" }],
  ]);
});

describe("catalog: what a seed-conforming deployment may send", () => {
  checkAccepted("catalog", [
    [
      "'shop identity including payout_verified': more fields than payout_verified",
      response("catalog", "getShop", "200"),
      { payout_verified: true, id: 42, name: "Northwind" },
    ],
    [
      "'flat list of categories; each row has parent_id', rows with fields the seed does not show",
      response("catalog", "listCategories", "200"),
      [
        { id: "pcat_1", parent_id: null, name: "Games" },
        { parent_id: "pcat_1", title: "Keys" },
      ],
    ],
    [
      "'Response body of product creation: not shown', beyond two-decimal prices",
      response("catalog", "createProduct", "200"),
      { uuid: "8f1", variants: [{ prices: [{ amount: "21.50", currency: "usd" }] }] },
    ],
    [
      "a product response without any field the contract names",
      response("catalog", "createProduct", "200"),
      { created: true },
    ],
    [
      "'a key lacking a required scope gets HTTP 403; the response body names the missing scope', in a shape not shown",
      response("catalog", "createProduct", "403"),
      { message: "forbidden", scope: "products:write" },
    ],
    [
      "'Seller API error body shape: not shown'",
      response("catalog", "getShop", "default"),
      { code: 401, detail: "bad key" },
    ],
    [
      "supplier panel: 'the supplier id is taken from the supplier list', a body field the seed does not name",
      request("catalog", "createProduct"),
      {
        title: "Followers",
        delivery_type: "smm_panel",
        category_id: "pcat_9",
        status: "published",
        variants: [{ title: "1000", prices: [{ amount: 3, currency_code: "usd" }] }],
        supplier_id: "sup_17",
      },
    ],
    [
      "issuance reply 'status 200 and a body field status', status of any type",
      "/webhooks/issuance/post/responses/200/content/application~1json/schema",
      { status: 3 },
    ],
    [
      "issuance reply 'Any answer that means issued must contain items', items of a shape not shown, plus other fields",
      "/webhooks/issuance/post/responses/200/content/application~1json/schema",
      { items: [{ code: "X-1" }, "X-2"], order: "o-1" },
    ],
  ]);
  checkRefused("catalog", [
    [
      "'an unreadable reply, including a bare empty JSON object with 200, counts as failure'",
      "/webhooks/issuance/post/responses/200/content/application~1json/schema",
      {},
    ],
    [
      "'when the seller's reply ... does not carry items' (nor status) it is a failure",
      "/webhooks/issuance/post/responses/200/content/application~1json/schema",
      { message: "done" },
    ],
    [
      "'shop identity including payout_verified' without it",
      response("catalog", "getShop", "200"),
      { name: "Northwind" },
    ],
    ["'payout_verified | boolean' as a string", response("catalog", "getShop", "200"), { payout_verified: "false" }],
    [
      "'parent_id | string or null ... identifiers carry the prefix pcat_' without the prefix",
      response("catalog", "listCategories", "200"),
      [{ parent_id: "42" }],
    ],
    ["'each row has parent_id': a row without it", response("catalog", "listCategories", "200"), [{ id: "pcat_1" }]],
    [
      "'Prices in responses are decimal strings ... (two decimals in shape)': a number",
      response("catalog", "createProduct", "200"),
      { variants: [{ prices: [{ amount: 21.5 }] }] },
    ],
    [
      "response price with one decimal",
      response("catalog", "createProduct", "200"),
      { variants: [{ prices: [{ amount: "21.5" }] }] },
    ],
    [
      "request 'currency_code (string, lower-case currency code)' in upper case",
      request("catalog", "createProduct"),
      {
        title: "Card",
        delivery_type: "digital_instant",
        category_id: "pcat_1",
        status: "published",
        variants: [{ title: "1", prices: [{ amount: 1, currency_code: "USD" }] }],
      },
    ],
  ]);
});

describe("identity: what a deployment following the seed and the standards it names may send", () => {
  const tokenError = (status: string) => response("identity", "exchangeToken", status);
  checkAccepted("identity", [
    [
      "RFC 6749 §8.5 extension error code at the token endpoint ('Errors: not shown')",
      tokenError("400"),
      { error: "invalid_dpop_proof", error_description: "DPoP proof is invalid" },
    ],
    ["an RFC 8628 error code registered under RFC 6749 §8.5", tokenError("400"), { error: "authorization_pending" }],
    [
      "'The response contains access_token ... Other response fields: not shown', with RFC 6749 §5.1 token_type and unknown fields",
      response("identity", "exchangeToken", "200"),
      { access_token: "at_1", token_type: "bearer", session_state: "s-1" },
    ],
    [
      "userinfo under scope openid only: 'iss ... always', 'aud ... always', sub",
      response("identity", "getUserInfo", "200"),
      { iss: "https://id.example.net", aud: "app-1", sub: "5b8f2c4e-1a7d-4e3b-9c6f-0d2a8e7b4f91" },
    ],
    [
      "userinfo wallets 'with verification' data whose structure is not shown",
      response("identity", "getUserInfo", "200"),
      {
        iss: "https://id.example.net",
        aud: "app-1",
        sub: "5b8f2c4e-1a7d-4e3b-9c6f-0d2a8e7b4f91",
        wallets: [{ chain: "ton", address: "UQB", verification: { signed: true } }],
      },
    ],
    [
      "'returns the standard OIDC discovery document' offering S256 only",
      response("identity", "getOpenIdConfiguration", "200"),
      {
        issuer: "https://id.example.net",
        authorization_endpoint: `https://id.example.net${pathOf("authorize")}`,
        token_endpoint: `https://id.example.net${pathOf("exchangeToken")}`,
        jwks_uri: `https://id.example.net${pathOf("getJwks")}`,
        response_types_supported: ["code"],
        subject_types_supported: ["public"],
        id_token_signing_alg_values_supported: ["RS256"],
        code_challenge_methods_supported: ["S256"],
      },
    ],
    [
      "'returns the signing key set', an EC key (RFC 7517)",
      response("identity", "getJwks", "200"),
      {
        keys: [
          {
            kty: "EC",
            crv: "P-256",
            x: "f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU",
            y: "x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0",
            use: "sig",
            kid: "ec-1",
          },
        ],
      },
    ],
    [
      "token request 'grant_type, code, client_id, client_secret, redirect_uri' with the RFC 7636 §4.5 code_verifier",
      request("identity", "exchangeToken", FORM_MEDIA),
      {
        grant_type: "authorization_code",
        code: "c1",
        client_id: "app-1",
        client_secret: "s",
        redirect_uri: "https://app.example.net/cb",
        code_verifier: "dBjftJeZ4CVP-mJ92K9a_-bCpKqO4Rv2nBsbQ5W6y7g",
      },
    ],
  ]);
  checkRefused("identity", [
    [
      "'tg_id | integer' as a string",
      response("identity", "getUserInfo", "200"),
      { iss: "https://id.example.net", aud: "app-1", sub: "5b8f2c4e-1a7d-4e3b-9c6f-0d2a8e7b4f91", tg_id: "482915637" },
    ],
    [
      "'aud | string | always' missing",
      response("identity", "getUserInfo", "200"),
      { iss: "https://id.example.net", sub: "5b8f2c4e-1a7d-4e3b-9c6f-0d2a8e7b4f91" },
    ],
    [
      "'wallets | array of objects with fields chain and address' without address",
      response("identity", "getUserInfo", "200"),
      {
        iss: "https://id.example.net",
        aud: "app-1",
        sub: "5b8f2c4e-1a7d-4e3b-9c6f-0d2a8e7b4f91",
        wallets: [{ chain: "ton" }],
      },
    ],
    [
      "'The response contains access_token': a token response without it",
      response("identity", "exchangeToken", "200"),
      { token_type: "Bearer" },
    ],
    ["RFC 6749 §5.2: a token error without error", tokenError("400"), { error_description: "bad" }],
    [
      "'Authorization Code with PKCE' with plain, which exposes the verifier (RFC 9700 §2.1.1)",
      parameter("identity", "authorize", "code_challenge_method"),
      "plain",
    ],
    ["'response_type | value code'", parameter("identity", "authorize", "response_type"), "token"],
    [
      "token request 'grant_type | value authorization_code' without the code",
      request("identity", "exchangeToken", FORM_MEDIA),
      {
        grant_type: "authorization_code",
        client_id: "app-1",
        client_secret: "s",
        redirect_uri: "https://app.example.net/cb",
      },
    ],
  ]);
});

describe("errors signalled in the body (links, pay): every response may carry the error envelope", () => {
  const envelopes = {
    links: {
      body: { error: 1, message: "The API key has expired." },
      declared: { property: "error", success: [0, "0"] },
    },
    pay: { body: { type: "error", desc: "Invalid signature" }, declared: { property: "type", success: ["success"] } },
  } as const;

  it.each(Object.keys(envelopes) as Array<keyof typeof envelopes>)(
    "%s declares x-error-envelope at its root",
    (api) => {
      expect(loadBundle(api)["x-error-envelope"]).toEqual(envelopes[api].declared);
    },
  );

  const responses = (Object.keys(envelopes) as Array<keyof typeof envelopes>).flatMap((api) =>
    listOperations(api).flatMap((op) =>
      Object.keys(op.operation.responses).map((status) => [api, op.operationId, status] as const),
    ),
  );
  it.each(responses)("%s %s %s accepts the error envelope", (api, operationId, status) => {
    const result = validateAt(api, response(api, operationId, status), envelopes[api].body);
    expect(result.valid, describeErrors(result.errors)).toBe(true);
  });
});
