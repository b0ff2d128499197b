// Client behaviour that Prism cannot show, against small local servers that enforce the rules the way a live
// deployment would: rate-limit waiting, idempotency keys kept across retries, nonce uniqueness under concurrency and
// across processes, signatures over the exact bytes sent, id_token verification with a real key, and no secret in
// any error or log line.
import { execFile } from "node:child_process";
import { createHash, createHmac } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { exportJWK, generateKeyPair, SignJWT } from "jose";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { CatalogApiError, CatalogScopeError, createCatalogClient } from "../../clients/catalog.js";
import { createIdentityClient, IdentityApiError } from "../../clients/identity.js";
import { createLinksClient, LinksApiError, RateLimitError, type RateLimitWait } from "../../clients/links.js";
import { fileNonceSource } from "../../clients/node-nonce.js";
import { createPayClient, hmacSha256Signer, PayApiError } from "../../clients/pay.js";
import { webCryptoHmacSha256Signer } from "../../lib/pay-signature.js";
import { repoRoot } from "../support/processes.js";
import { sendJson, startTestServer, type TestServer } from "../support/http.js";

const LINKS_KEY = "links-secret-key-7d1f";
const SELLER_KEY = "seller-secret-key-93ab";
const PAY_SECRET = "pay-signing-secret-51c0";
const CLIENT_SECRET = "oidc-client-secret-e8a2";
const SECRETS = [LINKS_KEY, SELLER_KEY, PAY_SECRET, CLIENT_SECRET];

const servers: TestServer[] = [];
afterAll(async () => Promise.all(servers.map((s) => s.close())));
async function serve(handler: Parameters<typeof startTestServer>[0]): Promise<string> {
  const server = await startTestServer(handler);
  servers.push(server);
  return server.url;
}

const ACCOUNT = { error: 0, data: { id: 1, email: "demo@example.com", username: "demo", avatar: "https://cdn.example.com/a.png", status: "pro", expires: "2027-01-01 00:00:00", registered: "2024-01-15 09:30:00" } };

describe("links rate limiting", () => {
  // A fixed window of LIMIT requests per WINDOW_MS, announced in the headers, refusing anything beyond.
  const LIMIT = 3;
  const WINDOW_MS = 1000;
  let windowStart = 0;
  let count = 0;
  let refused = 0;
  let served = 0;
  let url = "";

  beforeAll(async () => {
    url = await serve((_request, _body, response) => {
      const now = Date.now();
      if (now >= windowStart + WINDOW_MS) {
        windowStart = now;
        count = 0;
      }
      count += 1;
      const headers = {
        "X-RateLimit-Limit": LIMIT,
        "X-RateLimit-Remaining": Math.max(0, LIMIT - count),
        "X-RateLimit-Reset": Math.ceil((windowStart + WINDOW_MS) / 1000),
      };
      if (count > LIMIT) {
        refused += 1;
        return sendJson(response, 429, { error: 1, message: "Rate limit exceeded" }, headers);
      }
      served += 1;
      sendJson(response, 200, ACCOUNT, headers);
    });
  });

  it("the server really refuses a burst beyond the cap (raw fetch)", async () => {
    windowStart = 0;
    refused = 0;
    await Promise.all(Array.from({ length: LIMIT + 3 }, () => fetch(`${url}/api/account`).then((r) => r.arrayBuffer())));
    expect(refused).toBeGreaterThan(0);
  });

  it("the client waits for the reset instead of being refused", async () => {
    await new Promise((resolve) => setTimeout(resolve, WINDOW_MS)); // start from a fresh window
    refused = 0;
    served = 0;
    const links = createLinksClient({ baseUrl: url, apiKey: LINKS_KEY });
    const results = await Promise.all(Array.from({ length: 2 * LIMIT + 1 }, () => links.GET("/api/account")));
    expect(results.every((r) => r.data?.data.id === 1)).toBe(true);
    expect(served).toBe(2 * LIMIT + 1);
    expect(refused).toBe(0);
  });

  /** A client whose window is used up: LIMIT calls made in a fresh window. */
  async function exhaustedClient(rateLimit: Parameters<typeof createLinksClient>[0]["rateLimit"]) {
    await new Promise((resolve) => setTimeout(resolve, WINDOW_MS));
    const links = createLinksClient({ baseUrl: url, apiKey: LINKS_KEY, rateLimit });
    for (let i = 0; i < LIMIT; i++) await links.GET("/api/account");
    return links;
  }

  it("reports each wait to onRateLimit before it starts, and fails the call when it returns false", async () => {
    const waits: RateLimitWait[] = [];
    const links = await exhaustedClient({ onRateLimit: (wait) => void waits.push(wait) });
    const started = Date.now();
    await links.GET("/api/account");
    expect(waits).toHaveLength(1);
    expect(waits[0]!.limit).toBe(LIMIT);
    expect(waits[0]!.waitMs).toBeGreaterThan(0);
    expect(Date.now() - started).toBeGreaterThanOrEqual(waits[0]!.waitMs - 50);

    const refusing = await exhaustedClient({ onRateLimit: () => false });
    served = 0;
    const error = await refusing.GET("/api/account").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).message).toContain("onRateLimit returned false");
    expect(served).toBe(0);
  });

  it("fails at once instead of waiting longer than maxWaitMs", async () => {
    const links = await exhaustedClient({ maxWaitMs: 10 });
    const started = Date.now();
    const error = await links.GET("/api/account").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).wait.waitMs).toBeGreaterThan(10);
    expect(Date.now() - started).toBeLessThan(100);
  });

  it("stops waiting when the call's AbortSignal aborts, and sends nothing", async () => {
    const links = await exhaustedClient(true);
    served = 0;
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error("user navigated away")), 20);
    const started = Date.now();
    const error = await links.GET("/api/account", { signal: controller.signal }).catch((e: unknown) => e);
    expect((error as Error).message).toBe("user navigated away");
    expect(Date.now() - started).toBeLessThan(200);
    expect(served).toBe(0);
    // The aborted call left no slot taken: the next one goes after the reset.
    expect((await links.GET("/api/account")).data?.data.id).toBe(1);
  });
});

describe("catalog errors", () => {
  it("throws every error status as CatalogApiError, and a 403 as CatalogScopeError (a CatalogApiError too)", async () => {
    const url = await serve((request, _body, response) =>
      request.url === "/admin/seller-api/me" ? sendJson(response, 403, { error: "missing scope: products:read", missing_scope: "products:read" }) : sendJson(response, 422, { error: "category_id: unknown category pcat_x" }),
    );
    const catalog = createCatalogClient({ baseUrl: url, apiKey: SELLER_KEY });
    const refused = await catalog.POST("/admin/seller-api/products", { body: { title: "x", delivery_type: "digital_instant", category_id: "pcat_x", status: "draft", variants: [] } }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(CatalogApiError);
    expect(refused).toMatchObject({ status: 422, body: { error: "category_id: unknown category pcat_x" }, operation: "POST /admin/seller-api/products" });
    expect((refused as Error).message).toBe("POST /admin/seller-api/products failed (HTTP 422): category_id: unknown category pcat_x");
    const scope = await catalog.GET("/admin/seller-api/me").catch((e: unknown) => e);
    expect(scope).toBeInstanceOf(CatalogScopeError);
    expect(scope).toBeInstanceOf(CatalogApiError);
    expect(scope).toMatchObject({ status: 403, missingScope: "products:read" });
    expectNoSecrets(scope);
  });
});

describe("catalog idempotency", () => {
  const attempts: Array<{ key: string | undefined; apiKey: string | undefined }> = [];
  let url = "";
  beforeAll(async () => {
    const failedOnce = new Set<string>();
    url = await serve((request, _body, response) => {
      const key = request.headers["idempotency-key"] as string | undefined;
      attempts.push({ key, apiKey: request.headers["x-seller-api-key"] as string | undefined });
      if (request.url === "/admin/seller-api/me") return sendJson(response, 403, { error: "missing scope products:read" });
      if (key && !failedOnce.has(key)) {
        failedOnce.add(key);
        if (!key.startsWith("drop-")) return sendJson(response, 503, { error: "try again" });
        request.socket.destroy(); // a network failure
        return;
      }
      sendJson(response, 200, { variants: [{ prices: [{ amount: "10.50" }] }] });
    });
  });
  const body = { title: "Gift card", delivery_type: "digital_instant", category_id: "pcat_1", status: "published", variants: [] };

  it("sends one key per logical call and reuses it when retrying", async () => {
    attempts.length = 0;
    const catalog = createCatalogClient({ baseUrl: url, apiKey: SELLER_KEY, retryDelayMs: 1 });
    const first = await catalog.POST("/admin/seller-api/products", { body });
    const second = await catalog.POST("/admin/seller-api/products", { body });
    expect(first.response.status).toBe(200);
    expect(second.response.status).toBe(200);
    const keys = attempts.map((a) => a.key);
    expect(keys).toHaveLength(4);
    expect(keys[0]).toBeTruthy();
    expect(keys[1]).toBe(keys[0]);
    expect(keys[3]).toBe(keys[2]);
    expect(keys[2]).not.toBe(keys[0]);
    expect(attempts.every((a) => a.apiKey === SELLER_KEY)).toBe(true);
  });

  it("keeps a key the caller chose, also across a dropped connection", async () => {
    attempts.length = 0;
    const catalog = createCatalogClient({ baseUrl: url, apiKey: SELLER_KEY, retryDelayMs: 1 });
    const { response } = await catalog.POST("/admin/seller-api/products", { body, params: { header: { "Idempotency-Key": "drop-order-77" } } });
    expect(response.status).toBe(200);
    expect(attempts.map((a) => a.key)).toEqual(["drop-order-77", "drop-order-77"]);
  });

  it("does not add a key to reads, and names the missing scope of a 403", async () => {
    attempts.length = 0;
    const catalog = createCatalogClient({ baseUrl: url, apiKey: SELLER_KEY });
    const error = await catalog.GET("/admin/seller-api/me").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CatalogScopeError);
    expect((error as CatalogScopeError).missingScope).toBe("products:read");
    expect(attempts).toEqual([{ key: undefined, apiKey: SELLER_KEY }]);
    expectNoSecrets(error);
  });
});

describe("pay signing and nonces", () => {
  const received: Array<{ nonce: number; shop: unknown; process: string | undefined }> = [];
  let badSignatures = 0;
  let url = "";
  beforeAll(async () => {
    const seen = new Set<number>();
    url = await serve((request, raw, response) => {
      // The gateway checks the signature over the raw bytes it received and refuses a nonce it has seen.
      const expected = `Bearer ${createHmac("sha256", PAY_SECRET).update(raw).digest("hex")}`;
      if (request.headers.authorization !== expected) {
        badSignatures += 1;
        return sendJson(response, 200, { type: "error", desc: "Invalid signature", data: [] });
      }
      const body = JSON.parse(raw.toString()) as { nonce: number; shop_id: unknown };
      if (seen.has(body.nonce)) return sendJson(response, 200, { type: "error", desc: "Nonce already used", data: [] });
      seen.add(body.nonce);
      received.push({ nonce: body.nonce, shop: body.shop_id, process: request.headers["x-process"] as string | undefined });
      sendJson(response, 200, { type: "success", desc: "", data: { user_id: 7, balance: { USD: "10.00" } } });
    });
  });

  it("signs the exact bytes and gives 40 concurrent calls 40 unique nonces", async () => {
    received.length = 0;
    badSignatures = 0;
    const pay = createPayClient({ baseUrl: url, shopId: "1042", apiKey: PAY_SECRET });
    const results = await Promise.all(Array.from({ length: 40 }, () => pay.POST("/api/balance/", { body: {} })));
    expect(results.every((r) => r.data?.type === "success")).toBe(true);
    expect(badSignatures).toBe(0);
    expect(new Set(received.map((r) => r.nonce)).size).toBe(40);
    expect(received.every((r) => r.shop === "1042")).toBe(true);
  });

  it("keeps nonces unique and increasing across two processes sharing a nonce file", async () => {
    received.length = 0;
    const nonceFile = join(mkdtempSync(join(tmpdir(), "pay-nonce-")), "nonce");
    const script = (name: string) => `
      import { createPayClient } from ${JSON.stringify(`${repoRoot}dist/clients/pay.js`)};
      import { fileNonceSource } from ${JSON.stringify(`${repoRoot}dist/clients/node-nonce.js`)};
      const pay = createPayClient({ baseUrl: ${JSON.stringify(url)}, shopId: "1042", apiKey: process.env.PAY_SECRET,
        nonces: fileNonceSource(${JSON.stringify(nonceFile)}) });
      for (let i = 0; i < 25; i++) await pay.POST("/api/balance/", { body: {}, headers: { "x-process": ${JSON.stringify(name)} } });`;
    const run = promisify(execFile);
    const env = { ...process.env, PAY_SECRET };
    await Promise.all(["a", "b"].map((name) => run(process.execPath, ["--input-type=module", "-e", script(name)], { env })));
    expect(received).toHaveLength(50);
    expect(new Set(received.map((r) => r.nonce)).size).toBe(50);
    for (const name of ["a", "b"]) {
      const mine = received.filter((r) => r.process === name).map((r) => r.nonce);
      expect(mine).toEqual([...mine].sort((x, y) => x - y));
    }
  });

  it("hands a custom signer the exact bytes that go on the wire", async () => {
    const signed: string[] = [];
    const pay = createPayClient({
      baseUrl: url,
      shopId: "1042",
      signer: (bytes) => {
        signed.push(new TextDecoder().decode(bytes));
        return `Bearer ${createHmac("sha256", PAY_SECRET).update(bytes).digest("hex")}`;
      },
      nonces: fileNonceSource(join(mkdtempSync(join(tmpdir(), "pay-nonce-")), "nonce")),
    });
    received.length = 0;
    const { data } = await pay.POST("/api/orders/", { body: { page: 2 } });
    expect(data?.type).toBe("success");
    expect(JSON.parse(signed[0]!)).toEqual({ page: 2, shop_id: "1042", nonce: received[0]!.nonce });
  });

  it("signs alike with node:crypto (Node) and WebCrypto (browsers), as an independent HMAC does", async () => {
    const bodies = ["", "{}", JSON.stringify({ shop_id: "1042", nonce: 1_700_000_000_000_000, desc: "Café ✓" }), "x".repeat(5000)];
    for (const text of bodies) {
      const bytes = new TextEncoder().encode(text);
      const expected = `Bearer ${createHmac("sha256", PAY_SECRET).update(bytes).digest("hex")}`;
      expect(await hmacSha256Signer(PAY_SECRET)(bytes)).toBe(expected);
      expect(await webCryptoHmacSha256Signer(PAY_SECRET)(bytes)).toBe(expected);
    }
  });

  it("needs no body argument for an operation without fields of its own", async () => {
    received.length = 0;
    const pay = createPayClient({ baseUrl: url, shopId: "1042", apiKey: PAY_SECRET });
    const { data } = await pay.POST("/api/balance/");
    expect(data?.type).toBe("success");
    expect(received).toHaveLength(1);
    expect(received[0]!.shop).toBe("1042");
  });

  it("surfaces a refused request as PayApiError without the secret", async () => {
    const pay = createPayClient({ baseUrl: url, shopId: "1042", apiKey: "wrong-secret" });
    const error = await pay.POST("/api/shops/", { body: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PayApiError);
    expect((error as PayApiError).desc).toBe("Invalid signature");
    expectNoSecrets(error);
  });
});

describe("identity: id_token verification with a real key", () => {
  const REDIRECT = "http://127.0.0.1:5173/callback";
  let url = "";
  let mint: (claims: Record<string, unknown>) => Promise<string>;
  let mintWithOtherKey: (claims: Record<string, unknown>) => Promise<string>;
  // Per code: what the authorize step would have bound to it.
  const codes = new Map<string, { nonce: string; challenge: string }>();
  let tamper: (claims: Record<string, unknown>) => Record<string, unknown> = (c) => c;
  let useOtherKey = false;
  const tokenRequests: URLSearchParams[] = [];

  beforeAll(async () => {
    const { privateKey, publicKey } = await generateKeyPair("RS256");
    const other = await generateKeyPair("RS256");
    const jwk = { ...(await exportJWK(publicKey)), kid: "k1", alg: "RS256", use: "sig" };
    mint = (claims) => new SignJWT(claims).setProtectedHeader({ alg: "RS256", kid: "k1" }).sign(privateKey);
    mintWithOtherKey = (claims) => new SignJWT(claims).setProtectedHeader({ alg: "RS256", kid: "k1" }).sign(other.privateKey);
    url = await serve(async (request, raw, response) => {
      const path = new URL(request.url!, "http://x").pathname;
      if (path === "/.well-known/openid-configuration") {
        return sendJson(response, 200, {
          issuer: url,
          authorization_endpoint: `${url}/login/oauth/authorize`,
          token_endpoint: `${url}/api/login/oauth/access_token`,
          userinfo_endpoint: `${url}/api/userinfo`,
          jwks_uri: `${url}/.well-known/jwks`,
          end_session_endpoint: `${url}/api/logout`,
          response_types_supported: ["code"],
          subject_types_supported: ["public"],
          id_token_signing_alg_values_supported: ["RS256"],
          code_challenge_methods_supported: ["S256"],
          token_endpoint_auth_methods_supported: ["client_secret_post"],
        });
      }
      if (path === "/.well-known/jwks") return sendJson(response, 200, { keys: [jwk] });
      if (path === "/api/userinfo") return sendJson(response, 200, { sub: "user-1", iss: url, aud: "demo-app", tg_id: 42 });
      if (path === "/api/login/oauth/access_token") {
        const form = new URLSearchParams(raw.toString());
        tokenRequests.push(form);
        if (form.get("client_secret") !== CLIENT_SECRET) return sendJson(response, 401, { error: "invalid_client" });
        const now = Math.floor(Date.now() / 1000);
        let nonce: string | undefined;
        if (form.get("grant_type") === "authorization_code") {
          const bound = codes.get(form.get("code") ?? "");
          const verifier = form.get("code_verifier") ?? "";
          if (!bound || createHash("sha256").update(verifier).digest("base64url") !== bound.challenge) {
            return sendJson(response, 400, { error: "invalid_grant" });
          }
          nonce = bound.nonce;
        }
        const claims = tamper({ iss: url, aud: "demo-app", sub: "user-1", iat: now, exp: now + 300, ...(nonce ? { nonce } : {}) });
        const idToken = await (useOtherKey ? mintWithOtherKey : mint)(claims);
        return sendJson(response, 200, { access_token: "at-1", token_type: "Bearer", expires_in: 300, refresh_token: "rt-1", id_token: idToken, scope: "openid offline_access" });
      }
      sendJson(response, 404, { error: "not_found" });
    });
  });

  afterEach(() => {
    tamper = (c) => c;
    useOtherKey = false;
  });

  async function signIn(): Promise<ReturnType<Awaited<ReturnType<typeof createIdentityClient>>["handleCallback"]>> {
    const identity = await createIdentityClient({ issuer: url, clientId: "demo-app", clientSecret: CLIENT_SECRET, redirectUri: REDIRECT, allowInsecureRequests: true });
    const request = await identity.createAuthorizationRequest(["openid", "offline_access"]);
    const code = `code-${codes.size}`;
    codes.set(code, { nonce: request.nonce, challenge: request.url.searchParams.get("code_challenge")! });
    return identity.handleCallback(`${REDIRECT}?code=${code}&state=${request.state}`, request);
  }

  it("completes the code exchange with PKCE and client_secret_post, verifying the id_token", async () => {
    const tokens = await signIn();
    expect(tokens.claims?.sub).toBe("user-1");
    const form = tokenRequests.at(-1)!;
    expect(form.get("client_id")).toBe("demo-app");
    expect(form.get("redirect_uri")).toBe(REDIRECT);
    expect(form.get("code_verifier")).toMatch(/^[A-Za-z0-9_-]{43,128}$/);
  });

  it("refreshes and verifies the new id_token", async () => {
    const identity = await createIdentityClient({ issuer: url, clientId: "demo-app", clientSecret: CLIENT_SECRET, redirectUri: REDIRECT, allowInsecureRequests: true });
    const tokens = await identity.refresh("rt-1");
    expect(tokens.accessToken).toBe("at-1");
    expect(tokens.claims?.iss).toBe(url);
  });

  it.each([
    ["a signature by another key", () => (useOtherKey = true)],
    ["another audience", () => (tamper = (c) => ({ ...c, aud: "someone-else" }))],
    ["another issuer", () => (tamper = (c) => ({ ...c, iss: "http://127.0.0.1:1" }))],
    ["an expired token", () => (tamper = (c) => ({ ...c, exp: Math.floor(Date.now() / 1000) - 3600 }))],
    ["another nonce", () => (tamper = (c) => ({ ...c, nonce: "replayed" }))],
  ])("refuses an id_token with %s", async (_what, arrange) => {
    arrange();
    const error = await signIn().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expectNoSecrets(error);
  });

  it("puts the provider's OAuth error code in the message of IdentityApiError", async () => {
    const identity = await createIdentityClient({ issuer: url, clientId: "demo-app", clientSecret: CLIENT_SECRET, redirectUri: REDIRECT, allowInsecureRequests: true });
    const request = await identity.createAuthorizationRequest(["openid"]);
    const error = await identity.handleCallback(`${REDIRECT}?code=never-issued&state=${request.state}`, request).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(IdentityApiError);
    expect(error).toMatchObject({ code: "invalid_grant", status: 400 });
    expect((error as Error).message).toMatch(/^invalid_grant \(code exchange, HTTP 400\)$/);
    const denied = await identity.handleCallback(`${REDIRECT}?error=access_denied&error_description=The+user+said+no&state=${request.state}`, request).catch((e: unknown) => e);
    expect((denied as Error).message).toBe("access_denied: The user said no (code exchange)");
    const wrongSecret = await createIdentityClient({ issuer: url, clientId: "demo-app", clientSecret: "not-the-secret", redirectUri: REDIRECT, allowInsecureRequests: true });
    const unauthorized = await wrongSecret.refresh("rt-1").catch((e: unknown) => e);
    expect((unauthorized as Error).message).toBe("invalid_client (refresh, HTTP 401)");
    expectNoSecrets(error);
  });

  it("sends the client secret only in the token request body", async () => {
    await signIn();
    expect(tokenRequests.at(-1)!.get("client_secret")).toBe(CLIENT_SECRET);
  });
});

describe("secrets", () => {
  it("never appear in errors or console output", async () => {
    const logged: string[] = [];
    const spies = (["log", "info", "warn", "error", "debug"] as const).map((level) =>
      vi.spyOn(console, level).mockImplementation((...args: unknown[]) => void logged.push(args.map(String).join(" "))),
    );
    try {
      const url = await serve((_request, _body, response) => sendJson(response, 401, { error: 1, message: "Invalid API key" }));
      const error = await createLinksClient({ baseUrl: url, apiKey: LINKS_KEY }).GET("/api/account").catch((e: unknown) => e);
      expect(error).toBeInstanceOf(LinksApiError);
      expectNoSecrets(error);
      const payError = await createPayClient({ baseUrl: "http://127.0.0.1:9", shopId: "1", apiKey: PAY_SECRET }).POST("/api/shops/", { body: {} }).catch((e: unknown) => e);
      expectNoSecrets(payError);
    } finally {
      spies.forEach((spy) => spy.mockRestore());
    }
    for (const line of logged) for (const secret of SECRETS) expect(line).not.toContain(secret);
  });
});

function expectNoSecrets(error: unknown): void {
  const texts = [String(error), (error as Error)?.stack ?? "", JSON.stringify(error) ?? "", JSON.stringify((error as { cause?: unknown })?.cause ?? null) ?? ""];
  for (const text of texts) for (const secret of SECRETS) expect(text).not.toContain(secret);
}
