// Issue #3: per-call overhead of each typed client against raw fetch on the same local node:http server, measured
// side by side in one run and printed as a ratio (target: at most 1.2x). Run: npm run bench:clients
//
// Fairness: one server answers every variant; the raw baseline sends the same request (same path, headers, body; for
// pay the same signature and nonce work); every variant is warmed up; single calls of the variants are interleaved,
// rotating which goes first, so noise from other processes hits them alike; each of ROUNDS rounds compares the
// medians of its calls, and the printed ratio is the median of the rounds' ratios (its spread is printed too).
import { createHmac } from "node:crypto";
import { createServer } from "node:http";
import createClient from "openapi-fetch";
import type { AddressInfo } from "node:net";
import { createCatalogClient } from "../clients/catalog.js";
import { createIdentityClient } from "../clients/identity.js";
import { createLinksClient } from "../clients/links.js";
import { createPayClient } from "../clients/pay.js";
import type { paths as CatalogPaths } from "../generated/types/catalog.js";
import type { paths as LinksPaths } from "../generated/types/links.js";
import type { paths as PayPaths } from "../generated/types/pay.js";
import { loadContract, type OperationId } from "../lib/contract/index.js";
import { median, printTable, timeOne } from "./support.js";

const CALLS = Number(process.env.BENCH_CALLS ?? 3000);
const ROUNDS = 5;
const TARGET = 1.2;

// The identity provider's paths come from its contract (the discovery document names the rest).
const identityPath = (operationId: OperationId<"identity">) => loadContract("identity").operation(operationId).path;
const DISCOVERY = identityPath("getOpenIdConfiguration");
const USERINFO = identityPath("getUserInfo");

// One server for every API: small valid bodies and generous rate-limit headers, so no client ever has to wait.
const server = createServer((request, response) => {
  request.resume();
  request.on("end", () => {
    const path = new URL(request.url ?? "/", "http://x").pathname;
    const headers = {
      "Content-Type": "application/json",
      "X-RateLimit-Limit": "1000000",
      "X-RateLimit-Remaining": "999999",
      "X-RateLimit-Reset": String(Math.floor(Date.now() / 1000) + 60),
    };
    const bodies: Record<string, unknown> = {
      [DISCOVERY]: {
        issuer: base(),
        authorization_endpoint: `${base()}${identityPath("authorize")}`,
        token_endpoint: `${base()}${identityPath("exchangeToken")}`,
        userinfo_endpoint: `${base()}${USERINFO}`,
        jwks_uri: `${base()}${identityPath("getJwks")}`,
        response_types_supported: ["code"],
        subject_types_supported: ["public"],
        id_token_signing_alg_values_supported: ["RS256"],
      },
      [USERINFO]: { sub: "user-1", iss: base(), aud: "bench-app" },
      "/api/account": {
        error: 0,
        data: {
          id: 1,
          email: "demo@example.com",
          username: "demo",
          avatar: "https://cdn.example.com/a.png",
          status: "pro",
          expires: "2027-01-01 00:00:00",
          registered: "2024-01-15 09:30:00",
        },
      },
      "/admin/seller-api/me": { payout_verified: true },
      "/api/balance/": { type: "success", desc: "", data: { user_id: 7, balance: { USD: "10.00" } } },
    };
    response.writeHead(200, headers).end(JSON.stringify(bodies[path] ?? {}));
  });
});
await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
const base = () => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

const links = createLinksClient({ baseUrl: base(), apiKey: "bench-key" });
const catalog = createCatalogClient({ baseUrl: base(), apiKey: "bench-key" });
const pay = createPayClient({ baseUrl: base(), shopId: "1", apiKey: "bench-secret" });
const identity = await createIdentityClient({
  issuer: base(),
  clientId: "bench-app",
  clientSecret: "bench-secret",
  redirectUri: "http://127.0.0.1/cb",
  allowInsecureRequests: true,
});

let lastNonce = 0;
const nextNonce = () => (lastNonce = Math.max(lastNonce + 1, Date.now() * 1000));
const sign = (body: string) => `Bearer ${createHmac("sha256", "bench-secret").update(body).digest("hex")}`;

// openapi-fetch without our middleware: shows how much of a client's overhead is ours and how much the library's.
const plainLinks = createClient<LinksPaths>({ baseUrl: base() });
const plainCatalog = createClient<CatalogPaths>({ baseUrl: base() });
const plainPay = createClient<PayPaths>({ baseUrl: base() });

const cases: Array<{
  api: string;
  raw: () => Promise<unknown>;
  plain?: () => Promise<unknown>;
  client: () => Promise<unknown>;
}> = [
  {
    api: "links GET /api/account",
    raw: () => fetch(`${base()}/api/account`, { headers: { Authorization: "Bearer bench-key" } }).then((r) => r.json()),
    plain: () => plainLinks.GET("/api/account", { headers: { Authorization: "Bearer bench-key" } }),
    client: () => links.GET("/api/account"),
  },
  {
    api: "catalog GET /me",
    raw: () =>
      fetch(`${base()}/admin/seller-api/me`, { headers: { "x-seller-api-key": "bench-key" } }).then((r) => r.json()),
    plain: () => plainCatalog.GET("/admin/seller-api/me", { headers: { "x-seller-api-key": "bench-key" } }),
    client: () => catalog.GET("/admin/seller-api/me"),
  },
  {
    api: "pay POST /api/balance/",
    // A valid pay request is signed and carries a fresh nonce, so the raw baseline does that work too.
    raw: () => {
      const body = JSON.stringify({ shop_id: "1", nonce: nextNonce() });
      return fetch(`${base()}/api/balance/`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Authorization: sign(body) },
        body,
      }).then((r) => r.json());
    },
    plain: () => {
      const body = JSON.stringify({ shop_id: "1", nonce: nextNonce() });
      return plainPay.POST("/api/balance/", {
        headers: { Authorization: sign(body) },
        body: JSON.parse(body) as { shop_id: string; nonce: number },
      });
    },
    client: () => pay.POST("/api/balance/"),
  },
  {
    api: "identity getUserInfo",
    raw: () => fetch(`${base()}${USERINFO}`, { headers: { Authorization: "Bearer at" } }).then((r) => r.json()),
    client: () => identity.userInfo("at", "user-1"),
  },
];

const rows = [];
for (const { api, ...variants } of cases) {
  const entries = Object.entries(variants);
  for (let i = 0; i < 100; i++) for (const [, fn] of entries) await fn(); // warm up every path
  const rounds: Array<Record<string, number>> = [];
  for (let round = 0; round < ROUNDS; round++) {
    const times: Record<string, number[]> = Object.fromEntries(entries.map(([name]) => [name, []]));
    for (let i = 0; i < CALLS / ROUNDS; i++) {
      for (let j = 0; j < entries.length; j++) {
        const [name, fn] = entries[(i + j) % entries.length]!;
        times[name]!.push(await timeOne(fn));
      }
    }
    rounds.push(Object.fromEntries(entries.map(([name]) => [name, median(times[name]!) * 1000])));
  }
  const us = (name: string) => (name in variants ? median(rounds.map((r) => r[name]!)) : Number.NaN);
  const ratios = rounds.map((r) => r.client! / r.raw!);
  const ratio = median(ratios);
  rows.push({
    call: api,
    "raw fetch (µs)": us("raw"),
    "openapi-fetch alone (µs)": Number.isNaN(us("plain")) ? "-" : us("plain"),
    "client (µs)": us("client"),
    "client / raw": ratio,
    [`rounds (${ROUNDS})`]: `${Math.min(...ratios).toFixed(2)}-${Math.max(...ratios).toFixed(2)}`,
    [`target ≤ ${TARGET}`]: ratio <= TARGET ? "met" : "missed",
  });
}
printTable(rows);
server.close();
