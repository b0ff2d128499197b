// A small links server that keeps the contract (state, pagination, the envelope quirks, a per-window rate limit
// with the three headers, seeded from the contract's own examples), and that breaks it in exactly one way when
// given a fault. Used by the conformance self-tests; not the sandbox.
import { type ApiName, loadContract, type OperationId } from "../../lib/contract/index.js";
import { readCall, type Reply, type RunningServer, startServer } from "./http.js";
import { error, type Item, linksHandler, type LinksState } from "./links-operations.js";

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
  const fault = options.fault;
  const state: LinksState = {
    domains: exampleData<Item[]>("listDomains", "domains"),
    campaigns: exampleData<Item[]>("listCampaigns", "campaigns"),
    channels: exampleData<Item[]>("listChannels", "channels"),
  };
  const account = exampleData<Record<string, unknown>>("getAccount");
  const channelItems = exampleData<unknown[]>("listChannelItems", "items");
  const overlays = exampleData<Item[]>("listOverlays", "cta");
  let nextId = 1000;
  const windowMs = options.rateLimit === false ? 60_000 : (options.rateLimit?.windowMs ?? 60_000);
  let window = { start: 0, count: 0 };
  const server = { refused: 0, busiestWindow: 0 };
  const secretsSeen = new Set([options.token]);

  function rateHeaders(now: number): Record<string, string> {
    // A server that announces a reset a day ahead keeps counting until then: its window, from its first request,
    // ends only then, so that the client's wait does not hang on how many requests fit in a clock-aligned window.
    const start =
      fault === "reset-a-day-ahead" ? (window.count > 0 ? window.start : now) : Math.floor(now / windowMs) * windowMs;
    if (start !== window.start) window = { start, count: 0 };
    window.count += 1;
    server.busiestWindow = Math.max(server.busiestWindow, window.count);
    const headers: Record<string, string> = {
      "X-RateLimit-Limit": String(fault === "limit-header-not-the-cap" ? 2 * LIMIT : LIMIT),
      "X-RateLimit-Remaining": String(fault === "remaining-stuck" ? LIMIT - 1 : Math.max(0, LIMIT - window.count)),
      "X-RateLimit-Reset": String(Math.ceil((start + windowMs) / 1000)),
    };
    if (fault === "no-reset-header") delete headers["X-RateLimit-Reset"];
    // The seeds say only "timestamp": some servers send Unix milliseconds; a broken clock announces a far reset.
    if (fault === "reset-in-milliseconds") headers["X-RateLimit-Reset"] = String(start + windowMs);
    if (fault === "reset-a-day-ahead") headers["X-RateLimit-Reset"] = String(Math.ceil(now / 1000) + 86_400);
    return headers;
  }

  const handle = linksHandler({ fault, state, account, channelItems, overlays, nextId: () => nextId++ });

  const running = await startServer(
    options.port ?? 0,
    async (request) => {
      const now = Date.now();
      const headers = options.rateLimit === false ? {} : rateHeaders(now);
      const reply = await (async (): Promise<Reply> => {
        if (options.rateLimit !== false && fault !== "remaining-stuck" && window.count > LIMIT) {
          server.refused += 1;
          return error(429, "Rate limit exceeded.");
        }
        const authorization = request.headers.authorization ?? "";
        const authorized =
          fault === "ignores-wrong-token"
            ? /^Bearer \S+/.test(authorization)
            : authorization === `Bearer ${options.token}`;
        if (!authorized) {
          request.resume();
          return error(401, "A valid API key is required to use this service.");
        }
        const call = await readCall("links", request);
        if (!call) return error(404, "Unknown endpoint.");
        if (call.invalid && fault !== "accepts-invalid") return error(400, call.invalid);
        return handle(call);
      })();
      // The seed: "Every failing response has body with error = 1 and a message string".
      if (fault === "errors-without-message" && reply.body && typeof reply.body === "object")
        delete (reply.body as { message?: unknown }).message;
      return { ...reply, headers: { ...reply.headers, ...headers } };
    },
    secretsSeen,
  );
  return {
    ...running,
    state,
    get refused() {
      return server.refused;
    },
    get busiestWindow() {
      return server.busiestWindow;
    },
  };
}
