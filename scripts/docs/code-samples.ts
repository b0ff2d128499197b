// The code samples of every operation, generated from the contract: a curl command and a call of our TypeScript
// client against the local sandbox with its demo credentials, plus the names of the generated request and response
// types. They become `x-codeSamples` of the readers' copy of each bundle (reader-bundle.ts), which the reference
// pages and the standalone Redoc pages both show; test/docs/samples.test.ts type-checks the TypeScript ones.
import { DEFAULT_CONFIG } from "../../mock/sandbox/default-config.js";
import { DEFAULT_SANDBOX_PORTS } from "../../mock/sandbox/http.js";
import { type ApiName, deref, type DocOperation, type Node, type Document, refName } from "./document.js";
import { exampleRequest, formBody, mediaTypeName, withoutShopAndNonce } from "./example-request.js";

export interface CodeSample {
  /** Redoc's `x-codeSamples` fields: the language (for highlighting) and the tab's label. */
  lang: "Shell" | "TypeScript";
  label: string;
  source: string;
}

/** The demo credentials of the sandbox (mock/sandbox/default-config.ts), which the Prism mock accepts too. */
export const DEMO_CREDENTIALS = {
  identity: {
    clientId: DEFAULT_CONFIG.identity.clients[0]!.client_id,
    clientSecret: DEFAULT_CONFIG.identity.clients[0]!.client_secret,
    redirectUri: DEFAULT_CONFIG.identity.clients[0]!.redirect_uris[0]!,
  },
  links: { apiKey: DEFAULT_CONFIG.links.keys[0]!.api_key },
  catalog: { apiKey: DEFAULT_CONFIG.catalog.keys[0]!.api_key },
  pay: { shopId: DEFAULT_CONFIG.pay.keys[0]!.shop_id, apiKey: DEFAULT_CONFIG.pay.keys[0]!.api_key },
} as const;

export const sandboxUrl = (api: ApiName): string => `http://127.0.0.1:${DEFAULT_SANDBOX_PORTS[api]}`;

/** The TypeScript type of a schema as openapi-typescript names it, e.g. `components["schemas"]["Order"]`. */
export interface TypeNames {
  request?: string;
  responses: Array<{ status: string; type: string }>;
}

const q = (value: string): string => JSON.stringify(value);

export function typeNamesOf(doc: Document, op: DocOperation): TypeNames {
  const root = op.webhook ? `webhooks[${q(op.path)}][${q(op.method)}]` : `operations[${q(op.operationId)}]`;
  const named = (schema: Node | undefined, fallback: string): string =>
    typeof schema?.$ref === "string" && schema.$ref.startsWith("#/components/schemas/")
      ? `components["schemas"][${q(refName(schema.$ref))}]`
      : fallback;
  const names: TypeNames = { responses: [] };
  const body = deref(doc, op.operation.requestBody);
  const bodyType = mediaTypeName(body?.content);
  if (body && bodyType) {
    const path = body.required ? `${root}["requestBody"]` : `NonNullable<${root}["requestBody"]>`;
    names.request = named(body.content?.[bodyType]?.schema, `${path}["content"][${q(bodyType)}]`);
  }
  for (const [status, reference] of Object.entries(op.operation.responses ?? {})) {
    const response = deref(doc, reference);
    const type = mediaTypeName(response.content);
    if (!type) continue;
    const key = /^\d+$/.test(status) ? status : q(status);
    names.responses.push({
      status,
      type: named(response.content?.[type]?.schema, `${root}["responses"][${key}]["content"][${q(type)}]`),
    });
  }
  return names;
}

const shellQuote = (value: string): string => `'${value.replaceAll("'", `'\\''`)}'`;

function queryString(query: Array<[string, unknown]>): string {
  if (query.length === 0) return "";
  const pairs = query.map(([name, value]) => [name, typeof value === "string" ? value : JSON.stringify(value)]);
  return `?${new URLSearchParams(pairs).toString()}`;
}

function curlSample(api: ApiName, doc: Document, op: DocOperation): string {
  const request = exampleRequest(doc, op);
  const base = op.webhook ? "http://127.0.0.1:8080/your-webhook" : sandboxUrl(api);
  const url = `${base}${op.webhook ? "" : request.path}${queryString(request.query)}`;
  const lines: string[] = [];
  const args: string[] = [`curl -X ${op.method.toUpperCase()} ${shellQuote(url)}`];
  const security = (op.operation.security ?? doc.security ?? [])[0] ?? {};
  if (!op.webhook && api === "links" && "bearerApiKey" in security) {
    lines.push(`LINKS_API_KEY=${DEMO_CREDENTIALS.links.apiKey}  # the sandbox's demo key`);
    args.push(`-H "Authorization: Bearer $LINKS_API_KEY"`);
  }
  if (!op.webhook && api === "catalog" && "sellerApiKey" in security) {
    lines.push(`CATALOG_API_KEY=${DEMO_CREDENTIALS.catalog.apiKey}  # the sandbox's demo key`);
    args.push(`-H "x-seller-api-key: $CATALOG_API_KEY"`);
  }
  if (api === "identity" && Object.keys(security).length > 0) {
    lines.push("ACCESS_TOKEN=...  # from the token endpoint");
    args.push(`-H "Authorization: Bearer $ACCESS_TOKEN"`);
  }
  for (const [name, value] of request.headers) args.push(`-H ${shellQuote(`${name}: ${String(value)}`)}`);
  if (request.bodyType) args.push(`-H ${shellQuote(`Content-Type: ${request.bodyType}`)}`);
  if (api === "pay" && !op.webhook) {
    // The body carries the shop and a fresh nonce, and its exact bytes are signed (HMAC-SHA256, hex).
    // The example's own shop and nonce are replaced: drop them from the rest.
    const rest = withoutShopAndNonce(request.body);
    const json = JSON.stringify({ shop_id: DEMO_CREDENTIALS.pay.shopId, ...rest });
    lines.push(
      `PAY_API_KEY=${DEMO_CREDENTIALS.pay.apiKey}  ` +
        `# the signing secret of shop ${DEMO_CREDENTIALS.pay.shopId} in the sandbox; never sent`,
      `BODY=${shellQuote(`${json.slice(0, -1)},"nonce":`)}"$(date +%s%6N)"'}'`,
      `SIGNATURE=$(printf '%s' "$BODY" | openssl dgst -sha256 -hmac "$PAY_API_KEY" -hex | sed 's/^.* //')`,
    );
    args.push(`-H "Authorization: Bearer $SIGNATURE"`, `-d "$BODY"`);
  } else if (request.bodyType?.includes("json")) {
    args.push(`-d ${shellQuote(JSON.stringify(request.body))}`);
  } else if (request.bodyType) {
    args.push(`-d ${shellQuote(formBody(withDemoClient(request.body)))}`);
  }
  lines.push(args.join(" \\\n  "));
  return lines.join("\n");
}

/** A form body with the sandbox's demo client in place of the example's made-up client_id and client_secret. */
function withDemoClient(body: unknown): Record<string, unknown> {
  const fields = { ...(body as Record<string, unknown>) };
  if ("client_id" in fields) fields.client_id = DEMO_CREDENTIALS.identity.clientId;
  if ("client_secret" in fields) fields.client_secret = DEMO_CREDENTIALS.identity.clientSecret;
  return fields;
}

/** What the TypeScript sample imports and how it builds the client, per API. */
const CLIENT_SETUP: Record<Exclude<ApiName, "identity">, { factory: string; variable: string; options: string }> = {
  links: {
    factory: "createLinksClient",
    variable: "links",
    options:
      `{ baseUrl: ${q(sandboxUrl("links"))}, ` +
      `apiKey: process.env.LINKS_API_KEY ?? ${q(DEMO_CREDENTIALS.links.apiKey)} }`,
  },
  catalog: {
    factory: "createCatalogClient",
    variable: "catalog",
    options:
      `{ baseUrl: ${q(sandboxUrl("catalog"))}, ` +
      `apiKey: process.env.CATALOG_API_KEY ?? ${q(DEMO_CREDENTIALS.catalog.apiKey)} }`,
  },
  pay: {
    factory: "createPayClient",
    variable: "pay",
    options:
      `{ baseUrl: ${q(sandboxUrl("pay"))}, shopId: ${q(DEMO_CREDENTIALS.pay.shopId)}, ` +
      `apiKey: process.env.PAY_API_KEY ?? ${q(DEMO_CREDENTIALS.pay.apiKey)} }`,
  },
};

/** The identity client is openid-client, not one call per path: which of its methods sends each operation. */
const IDENTITY_CALLS: Record<string, string[]> = {
  getOpenIdConfiguration: [
    "// createIdentityClient reads the discovery document.",
    "const metadata = identity.configuration.serverMetadata();",
    "console.log(metadata.issuer, metadata.token_endpoint);",
  ],
  getJwks: [
    "declare const idToken: string;",
    "// Fetches the JWKS and checks the signature, iss, aud and exp.",
    "const claims = await identity.verifyIdToken(idToken);",
    "console.log(claims.sub);",
  ],
  authorize: [
    'const request = await identity.createAuthorizationRequest(["openid", "profile", "email"]);',
    "// Redirect the browser to request.url; keep state, nonce and codeVerifier for the callback.",
    "console.log(request.url.href);",
  ],
  exchangeToken: [
    "declare const callbackUrl: string; // where the provider redirected the browser",
    "declare const saved: { state: string; nonce: string; codeVerifier: string };",
    "const tokens = await identity.handleCallback(callbackUrl, saved);",
    "if (tokens.refreshToken) await identity.refresh(tokens.refreshToken); // the refresh_token grant",
  ],
  getUserInfo: [
    "declare const accessToken: string, subject: string;",
    "const user = await identity.userInfo(accessToken, subject);",
    "console.log(user.sub);",
  ],
  getUserInfoByPost: [
    "declare const accessToken: string, subject: string;",
    "// The client reads userinfo by GET; the POST returns the same claims.",
    "const user = await identity.userInfo(accessToken, subject);",
    "console.log(user.sub);",
  ],
  logout: [
    "declare const idToken: string;",
    `const url = identity.logoutUrl({ idTokenHint: idToken, postLogoutRedirectUri: "http://127.0.0.1:5173/" });`,
    "// Redirect the browser to url.",
    "console.log(url.href);",
  ],
  logoutWithForm: [
    "declare const idToken: string;",
    "// The client redirects (GET); the POST form takes the same parameters.",
    `const url = identity.logoutUrl({ idTokenHint: idToken, postLogoutRedirectUri: "http://127.0.0.1:5173/" });`,
    "console.log(url.href);",
  ],
};

function typeAliases(
  names: TypeNames,
  operationId: string,
): { lines: string[]; imports: Set<string>; success?: string } {
  const pascal = operationId.charAt(0).toUpperCase() + operationId.slice(1);
  const lines: string[] = [];
  const imports = new Set<string>();
  const use = (type: string) =>
    imports.add(type.startsWith("webhooks") ? "webhooks" : type.match(/^(?:NonNullable<)?(\w+)/)![1]!);
  if (names.request) {
    lines.push(`export type ${pascal}Request = ${names.request};`);
    use(names.request);
  }
  let success: string | undefined;
  for (const { status, type } of names.responses) {
    const alias = `${pascal}Response${status === "default" ? "Default" : status}`;
    lines.push(`export type ${alias} = ${type};`);
    use(type);
    if (/^2/.test(status) && success === undefined) success = alias;
  }
  const successes = names.responses.filter((r) => /^2/.test(r.status));
  return { lines, imports, success: successes.length === 1 ? success : undefined };
}

/** An object literal for the client call, indented when it does not fit one short line. */
function literal(value: unknown): string {
  const flat = JSON.stringify(value);
  return flat.length <= 60 ? flat : JSON.stringify(value, null, 2);
}

function typescriptSample(api: ApiName, doc: Document, op: DocOperation): string {
  const module = `@platform/contracts/${api}`;
  const { lines: aliases, imports, success } = typeAliases(typeNamesOf(doc, op), op.operationId);
  const typeImports = [...imports].sort().map((name) => `type ${name}`);
  const alsoImported = typeImports.length > 0 ? `, ${typeImports.join(", ")}` : "";
  if (op.webhook) {
    return [
      `import { ${typeImports.join(", ")} } from ${q(module)};`,
      "",
      "// The provider sends the request; your server answers with one of the responses.",
      ...aliases,
    ].join("\n");
  }
  if (api === "identity") {
    const call = IDENTITY_CALLS[op.operationId];
    if (!call)
      throw new Error(
        `no identity client call is known for ${op.operationId}: ` +
          "add it to IDENTITY_CALLS in scripts/docs/code-samples.ts",
      );
    const { clientId, clientSecret, redirectUri } = DEMO_CREDENTIALS.identity;
    return [
      `import { createIdentityClient${alsoImported} } from ${q(module)};`,
      "",
      ...aliases,
      ...(aliases.length > 0 ? [""] : []),
      "const identity = await createIdentityClient({",
      `  issuer: ${q(sandboxUrl("identity"))},`,
      `  clientId: ${q(clientId)},`,
      `  clientSecret: process.env.IDENTITY_CLIENT_SECRET ?? ${q(clientSecret)},`,
      `  redirectUri: ${q(redirectUri)},`,
      "  allowInsecureRequests: true, // plain HTTP on 127.0.0.1 only",
      "});",
      ...call,
    ].join("\n");
  }
  const setup = CLIENT_SETUP[api];
  const request = exampleRequest(doc, op);
  const init: string[] = [];
  const params: string[] = [];
  if (request.pathParams.length > 0) params.push(`path: ${literal(Object.fromEntries(request.pathParams))}`);
  if (request.query.length > 0) params.push(`query: ${literal(Object.fromEntries(request.query))}`);
  // The catalog client adds the Idempotency-Key of a write itself.
  const headers = request.headers.filter(([name]) => !(api === "catalog" && name.toLowerCase() === "idempotency-key"));
  if (headers.length > 0) params.push(`header: ${literal(Object.fromEntries(headers))}`);
  if (params.length > 0) init.push(`params: { ${params.join(", ")} }`);
  if (request.bodyType) {
    // The pay client adds shop_id and a fresh nonce to every body.
    const body = api === "pay" ? withoutShopAndNonce(request.body) : request.body;
    init.push(`body: ${literal(body)}`);
  }
  const method = op.method.toUpperCase();
  const call = `await ${setup.variable}.${method}(${q(op.path)}${init.length > 0 ? `, { ${init.join(", ")} }` : ""})`;
  return [
    `import { ${setup.factory}${alsoImported} } from ${q(module)};`,
    "",
    ...aliases,
    ...(aliases.length > 0 ? [""] : []),
    `const ${setup.variable} = ${setup.factory}(${setup.options});`,
    `const { data } = ${call};`,
    ...(success ? [`const result: ${success} | undefined = data;`, "console.log(result);"] : ["console.log(data);"]),
  ].join("\n");
}

export function codeSamplesOf(api: ApiName, doc: Document, op: DocOperation): CodeSample[] {
  return [
    { lang: "Shell", label: "curl", source: curlSample(api, doc, op) },
    { lang: "TypeScript", label: "TypeScript", source: typescriptSample(api, doc, op) },
  ];
}

/** What the console (docs/.vitepress/theme/TryIt.vue) needs to send one operation, prefilled from its examples. */
export interface TryItRequest {
  method: string;
  path: string;
  pathParams: Array<{ name: string; value: string }>;
  query: Array<{ name: string; value: string }>;
  headers: Array<{ name: string; value: string }>;
  bodyType: string | undefined;
  body: string;
  /** The credential the console adds: a bearer key, the catalog key header, pay's signature, an OAuth access token. */
  auth: "none" | "bearer-key" | "seller-key" | "pay-signature" | "access-token";
  /** Whether it needs what only a sign-in gives (a code, a token): the console says how to get them. */
  signIn: boolean;
}

/**
 * What a sign-in gives (a code, its verifier, an access token, an ID token), in place of the examples' made-up values:
 * those look usable, and the sandbox must refuse them. The placeholders say where the real ones come from, and still
 * match the contract, so the Prism mock answers them as it answers the examples (the ID token's dots keep the three
 * parts of a JWT that `id_token_hint`'s pattern asks for).
 */
const SIGN_IN_PLACEHOLDERS: Record<string, string> = {
  code: "paste-CODE-from-npx-contracts-sandbox-sign-in",
  code_verifier: "paste-CODE_VERIFIER-from-npx-contracts-sandbox-sign-in",
  access_token: "paste-ACCESS_TOKEN-from-npx-contracts-sandbox-sign-in",
  id_token_hint: "paste.ID_TOKEN.from-npx-contracts-sandbox-sign-in",
};

function withSignInPlaceholders(fields: Record<string, unknown>): Record<string, unknown> {
  const replaced = { ...fields };
  for (const name of Object.keys(SIGN_IN_PLACEHOLDERS))
    if (name in replaced) replaced[name] = SIGN_IN_PLACEHOLDERS[name];
  return replaced;
}

export interface TryItApi {
  targets: Array<{ label: string; url: string }>;
  credentials: Record<string, string>;
  operations: Record<string, TryItRequest>;
}

const text = (value: unknown): string => (typeof value === "string" ? value : JSON.stringify(value));

export function tryItApi(api: ApiName, doc: Document, operations: DocOperation[]): TryItApi {
  const local = (doc.servers ?? []).filter((server) => server.url.startsWith("http://127.0.0.1"));
  const result: TryItApi = {
    targets: local.map((server) => ({
      label: /sandbox/i.test(server.description ?? "") ? "Stateful sandbox" : "Prism mock",
      url: server.url,
    })),
    credentials: { ...DEMO_CREDENTIALS[api] },
    operations: {},
  };
  for (const op of operations.filter((o) => !o.webhook)) {
    const request = exampleRequest(doc, op);
    const security = (op.operation.security ?? doc.security ?? [])[0] ?? {};
    const schemes = Object.keys(security);
    const auth: TryItRequest["auth"] =
      schemes.length === 0
        ? "none"
        : api === "links"
          ? "bearer-key"
          : api === "catalog"
            ? "seller-key"
            : api === "pay"
              ? "pay-signature"
              : "access-token";
    let body = "";
    let signIn = auth === "access-token";
    if (request.bodyType?.includes("json")) {
      const value = api === "pay" ? withoutShopAndNonce(request.body) : request.body;
      body = JSON.stringify(value, null, 2);
    } else if (request.bodyType) {
      const fields = withDemoClient(request.body);
      signIn ||= Object.keys(fields).some((name) => name in SIGN_IN_PLACEHOLDERS);
      body = formBody(withSignInPlaceholders(fields));
    }
    result.operations[op.operationId] = {
      method: op.method.toUpperCase(),
      path: op.path,
      pathParams: request.pathParams.map(([name, value]) => ({ name, value: text(value) })),
      query: request.query.map(([name, value]) => ({ name, value: text(value) })),
      headers: request.headers.map(([name, value]) => ({ name, value: text(value) })),
      bodyType: request.bodyType,
      body,
      auth,
      signIn,
    };
  }
  return result;
}
