// Fault servers behind the proxy: ordinary client traffic (our clients over fetch, and raw fetch where a client
// would never misbehave: a replayed signed body, a repeated Idempotency-Key) goes through the proxy to a server that
// breaks the contract in one way. The proxy reports exactly that fault, live and in the report; the same traffic to
// the same server without the fault passes. The faults are the conformance self-test's (conformance/fault-servers/).
import { describe, expect, it } from "vitest";
import { createLinksClient } from "../../clients/links.js";
import { startCatalogServer } from "../../conformance/fault-servers/catalog.js";
import { FAULT_SERVER_CREDENTIALS as C } from "../../conformance/fault-servers/credentials.js";
import type { RunningServer } from "../../conformance/fault-servers/http.js";
import { type LinksFault, startLinksServer } from "../../conformance/fault-servers/links.js";
import { startPayServer } from "../../conformance/fault-servers/pay.js";
import { judgedTraffic } from "./support/judged.js";
import type { ApiName } from "../../lib/contract/index.js";
import { hmacSha256Signer } from "../../lib/pay-signature.js";

interface ProxyCase {
  api: ApiName;
  /** The fault, and the one check that must catch it. */
  fault: string;
  check: string;
  start(fault: boolean): Promise<RunningServer>;
  /** The traffic of an ordinary user of the API, sent to `baseUrl` (the proxy). */
  traffic(baseUrl: string): Promise<void>;
}

const links = (fault: LinksFault) => (on: boolean) =>
  startLinksServer({ token: C.LINKS_TOKEN, rateLimit: { windowMs: 60_000 }, ...(on ? { fault } : {}) });
const linksClient = (baseUrl: string) => createLinksClient({ baseUrl, apiKey: C.LINKS_TOKEN, rateLimit: false });
/** A client call whose error (a LinksApiError on a refusal, a parse error) the user's code would handle. */
const tolerate = (call: Promise<unknown>): Promise<void> =>
  call.then(
    () => undefined,
    () => undefined,
  );

async function signedPost(baseUrl: string, path: string, body: string, times: number): Promise<void> {
  const authorization = await hmacSha256Signer(C.PAY_SECRET)(new TextEncoder().encode(body));
  for (let i = 0; i < times; i++)
    await (
      await fetch(`${baseUrl}${path}`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Authorization: authorization },
        body,
      })
    ).arrayBuffer();
}

const CASES: ProxyCase[] = [
  {
    api: "links",
    fault: "server-error",
    check: "not_a_server_error",
    start: links("server-error"),
    traffic: (url) => tolerate(linksClient(url).GET("/api/overlay", { params: { query: { limit: 2, page: 1 } } })),
  },
  {
    api: "links",
    fault: "wrong-content-type",
    check: "content_type_conformance",
    start: links("wrong-content-type"),
    traffic: (url) => tolerate(linksClient(url).GET("/api/account")),
  },
  {
    api: "links",
    fault: "list-error-as-integer",
    check: "response_schema_conformance",
    start: links("list-error-as-integer"),
    traffic: (url) => tolerate(linksClient(url).GET("/api/campaigns", { params: { query: { limit: 2, page: 1 } } })),
  },
  {
    api: "links",
    fault: "no-reset-header",
    check: "response_headers_conformance",
    start: links("no-reset-header"),
    traffic: (url) => tolerate(linksClient(url).GET("/api/account")),
  },
  {
    api: "links",
    fault: "remaining-stuck",
    check: "rate_limit_headers_consistent",
    start: links("remaining-stuck"),
    traffic: async (url) => {
      for (let i = 0; i < 3; i++) await tolerate(linksClient(url).GET("/api/account"));
    },
  },
  {
    api: "links",
    fault: "ignores-limit",
    check: "list_parameters_honoured",
    start: links("ignores-limit"),
    traffic: (url) => tolerate(linksClient(url).GET("/api/domains", { params: { query: { limit: 2, page: 1 } } })),
  },
  {
    api: "pay",
    fault: "nonce-not-checked",
    check: "nonce_replay",
    start: (on) =>
      startPayServer({
        shopId: C.PAY_SHOP_ID,
        secret: C.PAY_SECRET,
        ...(on ? { fault: "nonce-not-checked" } : {}),
      }),
    // A retry that sends the very same signed body again, nonce and all.
    traffic: (url) =>
      signedPost(url, "/api/balance/", JSON.stringify({ shop_id: C.PAY_SHOP_ID, nonce: Date.now() }), 2),
  },
  {
    api: "catalog",
    fault: "idempotency-ignored",
    check: "idempotency",
    start: (on) =>
      startCatalogServer({
        apiKey: C.CATALOG_API_KEY,
        ...(on ? { fault: "idempotency-ignored" } : {}),
      }),
    // A retried creation: the same key, the same body.
    traffic: async (url) => {
      const body = JSON.stringify({
        title: "Gift card",
        delivery_type: "digital_instant",
        category_id: "pcat_8kq2m4x7",
        status: "published",
        variants: [{ title: "20 USD", prices: [{ amount: 21.5, currency_code: "usd" }] }],
      });
      const headers = {
        "Content-Type": "application/json",
        "x-seller-api-key": C.CATALOG_API_KEY,
        "Idempotency-Key": "retry-0b5e7c1d",
      };
      for (let i = 0; i < 2; i++)
        await (await fetch(`${url}/admin/seller-api/products`, { method: "POST", headers, body })).arrayBuffer();
    },
  },
];

/** The traffic through a judging proxy in front of the server; the report and the lines printed live. */
async function throughProxy(entry: ProxyCase, fault: boolean) {
  const server = await entry.start(fault);
  try {
    const { report, lines } = await judgedTraffic(entry.api, server.url, entry.traffic);
    return { report, lines, secrets: [...server.secretsSeen, C.LINKS_TOKEN, C.CATALOG_API_KEY, C.PAY_SECRET] };
  } finally {
    await server.close();
  }
}

describe("contracts proxy in front of fault servers", () => {
  it.each(CASES)("$api $fault: $check fails, live and in the report; without the fault it passes", async (entry) => {
    const faulty = await throughProxy(entry, true);
    const failed = [...new Set(faulty.report.failures.map((f) => f.check))];
    expect(failed, faulty.lines.join("\n")).toEqual([entry.check]);
    expect(faulty.lines.some((line) => line.startsWith(`  ✗ ${entry.check} on `))).toBe(true);
    expect(faulty.report.passive!.judged).toBeGreaterThan(0);
    const shown = [faulty.lines.join("\n"), JSON.stringify(faulty.report)].join("\n");
    for (const secret of faulty.secrets) expect(shown).not.toContain(secret);

    const clean = await throughProxy(entry, false);
    expect(clean.report.failures, clean.lines.join("\n")).toEqual([]);
    expect(clean.report.passive!.judged).toBe(faulty.report.passive!.judged);
  });
});
