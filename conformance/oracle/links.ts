// An independent links server, written the way a provider would write it from the seed alone (the link-management
// document): no contract file, no schema validator of this repository. It is lenient where the seed is silent (a
// campaign add without a body, an unknown property on channel add, empty redirect fields read back as "") and strict
// where the seed speaks (a domain includes http or https, a channel and a campaign update need a name, integer ids,
// the Bearer key, 30 requests per window with X-RateLimit-* on every response). Its bodies carry a field or two the
// seed does not show, as a provider's do. `errors: "always-200"` answers every error with HTTP 200 and the envelope
// (error 1 and a message), which the seed allows: clients check the error key.
import type { IncomingMessage } from "node:http";
import { type Answer, listenOnLoopback } from "../fault-servers/loopback.js";
import type { RunningServer } from "../fault-servers/http.js";
import { type DeploymentDrift, routerPage } from "./links-drift.js";
import { readJson } from "./links-request.js";

export { DEPLOYMENT_DRIFT, type DeploymentDrift } from "./links-drift.js";

export interface OracleLinksOptions {
  token: string;
  port?: number;
  /** "http": 400/401/404 with the envelope; "always-200": HTTP 200 with the envelope. */
  errors?: "http" | "always-200";
  /** Length of the rate-limit window (the seed: 1 minute). */
  windowMs?: number;
  /**
   * "channel-name-uppercased": a new channel's name is stored in capitals (not as sent). "deleted-campaign-listed": a
   * deleted campaign is gone for its routes but stays in the campaign list. "domain-delete-keeps-resource": a domain
   * delete answers success but keeps the domain, for its routes and its list alike.
   */
  fault?: "channel-name-uppercased" | "deleted-campaign-listed" | "domain-delete-keeps-resource";
  /** The largest page size served; a larger `limit` is refused (the seed shows no maximum: a provider may have one). */
  maxLimit?: number;
  /** The largest page size served; a larger `limit` gets pages of this size, which perpage reports (another choice). */
  capLimit?: number;
  /** A page past the last: empty, with the page asked for as currentpage, or the last page (the seed shows neither). */
  pastLastPage?: "empty" | "last";
  /** The HTTP status of a creation (domain, campaign, channel add): the seed shows none, so 201 is as right as 200. */
  createdStatus?: number;
  /** An account in use: this many domains, campaigns and channels more than the few it starts with. */
  accountSize?: number;
  /** The order of every list: creation order, newest first, or by name (the seed shows none). */
  listOrder?: "oldest-first" | "newest-first" | "by-name";
  /** How a redirect left out on domain add reads back: "", null, or absent (the seed shows none). */
  unsetRedirect?: "empty" | "null" | "absent";
  /**
   * A method a path does not document: refused with 404 and the envelope (the default), or answered as the path's
   * own method, as a router that matches paths only does (a PATCH of the domain list lists them with 200).
   */
  otherMethods?: "not-found" | "as-the-path";
  /**
   * Where this deployment's code departs from its published docs (the seed), as a real link-management product's
   * does (issue 46): DEPLOYMENT_DRIFT is all of them. Not choices the seed allows: a run without an overlay fails.
   */
  drift?: readonly DeploymentDrift[];
}

type Item = Record<string, unknown> & { id: number };

const LIMIT = 30;

function now(): string {
  return new Date().toISOString().slice(0, 19).replace("T", " ");
}

function integer(text: string | null | undefined, fallback: number): number {
  return text && /^\d+$/.test(text) && Number(text) >= 1 ? Number(text) : fallback;
}

interface OracleState {
  account: Record<string, unknown>;
  domains: Item[];
  campaigns: Item[];
  channels: Item[];
  items: Record<number, Item[]>;
  nextId: number;
  maxLimit: number;
  capLimit: number;
  pastLastPage: NonNullable<OracleLinksOptions["pastLastPage"]>;
  createdStatus: number;
  listOrder: NonNullable<OracleLinksOptions["listOrder"]>;
  unsetRedirect: NonNullable<OracleLinksOptions["unsetRedirect"]>;
  /** Campaigns deleted under the "deleted-campaign-listed" fault. */
  deletedCampaigns: Set<number>;
  drift: ReadonlySet<DeploymentDrift>;
}

/** A request the seed's routes can answer: `METHOD /api/...` with numeric ids as `:id`, the first id, the JSON body. */
interface LinksCall {
  route: string;
  id: number;
  body: Record<string, unknown>;
  url: URL;
}

export interface OracleReply {
  status: number;
  /** JSON, or with `html` the text of an HTML page. */
  body: unknown;
  html?: true;
}

const ok = (body: unknown): OracleReply => ({ status: 200, body });
const created = (state: OracleState, body: unknown): OracleReply => ({ status: state.createdStatus, body });
// Fields the seed does not list, as providers add them: a machine-readable code beside the message, the account's
// language. The seed lists the fields it shows; it does not promise there are no others.
const fail = (status: number, message: string): OracleReply => ({ status, body: { error: 1, message, code: status } });
const text = (value: unknown) => (typeof value === "string" ? value : undefined);
const find = (list: Item[], id: number) => list.find((item) => item.id === id);
const nameOf = (item: Item) => text(item.name) ?? text(item.domain) ?? "";
const findCampaign = (state: OracleState, id: number) =>
  state.deletedCampaigns.has(id) ? undefined : find(state.campaigns, id);
const saved = (state: OracleState, c: Item) => ({
  error: 0,
  id: c.id,
  [state.drift.has("campaign-name-key") ? "campaign" : "domain"]: c.name,
  public: c.public,
  rotator: c.rotator,
  list: c.list,
});
const rotatorOf = (slug: string) => `https://go.example.com/r/${encodeURIComponent(slug)}`;
/** Rotator slugs are addresses: one campaign each (the seed does not say so; a provider would refuse a taken one). */
const slugTaken = (state: OracleState, slug: string, campaignId?: number) =>
  state.campaigns.some((c) => c.id !== campaignId && c.rotator === rotatorOf(slug));

function page(state: OracleState, call: LinksCall, key: string, all: Item[]): OracleReply {
  const limit = integer(call.url.searchParams.get("limit"), 10);
  if (limit > state.maxLimit) return fail(400, `The limit must be at most ${state.maxLimit}.`);
  const perpage = Math.min(limit, state.capLimit);
  const maxpage = Math.max(1, Math.ceil(all.length / perpage));
  const asked = integer(call.url.searchParams.get("page"), 1);
  const currentpage = state.pastLastPage === "last" ? Math.min(asked, maxpage) : asked;
  const ordered =
    state.listOrder === "newest-first"
      ? [...all].reverse()
      : state.listOrder === "by-name"
        ? [...all].sort((a, b) => nameOf(a).localeCompare(nameOf(b)))
        : all;
  const last = currentpage >= maxpage && state.drift.has("nextpage-null-on-last-page");
  const name = key === "cta" && state.drift.has("overlay-array-key") ? "overlay" : key;
  return ok({
    error: state.drift.has("list-error-integer") ? 0 : "0",
    data: {
      result: all.length,
      perpage,
      currentpage,
      nextpage: last ? null : Math.min(currentpage + 1, maxpage),
      maxpage,
      [name]: ordered.slice((currentpage - 1) * perpage, currentpage * perpage),
    },
  });
}

/** The account, domain and overlay routes of the seed; undefined for any other route. */
function accountAndDomains(state: OracleState, call: LinksCall, options: OracleLinksOptions): OracleReply | undefined {
  switch (call.route) {
    case "GET /api/account":
      return ok({ error: 0, data: state.account });
    case "PUT /api/account/update": {
      // "body fields email (string), password (string)": what is sent is what the account has afterwards.
      const email = text(call.body.email);
      if (email !== undefined) state.account.email = email;
      return ok({ error: 0, message: "Account has been successfully updated." });
    }
    case "GET /api/domains":
      return page(state, call, "domains", state.domains);
    case "POST /api/domain/add": {
      const domain = text(call.body.domain);
      if (!domain || !/^https?:\/\/[^\s/]+/.test(domain)) return fail(400, "The domain must include http or https.");
      if (state.domains.some((d) => d.domain === domain)) return fail(409, "The domain already exists.");
      const domainAdded: Item = { id: state.nextId++, domain };
      for (const key of ["redirectroot", "redirect404"]) {
        const sent = text(call.body[key]);
        if (sent !== undefined) domainAdded[key] = sent;
        else if (state.unsetRedirect !== "absent") domainAdded[key] = state.unsetRedirect === "null" ? null : "";
      }
      state.domains.push(domainAdded);
      return created(state, {
        error: 0,
        id: state.drift.has("domain-id-string") ? String(domainAdded.id) : domainAdded.id,
      });
    }
    case "PUT /api/domain/:id/update": {
      const domain = find(state.domains, call.id);
      if (!domain) return fail(404, "Domain not found.");
      for (const key of ["redirectroot", "redirect404"])
        if (text(call.body[key]) !== undefined) domain[key] = call.body[key];
      return ok({ error: 0, message: "Domain has been updated successfully." });
    }
    case "DELETE /api/domain/:id/delete": {
      const domain = find(state.domains, call.id);
      if (!domain) return fail(404, "Domain not found.");
      if (options.fault !== "domain-delete-keeps-resource") state.domains.splice(state.domains.indexOf(domain), 1);
      return ok({ error: 0, message: "Domain has been deleted successfully." });
    }
    case "GET /api/overlay":
      return page(state, call, "cta", [{ id: 40, type: "message", name: "Welcome", date: "2024-03-01 10:15:00" }]);
  }
  return undefined;
}

/** The campaign and channel routes of the seed; undefined for any other route. */
function campaignsAndChannels(
  state: OracleState,
  call: LinksCall,
  options: OracleLinksOptions,
): OracleReply | undefined {
  switch (call.route) {
    case "GET /api/campaigns":
      return page(state, call, "campaigns", state.campaigns);
    case "POST /api/campaign/add": {
      if (state.drift.has("campaign-add-name-required") && !text(call.body.name))
        return fail(400, "The campaign name is required.");
      const slug = text(call.body.slug);
      if (slug && slugTaken(state, slug)) return fail(409, "The slug is already in use.");
      const campaign: Item = {
        id: state.nextId++,
        name: text(call.body.name) ?? "",
        public: call.body.public === true,
        rotator: slug ? rotatorOf(slug) : false,
        list: "",
      };
      campaign.list = `https://go.example.com/c/${campaign.id}`;
      state.campaigns.push(campaign);
      return created(state, saved(state, campaign));
    }
    case "PUT /api/campaign/:id/update": {
      const campaign = findCampaign(state, call.id);
      if (!campaign) return fail(404, "Campaign not found.");
      if (text(call.body.name) === undefined) return fail(400, "The name is required.");
      const slug = text(call.body.slug);
      if (slug && slugTaken(state, slug, campaign.id)) return fail(409, "The slug is already in use.");
      campaign.name = call.body.name;
      if (typeof call.body.public === "boolean") campaign.public = call.body.public;
      if (slug) campaign.rotator = rotatorOf(slug);
      return ok(saved(state, campaign));
    }
    case "DELETE /api/campaign/:id/delete": {
      const campaign = findCampaign(state, call.id);
      if (!campaign) return fail(404, "Campaign not found.");
      if (options.fault === "deleted-campaign-listed") state.deletedCampaigns.add(campaign.id);
      else state.campaigns.splice(state.campaigns.indexOf(campaign), 1);
      return ok({ error: 0, message: "Campaign has been deleted successfully." });
    }
    case "POST /api/campaign/:id/assign/:id":
      return findCampaign(state, call.id)
        ? ok({ error: 0, message: "Link successfully added to the campaign." })
        : fail(404, "Campaign not found.");
    case "GET /api/channels":
      return page(state, call, "channels", state.channels);
    case "GET /api/channel/:id":
      return find(state.channels, call.id)
        ? page(state, call, "items", state.items[call.id] ?? [])
        : fail(404, "Channel not found.");
    case "POST /api/channel/add": {
      if (text(call.body.name) === undefined) return fail(400, "The name is required.");
      const color =
        text(call.body.color) && /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.test(text(call.body.color)!)
          ? call.body.color
          : "#000000";
      const name = options.fault === "channel-name-uppercased" ? String(call.body.name).toUpperCase() : call.body.name;
      const channel = {
        id: state.nextId++,
        name,
        description: text(call.body.description) ?? "",
        color,
        starred: call.body.starred === true,
      };
      state.channels.push(channel);
      return created(state, { error: 0, id: channel.id });
    }
  }
  return undefined;
}

/** The account as the server starts: a few of each resource, and `accountSize` more of them when asked. */
function initialState(options: OracleLinksOptions): OracleState {
  const state: OracleState = {
    account: {
      id: 1,
      email: "owner@example.com",
      username: "owner",
      avatar: "https://example.com/avatar.png",
      status: "pro",
      expires: "2030-01-01 00:00:00",
      registered: "2024-01-01 00:00:00",
      language: "en",
    },
    nextId: 500,
    maxLimit: options.maxLimit ?? Number.POSITIVE_INFINITY,
    capLimit: options.capLimit ?? Number.POSITIVE_INFINITY,
    pastLastPage: options.pastLastPage ?? "empty",
    createdStatus: options.createdStatus ?? 200,
    domains: [
      {
        id: 1,
        domain: "https://go.example.com",
        redirectroot: "https://example.com",
        redirect404: "https://example.com/404",
      },
    ],
    // The second campaign holds the slug of the contract's examples, as an account whose owner used it would.
    campaigns: [
      { id: 10, name: "Launch", public: true, rotator: false, list: "https://go.example.com/c/10" },
      {
        id: 11,
        name: "Spring",
        public: true,
        rotator: rotatorOf("spring-launch"),
        list: "https://go.example.com/c/11",
      },
    ],
    channels: [{ id: 20, name: "News", description: "", color: "#1E88E5", starred: false }],
    items: {
      20: [
        {
          type: "links",
          id: 30,
          title: "Hello",
          preview: "https://go.example.com/p/30",
          link: "https://go.example.com/30",
          date: "2024-03-01",
        },
      ],
    },
    listOrder: options.listOrder ?? "oldest-first",
    unsetRedirect: options.unsetRedirect ?? "empty",
    deletedCampaigns: new Set(),
    drift: new Set(options.drift ?? []),
  };
  if (state.drift.has("free-account-expires-null")) Object.assign(state.account, { status: "free", expires: null });
  // Names from both ends of the alphabet, so that a list sorted by name has the run's own in its middle.
  for (let n = 0; n < (options.accountSize ?? 0); n++) {
    const id = state.nextId++;
    const name = `${n % 2 ? "Autumn" : "Winter"} ${id}`;
    state.domains.push({
      id,
      domain: `https://${n % 2 ? "a" : "z"}${id}.example.com`,
      redirectroot: "",
      redirect404: "",
    });
    state.campaigns.push({ id, name, public: false, rotator: false, list: `https://go.example.com/c/${id}` });
    state.channels.push({ id, name, description: "", color: "#000000", starred: false });
  }
  return state;
}

export async function startOracleLinksServer(options: OracleLinksOptions): Promise<RunningServer> {
  const windowMs = options.windowMs ?? 60_000;
  const log: RunningServer["log"] = [];
  const state = initialState(options);
  let window = { start: 0, count: 0 };

  const reply = async (request: IncomingMessage): Promise<OracleReply> => {
    if (window.count > LIMIT) return fail(429, "Rate limit exceeded.");
    if (request.headers.authorization !== `Bearer ${options.token}`) {
      request.resume();
      return fail(401, "A valid API key is required to use this service.");
    }
    const url = new URL(request.url ?? "/", "http://localhost");
    const method = request.method ?? "GET";
    const { body, broken } =
      method === "GET" || method === "DELETE" ? { body: {}, broken: false } : await readJson(request);
    if (broken) return fail(400, "The request body is not valid JSON.");
    const parts = url.pathname.split("/").filter(Boolean); // ["api", ...]
    const page = routerPage(state.drift, method, parts);
    if (page) return page;
    const routeOf = (m: string) => `${m} /${parts.map((p) => (/^\d+$/.test(p) ? ":id" : p)).join("/")}`;
    const id = Number(parts.find((p) => /^\d+$/.test(p)));
    const answer = (m: string) =>
      accountAndDomains(state, { route: routeOf(m), id, body, url }, options) ??
      campaignsAndChannels(state, { route: routeOf(m), id, body, url }, options);
    const others = options.otherMethods === "as-the-path" ? ["GET", "PUT", "DELETE", "POST"] : [];
    for (const each of [method, ...others.filter((other) => other !== method)]) {
      const answered = answer(each);
      if (answered) return answered;
    }
    return fail(404, `Unknown endpoint ${method} ${url.pathname} (${now()}).`);
  };
  const answer: Answer = async (request, response) => {
    log.push({ at: Date.now(), method: request.method ?? "GET", url: request.url ?? "/" });
    const start = Math.floor(Date.now() / windowMs) * windowMs;
    if (start !== window.start) window = { start, count: 0 };
    window.count += 1;
    const headers = {
      "Content-Type": "application/json",
      "X-RateLimit-Limit": String(LIMIT),
      "X-RateLimit-Remaining": String(Math.max(0, LIMIT - window.count)),
      "X-RateLimit-Reset": String(Math.ceil((start + windowMs) / 1000)),
    };
    const { status, body, html } = await reply(request);
    if (html) headers["Content-Type"] = "text/html; charset=utf-8";
    response.writeHead(!html && status >= 400 && options.errors === "always-200" ? 200 : status, headers);
    response.end(html ? body : JSON.stringify(body));
  };
  return listenOnLoopback(answer, options.port ?? 0, log, new Set([options.token]));
}
