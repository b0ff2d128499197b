// Payloads written from the seeds' wording (../shared/seeds), not from our specs: what a deployment that follows the
// provider's documents may send must validate against the bundled schemas (Ajv 2020), and what the seeds rule out
// must be refused. Each case quotes the seed sentence (or the standard the seed relies on) it stands for, so a
// contract that invents a rule fails the first list and a contract that smooths a quirk away fails the second.
// Here links and pay, the APIs that signal errors in the body; catalog and identity are
// seed-conforming-catalog-identity.test.ts's.
import { describe, expect, it } from "vitest";
import { describeErrors, listOperations, loadBundle, validateAt } from "../support/bundle-nodes.js";
import { checkAccepted, checkRefused, request, response } from "./support/seed-payloads.js";

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
      "'Every failing response has body with error = 1 and a message string', sent with HTTP 200 " +
        "('HTTP status codes for each error case: not shown')",
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
      "Domain added with only 'domain (string, required)': redirectroot and redirect404 were optional, " +
        "so a read may lack them",
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
      "campaign add: 'name (string, optional)': a campaign created without a name " +
        "comes back with its name under domain",
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
      "Order status: 'the value 0 is seen together with date_payed null' is an observation, " +
        "so status 0 with a timestamp is not ruled out",
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
