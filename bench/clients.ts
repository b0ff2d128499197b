// Issue #3: per-call overhead of each typed client against raw fetch on the same local node:http server, measured
// side by side in one run and printed as a ratio (target: at most 1.2x). Run: npm run bench:clients
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createCatalogClient } from "../clients/catalog.js";
import { createIdentityClient } from "../clients/identity.js";
import { createLinksClient } from "../clients/links.js";
import { createPayClient } from "../clients/pay.js";
import { medianMs, printTable } from "./support.js";

const CALLS_PER_ROUND = Number(process.env.BENCH_CALLS ?? 300);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const TARGET = 1.2;

// One server for every API: small valid bodies and generous rate-limit headers, so no client ever has to wait.
const server = createServer((request, response) => {
  request.resume();
  request.on("end", () => {
    const path = new URL(request.url ?? "/", "http://x").pathname;
    const headers = { "Content-Type": "application/json", "X-RateLimit-Limit": "1000000", "X-RateLimit-Remaining": "999999", "X-RateLimit-Reset": String(Math.floor(Date.now() / 1000) + 60) };
    const bodies: Record<string, unknown> = {
      "/.well-known/openid-configuration": { issuer: base(), authorization_endpoint: `${base()}/login/oauth/authorize`, token_endpoint: `${base()}/api/login/oauth/access_token`, userinfo_endpoint: `${base()}/api/userinfo`, jwks_uri: `${base()}/.well-known/jwks`, response_types_supported: ["code"], subject_types_supported: ["public"], id_token_signing_alg_values_supported: ["RS256"] },
      "/api/userinfo": { sub: "user-1", iss: base(), aud: "bench-app" },
      "/api/account": { error: 0, data: { id: 1, email: "demo@example.com", username: "demo", avatar: "https://cdn.example.com/a.png", status: "pro", expires: "2027-01-01 00:00:00", registered: "2024-01-15 09:30:00" } },
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
const identity = await createIdentityClient({ issuer: base(), clientId: "bench-app", clientSecret: "bench-secret", redirectUri: "http://127.0.0.1/cb", allowInsecureRequests: true });

const cases: Array<{ api: string; raw: () => Promise<unknown>; client: () => Promise<unknown> }> = [
  {
    api: "links GET /api/account",
    raw: () => fetch(`${base()}/api/account`, { headers: { Authorization: "Bearer bench-key" } }).then((r) => r.json()),
    client: () => links.GET("/api/account"),
  },
  {
    api: "catalog GET /me",
    raw: () => fetch(`${base()}/admin/seller-api/me`, { headers: { "x-seller-api-key": "bench-key" } }).then((r) => r.json()),
    client: () => catalog.GET("/admin/seller-api/me"),
  },
  {
    api: "pay POST /api/balance/",
    raw: () => fetch(`${base()}/api/balance/`, { method: "POST", headers: { "Content-Type": "application/json", Authorization: "Bearer 00" }, body: JSON.stringify({ shop_id: "1", nonce: Date.now() }) }).then((r) => r.json()),
    client: () => pay.POST("/api/balance/", { body: {} }),
  },
  {
    api: "identity GET /api/userinfo",
    raw: () => fetch(`${base()}/api/userinfo`, { headers: { Authorization: "Bearer at" } }).then((r) => r.json()),
    client: () => identity.userInfo("at", "user-1"),
  },
];

const batch = (fn: () => Promise<unknown>) => async () => {
  for (let i = 0; i < CALLS_PER_ROUND; i++) await fn();
};

const rows = [];
for (const { api, raw, client } of cases) {
  await batch(raw)();
  await batch(client)(); // warm up both paths
  // Alternate raw and client rounds so that machine noise hits both alike; compare medians.
  const rawTimes: number[] = [];
  const clientTimes: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    rawTimes.push(await medianMs(1, batch(raw)));
    clientTimes.push(await medianMs(1, batch(client)));
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const rawUs = (median(rawTimes) / CALLS_PER_ROUND) * 1000;
  const clientUs = (median(clientTimes) / CALLS_PER_ROUND) * 1000;
  const ratio = clientUs / rawUs;
  rows.push({ call: api, "raw fetch (µs/call)": rawUs, "client (µs/call)": clientUs, ratio, [`target ≤ ${TARGET}`]: ratio <= TARGET ? "met" : "missed" });
}
printTable(rows);
server.close();
