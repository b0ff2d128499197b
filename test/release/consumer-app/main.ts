// What an integrator writes after `npm install @platform/contracts`: every export of the package, type-checked
// against the shipped declarations and run with node. Each client talks to a fetch that answers with the contract's
// own examples, so no server and no network is involved.
import {
  CatalogApiError,
  CatalogScopeError,
  createCatalogClient,
  type webhooks as CatalogWebhooks,
} from "@platform/contracts/catalog";
import {
  createIdentityClient,
  createPkcePair,
  IdentityApiError,
  type IdTokenClaims,
} from "@platform/contracts/identity";
import {
  createLinksClient,
  LinksApiError,
  RateLimitError,
  type components as LinksComponents,
  type paths as LinksPaths,
} from "@platform/contracts/links";
import {
  createPayClient,
  hmacSha256Signer,
  memoryNonceSource,
  PayApiError,
  type components as PayComponents,
} from "@platform/contracts/pay";
import { fileNonceSource } from "@platform/contracts/pay/node-nonce";
import type { paths as CatalogTypes } from "@platform/contracts/types/catalog";
import type { components as IdentityTypes } from "@platform/contracts/types/identity";
import type { paths as LinksTypes } from "@platform/contracts/types/links";
import type { components as PayTypes } from "@platform/contracts/types/pay";
import catalogBundle from "@platform/contracts/openapi/catalog.json" with { type: "json" };
import identityBundle from "@platform/contracts/openapi/identity.json" with { type: "json" };
import linksBundle from "@platform/contracts/openapi/links.json" with { type: "json" };
import payBundle from "@platform/contracts/openapi/pay.json" with { type: "json" };
import manifest from "@platform/contracts/package.json" with { type: "json" };

interface Bundle {
  paths: Record<
    string,
    Record<
      string,
      {
        operationId?: string;
        responses?: Record<string, { content?: Record<string, { examples?: Record<string, { value: unknown }> }> }>;
      }
    >
  >;
}

/** The path of an operation of a bundled contract, found by its operationId. */
function operationPath(bundle: unknown, operationId: string): string {
  const { paths } = bundle as Bundle;
  const found = Object.entries(paths).find(([, item]) =>
    Object.values(item).some((operation) => operation.operationId === operationId),
  );
  if (!found) throw new Error(`no operation ${operationId} in the bundle`);
  return found[0];
}

const answered: string[] = [];

/** Answers a request with the first example of the operation's documented success (200, else 2XX), with HTTP 200. */
function examplesFetch(bundle: unknown): (request: Request) => Promise<Response> {
  const { paths } = bundle as Bundle;
  return async (request) => {
    const { pathname } = new URL(request.url);
    const match = Object.entries(paths).find(([template]) =>
      new RegExp(`^${template.replace(/\{[^}]+\}/g, "[^/]+")}$`).test(pathname),
    );
    const responses = match?.[1][request.method.toLowerCase()]?.responses;
    const examples = (responses?.["200"] ?? responses?.["2XX"])?.content?.["application/json"]?.examples;
    const example = Object.values(examples ?? {})[0];
    if (!match || !example) return new Response("not in the contract", { status: 404 });
    answered.push(`${request.method} ${match[0]}`);
    return Response.json(example.value);
  };
}

function check(condition: boolean, what: string): void {
  if (!condition) throw new Error(`consumer check failed: ${what}`);
}

// Types only: never called, but tsc must accept the good calls and reject the bad ones.
export function typeChecks(links: ReturnType<typeof createLinksClient>, pay: ReturnType<typeof createPayClient>): void {
  const rotator: LinksComponents["schemas"]["Rotator"] = false; // a quirk kept by the types: string | false
  void rotator;
  void links.POST("/api/domain/add", { body: { domain: "https://go.example" } });
  // @ts-expect-error `domain` is a required field of DomainAdd
  void links.POST("/api/domain/add", { body: { redirectroot: "https://example.com" } });
  // @ts-expect-error no such path in the links contract
  void links.GET("/api/no-such-path");
  // shop_id and nonce are added by the pay client, so an operation without fields of its own needs no body at all
  void pay.POST("/api/balance/");
  void pay.POST("/api/orders/", { body: { page: 2 } });
  // @ts-expect-error page is a number
  void pay.POST("/api/orders/", { body: { page: "2" } });
  // The types-only entry points name the same types as the clients.
  const sameAccount: LinksTypes["/api/account"]["get"] = {} as LinksPaths["/api/account"]["get"];
  void sameAccount;
  const shopPath: keyof CatalogTypes = "/admin/seller-api/me";
  void shopPath;
  const orderAmount: PayTypes["schemas"]["Order"]["amount"] = "25.50000000";
  void orderAmount;
  const userinfoSub: IdentityTypes["schemas"]["UserInfo"]["sub"] = "user";
  void userinfoSub;
  const nonce: PayComponents["schemas"]["GetBalanceRequest"]["nonce"] = 1;
  void nonce;
  type Issuance = CatalogWebhooks["issuance"]["post"];
  const event: Issuance["requestBody"] = { content: { "application/json": {} } };
  void event;
  type Claims = IdTokenClaims["sub"];
  const sub: Claims = "user";
  void sub;
  type Account = LinksPaths["/api/account"]["get"]["responses"][200]["content"]["application/json"];
  // Errors are signalled in the body: a raw 200 body may be the error envelope, which the client throws instead.
  const accountField: keyof Exclude<Account, LinksComponents["schemas"]["ErrorEnvelope"]> = "data";
  const errorWith200: Account = { error: 1, message: "The API key has expired." };
  void accountField;
  void errorWith200;
}

const links = createLinksClient({
  baseUrl: "https://links.example",
  apiKey: "demo-key",
  rateLimit: false,
  fetch: examplesFetch(linksBundle),
});
// Under exactOptionalPropertyTypes, an option may be passed a value that is possibly undefined (the docs do so).
const sharedLimiter = createLinksClient({
  baseUrl: "https://links.example",
  apiKey: "demo-key",
  rateLimit: false,
  fetch: examplesFetch(linksBundle),
}).rateLimiter;
check(
  createLinksClient({ baseUrl: "https://links.example", apiKey: "demo-key", rateLimit: sharedLimiter }).rateLimiter !==
    undefined,
  "links takes rateLimit: undefined (the default: a limiter of its own)",
);
const account = await links.GET("/api/account");
check(account.response.status === 200 && account.data !== undefined, "links GET /api/account returns data");
const domain = await links.POST("/api/domain/add", { body: { domain: "https://go.example" } });
check(domain.data?.error === 0, "links POST /api/domain/add returns the envelope");

const catalog = createCatalogClient({
  baseUrl: "https://catalog.example",
  apiKey: "demo",
  fetch: examplesFetch(catalogBundle),
});
const shop = await catalog.GET("/admin/seller-api/me");
check(typeof shop.data?.payout_verified === "boolean", "catalog GET /admin/seller-api/me returns payout_verified");

const pay = createPayClient({
  baseUrl: "https://pay.example",
  shopId: "shop_1",
  apiKey: "secret",
  nonces: memoryNonceSource(),
  fetch: examplesFetch(payBundle),
});
const balance = await pay.POST("/api/balance/");
check(balance.data?.type === "success", "pay POST /api/balance/ returns success");
check(typeof (await hmacSha256Signer("secret")(new TextEncoder().encode("{}"))) === "string", "pay signer signs");

const realFetch = globalThis.fetch;
globalThis.fetch = ((input: RequestInfo | URL, init?: RequestInit) =>
  examplesFetch(identityBundle)(new Request(input, init))) as typeof fetch;
try {
  const identity = await createIdentityClient({
    issuer: "http://127.0.0.1:4010",
    clientId: "consumer-app",
    clientSecret: "consumer-secret",
    redirectUri: "https://app.example/callback",
    allowInsecureRequests: true,
  });
  const authorization = await identity.createAuthorizationRequest(["openid"]);
  check(
    authorization.url.pathname === operationPath(identityBundle, "authorize"),
    "identity builds the authorize URL from discovery",
  );
  check(authorization.url.searchParams.get("code_challenge_method") === "S256", "identity uses PKCE S256");
  const idToken: string | undefined = undefined;
  check(
    identity.logoutUrl({ idTokenHint: idToken }).pathname === operationPath(identityBundle, "logout"),
    "identity builds the logout URL from discovery",
  );
} finally {
  globalThis.fetch = realFetch;
}
check((await createPkcePair()).method === "S256", "createPkcePair");

check(typeof fileNonceSource === "function", "the Node-only nonce source is exported");

for (const errorClass of [
  CatalogApiError,
  CatalogScopeError,
  IdentityApiError,
  LinksApiError,
  PayApiError,
  RateLimitError,
])
  check(typeof errorClass === "function", `${errorClass.name} is exported`);

console.log(JSON.stringify({ name: manifest.name, version: manifest.version, answered }));
