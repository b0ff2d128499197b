// Payloads written from the seeds' wording (../shared/seeds), not from our specs, for catalog and identity (links
// and pay are seed-conforming.test.ts's): what a deployment that follows the provider's documents (and the standards
// they name) may send must validate against the bundled schemas (Ajv 2020), and what the seeds rule out must be
// refused. Each case quotes the seed sentence (or the standard) it stands for.
import { describe } from "vitest";
import { findOperation, pointerSegment } from "../support/bundle-nodes.js";
import { checkAccepted, checkRefused, parameter, request, response } from "./support/seed-payloads.js";

const FORM_MEDIA = pointerSegment("application/x-www-form-urlencoded");
/** The path of an identity operation, as specs/identity.yaml spells it. */
const pathOf = (operationId: string) => findOperation("identity", operationId).path;

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
      "'The response contains access_token ... Other response fields: not shown', " +
        "with RFC 6749 §5.1 token_type and unknown fields",
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
