// A small links server that keeps the contract (state, pagination, the envelope quirks, a per-window rate limit
// with the three headers, seeded from the contract's own examples), and that breaks it in exactly one way when
// given a fault. Used by the conformance self-tests; not the sandbox.
import { type ApiName, loadContract, type OperationId } from "../../lib/contract/index.js";
import { type IncomingCall, readCall, type Reply, type RunningServer, startServer } from "./http.js";

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

/**
 * A stored domain, campaign or channel: the contract's fields, plus whether the `created-not-listed` fault hides it.
 */
type Item = Record<string, unknown> & { id: number; hidden?: boolean };

interface LinksState {
  domains: Item[];
  campaigns: Item[];
  channels: Item[];
}

/** What one request may change or read: the state, the account, and the fixed lists seeded from the examples. */
interface LinksWorld {
  fault: LinksFault | undefined;
  state: LinksState;
  account: Record<string, unknown>;
  channelItems: unknown[];
  overlays: Item[];
  nextId: () => number;
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

/**
 * JSON as other encoders write it: `/` as PHP's `\/`, `+ = ' < > &` and non-ASCII as \uXXXX in either hex case (.NET,
 * Gson, Go).
 */
function escapedJson(value: unknown): string {
  const escapes: Record<string, string> = {
    "/": "\\/",
    "+": "\\u002B",
    "=": "\\u003d",
    "'": "\\u0027",
    "<": "\\u003C",
    ">": "\\u003e",
    "&": "\\u0026",
  };
  return JSON.stringify(value).replace(
    /[/+='<>&]|[^ -~]/g,
    (c) => escapes[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

/**
 * getAccount with the caller's token in it, escaped as another encoder writes it, as text/plain (so it is reported).
 */
function echoToken(call: IncomingCall, account: Record<string, unknown>): Reply {
  const token = String(call.headers.authorization).replace(/^Bearer /, "");
  return {
    status: 200,
    text: escapedJson({ error: 0, data: { ...account, token } }),
    headers: { "Content-Type": "text/plain" },
  };
}

function positive(value: string | null, fallback: number): number {
  const n = Number(value);
  return value !== null && Number.isInteger(n) && n >= 1 ? n : fallback;
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

const error = (status: number, message: string): Reply => ({ status, body: { error: 1, message } });

/** The operations of the fake links API over its state, each broken only where `fault` says. */
// eslint-disable-next-line max-lines-per-function -- over the cap since formatted at 120 columns; to be split
function linksHandler({
  fault,
  state,
  account,
  channelItems,
  overlays,
  nextId,
}: LinksWorld): (call: IncomingCall) => Reply {
  const page = (call: IncomingCall, key: string, all: unknown[]): Reply => {
    const visible = (all as Item[]).filter((item) => !item.hidden).map(({ hidden: _hidden, ...item }) => item);
    const limit = fault === "ignores-limit" ? 10 : positive(call.query.get("limit"), 10);
    if (fault === "refuses-large-limit" && limit > 100) return error(400, "limit must be at most 100");
    const maxpage = Math.max(1, Math.ceil(visible.length / limit));
    const current = positive(call.query.get("page"), 1);
    const items = visible.slice((current - 1) * limit, current * limit);
    return {
      status: 200,
      body: {
        error: fault === "list-error-as-integer" ? 0 : "0",
        data: {
          result: visible.length,
          perpage: limit,
          currentpage: fault === "currentpage-from-zero" ? current - 1 : current,
          nextpage: Math.min(current + 1, maxpage),
          maxpage,
          [key]: items,
        },
      },
    };
  };
  const find = (list: Item[], id: string) => list.find((item) => String(item.id) === id);
  const campaignSaved = (campaign: Item) => ({
    error: 0,
    id: campaign.id,
    domain: campaign.name,
    public: campaign.public,
    rotator: campaign.rotator,
    list: campaign.list,
  });

  // eslint-disable-next-line max-lines-per-function -- over the cap since formatted at 120 columns; to be split
  return function handle(call: IncomingCall): Reply {
    const body = call.body ?? {};
    switch (call.operationId) {
      case "getAccount":
        return fault === "echoes-token-escaped"
          ? echoToken(call, account)
          : fault === "wrong-content-type"
            ? {
                status: 200,
                text: JSON.stringify({ error: 0, data: account }),
                headers: { "Content-Type": "text/plain" },
              }
            : { status: 200, body: { error: 0, data: account } };
      case "updateAccount":
        if (body.email && fault !== "update-keeps-old-values") account.email = body.email;
        return { status: 200, body: { error: 0, message: "Account has been successfully updated." } };
      case "listDomains":
        return page(call, "domains", state.domains);
      case "addDomain": {
        const domain = {
          id: nextId(),
          domain: body.domain,
          redirectroot: body.redirectroot ?? body.domain,
          redirect404: body.redirect404 ?? body.domain,
          hidden: fault === "created-not-listed",
        };
        state.domains.push(domain);
        return { status: 200, body: { error: 0, id: domain.id } };
      }
      case "updateDomain": {
        const domain = find(state.domains, call.path.id!);
        if (!domain) return error(404, "The requested resource does not exist.");
        if (fault !== "update-keeps-old-values") Object.assign(domain, body);
        return { status: 200, body: { error: 0, message: "Domain has been updated successfully." } };
      }
      case "deleteDomain": {
        const domain = find(state.domains, call.path.id!);
        if (!domain) return error(404, "The requested resource does not exist.");
        if (fault !== "delete-keeps-resource") state.domains.splice(state.domains.indexOf(domain), 1);
        return { status: 200, body: { error: 0, message: "Domain has been deleted successfully." } };
      }
      case "listOverlays":
        return fault === "server-error" ? error(500, "internal error") : page(call, "cta", overlays);
      case "listCampaigns":
        return page(call, "campaigns", state.campaigns);
      case "addCampaign": {
        const id = nextId();
        const campaign = {
          id,
          name: body.name ?? "",
          public: body.public ?? false,
          rotator:
            typeof body.slug === "string" && body.slug
              ? `https://go.example.com/r/${encodeURIComponent(body.slug)}`
              : false,
          list: `https://go.example.com/u/demo/${id}`,
          hidden: fault === "created-not-listed",
        };
        state.campaigns.push(campaign);
        return { status: 200, body: campaignSaved(campaign) };
      }
      case "assignLinkToCampaign":
        return find(state.campaigns, call.path.campaignid!)
          ? { status: 200, body: { error: 0, message: "Link successfully added to the campaign." } }
          : error(404, "The requested resource does not exist.");
      case "updateCampaign": {
        const campaign = find(state.campaigns, call.path.id!);
        if (!campaign) return error(404, "The requested resource does not exist.");
        if (fault === "update-keeps-old-values") return { status: 200, body: campaignSaved({ ...campaign, ...body }) };
        campaign.name = body.name;
        if (typeof body.public === "boolean") campaign.public = body.public;
        if (typeof body.slug === "string")
          campaign.rotator = `https://go.example.com/r/${encodeURIComponent(String(body.slug))}`;
        return { status: 200, body: campaignSaved(campaign) };
      }
      case "deleteCampaign": {
        const campaign = find(state.campaigns, call.path.id!);
        if (!campaign) return error(404, "The requested resource does not exist.");
        if (fault !== "delete-keeps-resource") state.campaigns.splice(state.campaigns.indexOf(campaign), 1);
        return { status: 200, body: { error: 0, message: "Campaign has been deleted successfully." } };
      }
      case "listChannels":
        return page(call, "channels", state.channels);
      case "listChannelItems":
        return find(state.channels, call.path.id!)
          ? page(call, "items", call.path.id === "301" ? channelItems : [])
          : error(404, "The requested resource does not exist.");
      case "addChannel": {
        const channel = {
          id: nextId(),
          name: body.name,
          description: body.description ?? "",
          color: body.color ?? "#000000",
          starred: body.starred ?? false,
          hidden: fault === "created-not-listed",
        };
        state.channels.push(channel);
        return { status: 200, body: { error: 0, id: channel.id } };
      }
      default:
        return error(404, "Unknown endpoint.");
    }
  };
}
