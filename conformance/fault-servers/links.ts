// A small links server that keeps the contract (state, pagination, the envelope quirks, a per-window rate limit
// with the three headers, seeded from the contract's own examples), and that breaks it in exactly one way when
// given a fault; `drifted` breaks it in several, as a deployment whose code drifted from its docs does (an integer
// `error` on every list, beside another broken field on two of them; a 405 HTML page without Allow for an
// undocumented method), for the report's grouping of failures by cause. Used by the conformance self-tests; not the
// sandbox. This file is the server (rate limit, token, request); the operations it answers are in links-operations.ts.
import type { IncomingMessage } from "node:http";
import { type ApiName, loadContract, type OperationId } from "../../lib/contract/index.js";
import { type IncomingCall, readCall, type Reply, type RunningServer, startServer } from "./http.js";
import { error, type Item, linksHandler, type LinksState, type LinksWorld } from "./links-operations.js";

export const LINKS_FAULTS = [
  "server-error",
  "wrong-content-type",
  "list-error-as-integer",
  "no-reset-header",
  "accepts-invalid",
  "refuses-large-limit",
  "ignores-wrong-token",
  "delete-keeps-resource",
  "created-not-listed",
  "remaining-stuck",
  "reset-in-milliseconds",
  "reset-a-day-ahead",
  "echoes-token-escaped",
  "ignores-limit",
  "currentpage-from-zero",
  "update-keeps-old-values",
  "errors-without-message",
  "limit-header-not-the-cap",
  "adds-domain-without-domain",
  "undocumented-method-html",
  "currentpage-always-1",
  "drifted",
] as const;
export type LinksFault = (typeof LINKS_FAULTS)[number];

export interface LinksServerOptions {
  token: string;
  /** Requests per window; the limit header always says 30, as the contract does. `false` switches counting off. */
  rateLimit?: { windowMs: number } | false;
  fault?: LinksFault;
  port?: number;
}

export interface LinksServer extends RunningServer {
  state: LinksState;
  /** Requests answered 429, and the most requests seen in one window. */
  refused: number;
  busiestWindow: number;
}

/** The contract's cap: requests a window. */
const LIMIT = 30;

/** A copy of the first named example of an operation's success response (the fault servers' seed data). */
export function exampleOf<A extends ApiName>(api: A, operationId: OperationId<A>): unknown {
  const [first] = loadContract(api).responseExamples(operationId);
  if (!first) throw new Error(`${api} ${operationId} has no named example for its success response`);
  return first.value;
}

/** `data.<key>` of an operation's example, the shape of every links answer. */
function exampleData<T>(operationId: OperationId<"links">, key?: string): T {
  const { data } = exampleOf("links", operationId) as { data: Record<string, unknown> };
  return (key === undefined ? data : data[key]) as T;
}

export async function startLinksServer(options: LinksServerOptions): Promise<LinksServer> {
  const { fault, token } = options;
  const world = seededWorld(fault);
  const handle = linksHandler(world);
  const rateWindow =
    options.rateLimit === false ? undefined : new RateWindow(fault, options.rateLimit?.windowMs ?? 60_000);
  const running = await startServer(
    options.port ?? 0,
    async (request) => {
      const headers = rateWindow ? rateWindow.count(Date.now()) : {};
      const reply = rateWindow?.refuses() ? rateWindow.refusal() : await answer(request, token, fault, handle);
      if (fault === "errors-without-message") dropMessage(reply);
      return { ...reply, headers: { ...reply.headers, ...headers } };
    },
    new Set([token]),
  );
  return {
    ...running,
    state: world.state,
    get refused() {
      return rateWindow?.refused ?? 0;
    },
    get busiestWindow() {
      return rateWindow?.busiest ?? 0;
    },
  };
}

/** The world of a new server: the state and fixed lists seeded from the contract's examples, ids from 1000 on. */
function seededWorld(fault: LinksFault | undefined): LinksWorld {
  let nextId = 1000;
  return {
    fault,
    state: {
      domains: exampleData<Item[]>("listDomains", "domains"),
      campaigns: exampleData<Item[]>("listCampaigns", "campaigns"),
      channels: exampleData<Item[]>("listChannels", "channels"),
    },
    account: exampleData<Record<string, unknown>>("getAccount"),
    channelItems: exampleData<unknown[]>("listChannelItems", "items"),
    overlays: exampleData<Item[]>("listOverlays", "cta"),
    nextId: () => nextId++,
  };
}

/**
 * The rate limit as this server counts it: requests per window, and the three headers it announces about them (each
 * broken where the fault says).
 */
class RateWindow {
  /** Requests answered 429, and the most requests seen in one window. */
  refused = 0;
  busiest = 0;
  private start = 0;
  private requests = 0;
  private readonly fault: LinksFault | undefined;
  private readonly windowMs: number;

  constructor(fault: LinksFault | undefined, windowMs: number) {
    this.fault = fault;
    this.windowMs = windowMs;
  }

  /** Counts a request that arrives at `now`; the rate-limit headers of its answer. */
  count(now: number): Record<string, string> {
    const start = this.windowStart(now);
    if (start !== this.start) {
      this.start = start;
      this.requests = 0;
    }
    this.requests += 1;
    this.busiest = Math.max(this.busiest, this.requests);
    return this.headers(now);
  }

  /** Whether the request just counted is over the cap; a server whose remaining count is stuck never refuses. */
  refuses(): boolean {
    return this.fault !== "remaining-stuck" && this.requests > LIMIT;
  }

  refusal(): Reply {
    this.refused += 1;
    return error(429, "Rate limit exceeded.");
  }

  // A server that announces a reset a day ahead keeps counting until then: its window, from its first request, ends
  // only then, so that the client's wait does not hang on how many requests fit in a clock-aligned window.
  private windowStart(now: number): number {
    if (this.fault === "reset-a-day-ahead") return this.requests > 0 ? this.start : now;
    return Math.floor(now / this.windowMs) * this.windowMs;
  }

  private headers(now: number): Record<string, string> {
    const { fault, start, windowMs } = this;
    const headers: Record<string, string> = {
      "X-RateLimit-Limit": String(fault === "limit-header-not-the-cap" ? 2 * LIMIT : LIMIT),
      "X-RateLimit-Remaining": String(fault === "remaining-stuck" ? LIMIT - 1 : Math.max(0, LIMIT - this.requests)),
      "X-RateLimit-Reset": String(Math.ceil((start + windowMs) / 1000)),
    };
    if (fault === "no-reset-header") delete headers["X-RateLimit-Reset"];
    // The seeds say only "timestamp": some servers send Unix milliseconds; a broken clock announces a far reset.
    if (fault === "reset-in-milliseconds") headers["X-RateLimit-Reset"] = String(start + windowMs);
    if (fault === "reset-a-day-ahead") headers["X-RateLimit-Reset"] = String(Math.ceil(now / 1000) + 86_400);
    return headers;
  }
}

/** The answer to a request within the rate limit: the token first, then a call the contract knows, then its data. */
async function answer(
  request: IncomingMessage,
  token: string,
  fault: LinksFault | undefined,
  handle: (call: IncomingCall) => Reply,
): Promise<Reply> {
  const authorization = request.headers.authorization ?? "";
  const authorized =
    fault === "ignores-wrong-token" ? /^Bearer \S+/.test(authorization) : authorization === `Bearer ${token}`;
  if (!authorized) {
    request.resume();
    return error(401, "A valid API key is required to use this service.");
  }
  const call = await readCall("links", request);
  if (!call)
    return fault === "undocumented-method-html" || fault === "drifted"
      ? html405(request, fault)
      : error(404, "Unknown endpoint.");
  if (call.invalid && fault !== "accepts-invalid" && !addsWithoutDomain(call, fault)) return error(400, call.invalid);
  return handle(call);
}

/**
 * The `undocumented-method-html` fault: a web server's own page, though the seed says "All responses are JSON". Its
 * Allow lists the path's methods (RFC 9110 §15.5.6), so that the page is its only fault; `drifted` sends no Allow.
 */
function html405(request: IncomingMessage, fault: LinksFault): Reply {
  const { pathname } = new URL(request.url ?? "/", "http://localhost");
  const allowed = ["GET", "POST", "PUT", "DELETE", "PATCH"].filter((method) =>
    loadContract("links").route(method.toLowerCase(), pathname),
  );
  return {
    status: 405,
    text: "<html><body><h1>405 Method Not Allowed</h1></body></html>",
    headers: { "Content-Type": "text/html", ...(fault === "drifted" ? {} : { Allow: allowed.join(", ") }) },
  };
}

/** The `adds-domain-without-domain` fault: a domain add without the `domain` the seed requires is accepted. */
function addsWithoutDomain(call: IncomingCall, fault: LinksFault | undefined): boolean {
  if (fault !== "adds-domain-without-domain" || call.operationId !== "addDomain" || !call.body) return false;
  if ("domain" in call.body) return false;
  call.body.domain = `https://unnamed-${Date.now()}.example.com`;
  return true;
}

/**
 * The `errors-without-message` fault. The seed: "Every failing response has body with error = 1 and a message
 * string".
 */
function dropMessage(reply: Reply): void {
  if (reply.body && typeof reply.body === "object") delete (reply.body as { message?: unknown }).message;
}
