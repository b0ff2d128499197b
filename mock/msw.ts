// MSW handlers for links, catalog and pay, backed by the same implementation as the `contracts sandbox` servers:
// for frontend tests without a server. (Identity needs a real provider and browser redirects: run the sandbox.)
// Nothing here or below imports a Node module, so the same handlers serve `setupServer` in Node and `setupWorker`
// in a browser:
//
//   import { setupServer } from "msw/node";            // or: import { setupWorker } from "msw/browser";
//   import { createSandboxHandlers } from "@platform/contracts-tools/msw";
//   const server = setupServer(...createSandboxHandlers());
import { http, HttpResponse, type HttpHandler } from "msw";
import { type CatalogState, createCatalogApi, seedCatalog } from "./sandbox/catalog.js";
import { defaultConfig, type SandboxConfig } from "./sandbox/config.js";
import {
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_SANDBOX_PORTS,
  limitRefusal,
  type SandboxApi,
  type SandboxResponse,
} from "./sandbox/http.js";
import { contractRateLimit, createLinksApi, type LinksState, seedLinks } from "./sandbox/links.js";
import { createPayApi, type PayState, seedPay } from "./sandbox/pay.js";
import type { RateLimitPolicy } from "./sandbox/rate-limit.js";

export type { SandboxConfig } from "./sandbox/config.js";

type MswApi = "links" | "catalog" | "pay";

/** The state behind the handlers; pass your own to inspect it or to share it between handler sets. */
export interface MswSandboxState {
  links: LinksState;
  catalog: CatalogState;
  pay: PayState;
}

export interface SandboxHandlersOptions {
  /**
   * Where the APIs are "served"; defaults to the sandbox's own addresses (http://127.0.0.1:4021-4023). A base URL
   * may end in a path, such as a dev proxy's prefix (http://localhost:5173/api/pay): the handlers answer below it,
   * the API sees the path after it. In a browser a bare path (/api/pay) is resolved against the page's address.
   */
  baseUrls?: Partial<Record<MswApi, string>>;
  config?: SandboxConfig;
  state?: MswSandboxState;
  /**
   * The links API's limit per key. Off by default, so that tests never wait for a window; `true` applies the
   * contract's (30 per minute), or pass your own policy. The X-RateLimit-* headers are sent either way.
   */
  rateLimit?: RateLimitPolicy | boolean;
}

/** Fresh demo state: the contracts' examples plus the sandbox config. */
export function seedSandboxState(config: SandboxConfig = defaultConfig()): MswSandboxState {
  return { links: seedLinks(config.links), catalog: seedCatalog(config.catalog), pay: seedPay(config.pay) };
}

function toResponse(response: SandboxResponse): Response {
  return new HttpResponse(response.body === "" ? null : response.body, {
    status: response.status,
    headers: response.headers,
  });
}

/** Where one API's handler answers: `base` is the origin and `prefix` (a path, "" or without a trailing slash). */
interface Base {
  base: string;
  prefix: string;
}

/** A base URL as its origin and path prefix; refused at creation unless it is http(s) without query or fragment. */
function parseBaseUrl(api: MswApi, text: string): Base {
  const page = (globalThis as { location?: { href?: string } }).location?.href;
  const url = URL.canParse(text, page) ? new URL(text, page) : undefined;
  if (!url || !/^https?:$/.test(url.protocol) || url.search || url.hash || url.username || url.password) {
    throw new TypeError(
      `baseUrls.${api} must be an http(s) URL without query or fragment, optionally ending in a path prefix (http://localhost:5173/api/${api}; in a browser also /api/${api}), got "${text}"`,
    );
  }
  const prefix = url.pathname.replace(/\/+$/, "");
  return { base: `${url.origin}${prefix}`, prefix };
}

function handlerFor(api: SandboxApi, { base, prefix }: Base): HttpHandler {
  return http.all(`${base}/*`, async ({ request }) => {
    const body = new Uint8Array(await request.arrayBuffer());
    // The API sees the path below the base URL, as the sandbox server sees it below its address.
    const url = new URL(request.url);
    url.pathname = url.pathname.slice(prefix.length) || "/";
    const sandboxRequest = { method: request.method, url, headers: request.headers, body };
    const refusal = limitRefusal(api, sandboxRequest, DEFAULT_MAX_BODY_BYTES);
    if (refusal) return toResponse(refusal);
    try {
      return toResponse(await api.handle(sandboxRequest));
    } catch (error) {
      // As the node adapter does: a 500 in the API's envelope, the details in the log. MSW's own answer to a
      // handler that throws is a 500 carrying the stack trace, which the application under test would see.
      console.error("sandbox:", error);
      return toResponse(api.refuse(500, "the sandbox failed on this request; see the console"));
    }
  });
}

export function createSandboxHandlers(options: SandboxHandlersOptions = {}): HttpHandler[] {
  const config = options.config ?? defaultConfig();
  const rateLimit = options.rateLimit === true ? contractRateLimit() : (options.rateLimit ?? false);
  const state = options.state ?? seedSandboxState(config);
  const [links, catalog, pay] = (["links", "catalog", "pay"] as const).map((api) =>
    parseBaseUrl(api, options.baseUrls?.[api] ?? `http://127.0.0.1:${DEFAULT_SANDBOX_PORTS[api]}`),
  ) as [Base, Base, Base];
  return [
    handlerFor(createLinksApi(state.links, { config: config.links, rateLimit }), links),
    handlerFor(createCatalogApi(state.catalog, { config: config.catalog }), catalog),
    handlerFor(createPayApi(state.pay, { config: config.pay, baseUrl: () => pay.base }), pay),
  ];
}
