// The links API with real state: account, domains, overlays, campaigns (with link assignment) and channels,
// paginated lists, the envelope quirks (`error: "0"` on lists, the campaign name under `domain`, `rotator: false`)
// and the per-key rate limit with its three headers.
import type { components } from "../../generated/types/links.js";
import { loadContract } from "../../lib/contract/index.js";
import type { SandboxConfig } from "./config.js";
import { json, omit, type SandboxApi, type SandboxRequest, type SandboxResponse } from "./http.js";
import { type HandlerTable, OperationServer } from "./operations.js";
import { FixedWindowCounter, type RateLimitPolicy } from "./rate-limit.js";

type Schemas = components["schemas"];

interface StoredCampaign {
  id: number;
  name: string;
  public: boolean;
  slug: string | null;
  /** The rotator URL of the seeded campaigns, kept as the contract's example shows it. */
  rotator: string | false;
  list: string;
  links: number[];
}

export interface LinksState {
  account: Schemas["Account"];
  password: string;
  domains: Schemas["Domain"][];
  overlays: Schemas["Overlay"][];
  campaigns: StoredCampaign[];
  channels: Array<Schemas["Channel"] & { items: Schemas["ChannelItem"][] }>;
  /** Ids of the account's short links (campaigns can be assigned these). */
  shortLinks: number[];
  nextId: { domain: number; campaign: number; channel: number };
}

/** The contract's documented rate limit (`info.x-rate-limit`). */
export function contractRateLimit(): RateLimitPolicy {
  const declared = loadContract("links").document.info["x-rate-limit"] as { limit: number; windowSeconds: number };
  return { limit: declared.limit, windowSeconds: declared.windowSeconds };
}

/** The demo account with the data of the contract's examples. */
export function seedLinks(config: SandboxConfig["links"]): LinksState {
  const contract = loadContract("links");
  const account = (contract.responseExample("getAccount", "demoAccount") as Schemas["AccountResponse"]).data;
  const domains = (contract.responseExample("listDomains", "twoDomains") as Schemas["DomainListResponse"]).data.domains;
  const overlays = (contract.responseExample("listOverlays", "twoOverlays") as Schemas["OverlayListResponse"]).data.cta;
  const campaigns = (contract.responseExample("listCampaigns", "twoCampaigns") as Schemas["CampaignListResponse"]).data
    .campaigns;
  const channels = (contract.responseExample("listChannels", "twoChannels") as Schemas["ChannelListResponse"]).data
    .channels;
  const items = (
    contract.responseExample("listChannelItems", "marketingChannelItems") as Schemas["ChannelItemListResponse"]
  ).data.items;
  const rotatorPrefix = `${config.shortLinkBase}/r/`;
  return {
    account,
    password: config.password,
    domains,
    overlays,
    campaigns: campaigns.map((campaign) => ({
      ...campaign,
      slug:
        typeof campaign.rotator === "string" && campaign.rotator.startsWith(rotatorPrefix)
          ? campaign.rotator.slice(rotatorPrefix.length)
          : null,
      links: [],
    })),
    // The items example is the one of the first channel; the other channels start empty.
    channels: channels.map((channel, index) => ({ ...channel, items: index === 0 ? items : [] })),
    shortLinks: items.filter((item) => item.type === "links").map((item) => item.id),
    nextId: {
      domain: nextIdAfter(domains),
      campaign: nextIdAfter(campaigns),
      channel: nextIdAfter(channels),
    },
  };
}

function nextIdAfter(rows: Array<{ id: number }>): number {
  return Math.max(0, ...rows.map((row) => row.id)) + 1;
}

export interface LinksApiOptions {
  config: SandboxConfig["links"];
  /** Requests per window and key; `false` switches the limit off (the headers then report an unlimited window). */
  rateLimit?: RateLimitPolicy | false;
  now?: () => number;
  onChange?: () => void;
}

interface Context {
  state: LinksState;
  shortLinkBase: string;
  perPage: number;
  changed: () => void;
}

/** The links envelope of a refusal (`default` of every operation). */
interface Refusal {
  status: number;
  body: Schemas["ErrorEnvelope"];
}

const fail = (status: number, message: string): Refusal => ({ status, body: { error: 1, message } });
const done = (message: string) => ({ status: 200 as const, body: { error: 0 as const, message } });
const notFound = (what: string, id: unknown): Refusal => fail(404, `${what} ${String(id)} does not exist.`);

function page<T>(context: Context, rows: T[], params: { limit?: number; page?: number }) {
  const limit = params.limit ?? context.perPage;
  const current = params.page ?? 1;
  const maxpage = Math.max(1, Math.ceil(rows.length / limit));
  return {
    paging: {
      result: rows.length,
      perpage: limit,
      currentpage: current,
      nextpage: Math.min(current + 1, maxpage),
      maxpage,
    },
    rows: rows.slice((current - 1) * limit, current * limit),
  };
}

function removeRow(context: Context, rows: Array<{ id: number }>, id: number, what: string) {
  const index = rows.findIndex((row) => row.id === id);
  if (index < 0) return notFound(what, id);
  rows.splice(index, 1);
  context.changed();
  return done(`${what} has been deleted successfully.`);
}

function campaignView(campaign: StoredCampaign): Schemas["Campaign"] {
  return {
    id: campaign.id,
    name: campaign.name,
    public: campaign.public,
    rotator: campaign.rotator,
    list: campaign.list,
  };
}

/** Campaign add and update answer with the campaign's name under `domain` (a quirk of the provider). */
function campaignSaved(campaign: StoredCampaign): Schemas["CampaignSaved"] {
  return {
    error: 0,
    id: campaign.id,
    domain: campaign.name,
    public: campaign.public,
    rotator: campaign.rotator,
    list: campaign.list,
  };
}

function applySlug(context: Context, campaign: StoredCampaign, slug: string | undefined): void {
  if (slug === undefined) return;
  campaign.slug = slug === "" ? null : slug;
  campaign.rotator = campaign.slug === null ? false : `${context.shortLinkBase}/r/${encodeURIComponent(campaign.slug)}`;
}

const handlers: HandlerTable<"links", Context> = {
  getAccount: ({ context }) => ({ status: 200, body: { error: 0, data: context.state.account } }),
  updateAccount: ({ body, context }) => {
    if (body.email === undefined && body.password === undefined) return fail(400, "Send email, password or both.");
    if (body.email !== undefined) context.state.account.email = body.email;
    if (body.password !== undefined) context.state.password = body.password;
    context.changed();
    return done("Account has been successfully updated.");
  },
  listDomains: ({ params, context }) => {
    const { paging, rows } = page(context, context.state.domains, params);
    return { status: 200, body: { error: "0", data: { ...paging, domains: rows } } };
  },
  addDomain: ({ body, context }) => {
    if (context.state.domains.some((domain) => domain.domain === body.domain))
      return fail(409, `The domain ${body.domain} is already added.`);
    const id = context.state.nextId.domain++;
    context.state.domains.push({
      id,
      domain: body.domain,
      redirectroot: body.redirectroot ?? body.domain,
      redirect404: body.redirect404 ?? body.domain,
    });
    context.changed();
    return { status: 200, body: { error: 0, id } };
  },
  updateDomain: ({ params, body, context }) => {
    const domain = context.state.domains.find((row) => row.id === params.id);
    if (!domain) return notFound("Domain", params.id);
    Object.assign(domain, body);
    context.changed();
    return done("Domain has been updated successfully.");
  },
  deleteDomain: ({ params, context }) => removeRow(context, context.state.domains, params.id, "Domain"),
  listOverlays: ({ params, context }) => {
    const { paging, rows } = page(context, context.state.overlays, params);
    return { status: 200, body: { error: "0", data: { ...paging, cta: rows } } };
  },
  listCampaigns: ({ params, context }) => {
    const { paging, rows } = page(context, context.state.campaigns, params);
    return { status: 200, body: { error: "0", data: { ...paging, campaigns: rows.map(campaignView) } } };
  },
  addCampaign: ({ body, context }) => {
    const { state } = context;
    const id = state.nextId.campaign++;
    const campaign: StoredCampaign = {
      id,
      name: body.name ?? "",
      public: body.public ?? false,
      slug: null,
      rotator: false,
      list: `${context.shortLinkBase}/u/${encodeURIComponent(state.account.username)}/${id}`,
      links: [],
    };
    applySlug(context, campaign, body.slug);
    state.campaigns.push(campaign);
    context.changed();
    return { status: 200, body: campaignSaved(campaign) };
  },
  assignLinkToCampaign: ({ params, context }) => {
    const campaign = context.state.campaigns.find((row) => row.id === params.campaignid);
    if (!campaign) return notFound("Campaign", params.campaignid);
    if (!context.state.shortLinks.includes(params.linkid)) return notFound("Link", params.linkid);
    if (!campaign.links.includes(params.linkid)) campaign.links.push(params.linkid);
    context.changed();
    return done("Link successfully added to the campaign.");
  },
  updateCampaign: ({ params, body, context }) => {
    const campaign = context.state.campaigns.find((row) => row.id === params.id);
    if (!campaign) return notFound("Campaign", params.id);
    campaign.name = body.name;
    if (body.public !== undefined) campaign.public = body.public;
    applySlug(context, campaign, body.slug);
    context.changed();
    return { status: 200, body: campaignSaved(campaign) };
  },
  deleteCampaign: ({ params, context }) => removeRow(context, context.state.campaigns, params.id, "Campaign"),
  listChannels: ({ params, context }) => {
    const { paging, rows } = page(context, context.state.channels, params);
    return {
      status: 200,
      body: { error: "0", data: { ...paging, channels: rows.map((channel) => omit(channel, "items")) } },
    };
  },
  listChannelItems: ({ params, context }) => {
    const channel = context.state.channels.find((row) => row.id === params.id);
    if (!channel) return notFound("Channel", params.id);
    const { paging, rows } = page(context, channel.items, params);
    return { status: 200, body: { error: "0", data: { ...paging, items: rows } } };
  },
  addChannel: ({ body, context }) => {
    const { state } = context;
    const id = state.nextId.channel++;
    state.channels.push({
      id,
      name: body.name,
      description: body.description ?? "",
      color: body.color ?? "#9E9E9E",
      starred: body.starred ?? false,
      items: [],
    });
    context.changed();
    return { status: 200, body: { error: 0, id } };
  },
};

/** What a switched-off limit reports: the headers stay (the contract requires them) and never run out. */
const UNLIMITED: RateLimitPolicy = { limit: 1_000_000_000, windowSeconds: 60 };

export function createLinksApi(state: LinksState, options: LinksApiOptions): SandboxApi {
  const server = new OperationServer("links", handlers);
  const counter = new FixedWindowCounter(
    options.rateLimit === false ? UNLIMITED : (options.rateLimit ?? contractRateLimit()),
    options.now,
  );
  const keys = new Map(options.config.keys.map((key) => [key.api_key, key]));
  const context: Context = {
    state,
    shortLinkBase: options.config.shortLinkBase,
    perPage: options.config.perPage,
    changed: () => options.onChange?.(),
  };
  const refuse = (status: number, message: string, headers: Record<string, string> = {}) =>
    json(status, { error: 1, message }, headers);

  /** Counts the request against its key's window; `answer` adds the three headers to the response. */
  function count(request: SandboxRequest) {
    const apiKey = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.get("authorization") ?? "")?.[1];
    const window = counter.hit(apiKey ?? "(no key)");
    return {
      apiKey,
      window,
      tooMany: () => refuse(429, "Rate limit exceeded: wait until X-RateLimit-Reset before sending more requests."),
    };
  }

  function answer(window: ReturnType<typeof counter.hit>, response: SandboxResponse): SandboxResponse {
    response.headers["x-ratelimit-limit"] = String(window.limit);
    response.headers["x-ratelimit-remaining"] = String(window.remaining);
    response.headers["x-ratelimit-reset"] = String(window.reset);
    if (!window.allowed)
      response.headers["retry-after"] = String(
        Math.max(1, window.reset - Math.floor((options.now ?? Date.now)() / 1000)),
      );
    return response;
  }

  async function respond(request: SandboxRequest, apiKey: string | undefined): Promise<SandboxResponse> {
    const routing = server.route(request);
    if (!routing.ok) return refuse(routing.status, routing.message, routing.headers);
    if (apiKey === undefined) return refuse(401, "A valid API key is required: send Authorization: Bearer <API_KEY>.");
    const key = keys.get(apiKey);
    if (!key) return refuse(401, "The API key is not valid.");
    if (key.expired) return refuse(401, "The API key has expired.");
    const checked = server.check(routing.match, request);
    if (!checked.ok) return refuse(checked.status, checked.message);
    return server.dispatch(checked, context);
  }

  return {
    async handle(request) {
      const { apiKey, window, tooMany } = count(request);
      return answer(window, window.allowed ? await respond(request, apiKey) : tooMany());
    },
    refuse(status, message, request) {
      if (!request) return refuse(status, message);
      const { window, tooMany } = count(request);
      return answer(window, window.allowed ? refuse(status, message) : tooMany());
    },
  };
}
