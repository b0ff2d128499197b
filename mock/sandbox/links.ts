// The links API with real state: account, domains, overlays, campaigns (with link assignment) and channels,
// paginated lists, the envelope quirks (`error: "0"` on lists, the campaign name under `domain`, `rotator: false`)
// and the per-key rate limit with its three headers.
import type { components } from "../../generated/types/links.js";
import { loadBundle } from "../../lib/openapi.js";
import type { SandboxConfig } from "./config.js";
import { assertImplemented, checkRequest, ContractRouter, routeRequest } from "./contract.js";
import { responseExample } from "./examples.js";
import { json, type SandboxApi, type SandboxRequest, type SandboxResponse } from "./http.js";
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
  const declared = loadBundle("links").info["x-rate-limit"] as { limit: number; windowSeconds: number };
  return { limit: declared.limit, windowSeconds: declared.windowSeconds };
}

/** The demo account with the data of the contract's examples. */
export function seedLinks(config: SandboxConfig["links"]): LinksState {
  const account = responseExample<Schemas["AccountResponse"]>("links", "getAccount", "demoAccount").data;
  const domains = responseExample<Schemas["DomainListResponse"]>("links", "listDomains", "twoDomains").data.domains;
  const overlays = responseExample<Schemas["OverlayListResponse"]>("links", "listOverlays", "twoOverlays").data.cta;
  const campaigns = responseExample<Schemas["CampaignListResponse"]>("links", "listCampaigns", "twoCampaigns").data.campaigns;
  const channels = responseExample<Schemas["ChannelListResponse"]>("links", "listChannels", "twoChannels").data.channels;
  const items = responseExample<Schemas["ChannelItemListResponse"]>("links", "listChannelItems", "marketingChannelItems").data.items;
  const rotatorPrefix = `${config.shortLinkBase}/r/`;
  return {
    account,
    password: config.password,
    domains,
    overlays,
    campaigns: campaigns.map((campaign) => ({
      ...campaign,
      slug: typeof campaign.rotator === "string" && campaign.rotator.startsWith(rotatorPrefix) ? campaign.rotator.slice(rotatorPrefix.length) : null,
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
  params: Record<string, any>;
  body: any;
}

/** What a switched-off limit reports: the headers stay (the contract requires them) and never run out. */
const UNLIMITED: RateLimitPolicy = { limit: 1_000_000_000, windowSeconds: 60 };

export function createLinksApi(state: LinksState, options: LinksApiOptions): SandboxApi {
  const router = new ContractRouter("links");
  const counter = new FixedWindowCounter(options.rateLimit === false ? UNLIMITED : (options.rateLimit ?? contractRateLimit()), options.now);
  const keys = new Map(options.config.keys.map((key) => [key.api_key, key]));
  const changed = () => options.onChange?.();
  const { shortLinkBase, perPage } = options.config;

  const refuse = (status: number, message: string, headers: Record<string, string> = {}) => json(status, { error: 1, message }, headers);
  const done = (message: string) => json(200, { error: 0, message });
  const notFound = (what: string, id: unknown) => refuse(404, `${what} ${id} does not exist.`);

  function page<T>(rows: T[], params: Record<string, any>) {
    const limit: number = params.limit ?? perPage;
    const current: number = params.page ?? 1;
    const maxpage = Math.max(1, Math.ceil(rows.length / limit));
    return {
      paging: { result: rows.length, perpage: limit, currentpage: current, nextpage: Math.min(current + 1, maxpage), maxpage },
      rows: rows.slice((current - 1) * limit, current * limit),
    };
  }

  function removeRow(rows: Array<{ id: number }>, id: number, what: string): SandboxResponse {
    const index = rows.findIndex((row) => row.id === id);
    if (index < 0) return notFound(what, id);
    rows.splice(index, 1);
    changed();
    return done(`${what} has been deleted successfully.`);
  }

  function campaignView(campaign: StoredCampaign): Schemas["Campaign"] {
    return { id: campaign.id, name: campaign.name, public: campaign.public, rotator: campaign.rotator, list: campaign.list };
  }

  /** Campaign add and update answer with the campaign's name under `domain` (a quirk of the provider). */
  function campaignSaved(campaign: StoredCampaign): Schemas["CampaignSaved"] {
    return { error: 0, id: campaign.id, domain: campaign.name, public: campaign.public, rotator: campaign.rotator, list: campaign.list };
  }

  function applySlug(campaign: StoredCampaign, slug: string | undefined): void {
    if (slug === undefined) return;
    campaign.slug = slug === "" ? null : slug;
    campaign.rotator = campaign.slug === null ? false : `${shortLinkBase}/r/${encodeURIComponent(campaign.slug)}`;
  }

  const handlers: Record<string, (context: Context) => SandboxResponse> = {
    getAccount: ({ state }) => json(200, { error: 0, data: state.account }),
    updateAccount: ({ state, body }) => {
      if (body.email === undefined && body.password === undefined) return refuse(400, "Send email, password or both.");
      if (body.email !== undefined) state.account.email = body.email;
      if (body.password !== undefined) state.password = body.password;
      changed();
      return done("Account has been successfully updated.");
    },
    listDomains: ({ state, params }) => {
      const { paging, rows } = page(state.domains, params);
      return json(200, { error: "0", data: { ...paging, domains: rows } });
    },
    addDomain: ({ state, body }) => {
      if (state.domains.some((domain) => domain.domain === body.domain)) return refuse(409, `The domain ${body.domain} is already added.`);
      const id = state.nextId.domain++;
      state.domains.push({ id, domain: body.domain, redirectroot: body.redirectroot ?? body.domain, redirect404: body.redirect404 ?? body.domain });
      changed();
      return json(200, { error: 0, id });
    },
    updateDomain: ({ state, params, body }) => {
      const domain = state.domains.find((row) => row.id === params.id);
      if (!domain) return notFound("Domain", params.id);
      Object.assign(domain, body);
      changed();
      return done("Domain has been updated successfully.");
    },
    deleteDomain: ({ state, params }) => removeRow(state.domains, params.id, "Domain"),
    listOverlays: ({ state, params }) => {
      const { paging, rows } = page(state.overlays, params);
      return json(200, { error: "0", data: { ...paging, cta: rows } });
    },
    listCampaigns: ({ state, params }) => {
      const { paging, rows } = page(state.campaigns, params);
      return json(200, { error: "0", data: { ...paging, campaigns: rows.map(campaignView) } });
    },
    addCampaign: ({ state, body }) => {
      const id = state.nextId.campaign++;
      const campaign: StoredCampaign = {
        id,
        name: body.name ?? "",
        public: body.public ?? false,
        slug: null,
        rotator: false,
        list: `${shortLinkBase}/u/${encodeURIComponent(state.account.username)}/${id}`,
        links: [],
      };
      applySlug(campaign, body.slug);
      state.campaigns.push(campaign);
      changed();
      return json(200, campaignSaved(campaign));
    },
    assignLinkToCampaign: ({ state, params }) => {
      const campaign = state.campaigns.find((row) => row.id === params.campaignid);
      if (!campaign) return notFound("Campaign", params.campaignid);
      if (!state.shortLinks.includes(params.linkid)) return notFound("Link", params.linkid);
      if (!campaign.links.includes(params.linkid)) campaign.links.push(params.linkid);
      changed();
      return done("Link successfully added to the campaign.");
    },
    updateCampaign: ({ state, params, body }) => {
      const campaign = state.campaigns.find((row) => row.id === params.id);
      if (!campaign) return notFound("Campaign", params.id);
      campaign.name = body.name;
      if (body.public !== undefined) campaign.public = body.public;
      applySlug(campaign, body.slug);
      changed();
      return json(200, campaignSaved(campaign));
    },
    deleteCampaign: ({ state, params }) => removeRow(state.campaigns, params.id, "Campaign"),
    listChannels: ({ state, params }) => {
      const { paging, rows } = page(state.channels, params);
      return json(200, { error: "0", data: { ...paging, channels: rows.map(({ items: _items, ...channel }) => channel) } });
    },
    listChannelItems: ({ state, params }) => {
      const channel = state.channels.find((row) => row.id === params.id);
      if (!channel) return notFound("Channel", params.id);
      const { paging, rows } = page(channel.items, params);
      return json(200, { error: "0", data: { ...paging, items: rows } });
    },
    addChannel: ({ state, body }) => {
      const id = state.nextId.channel++;
      state.channels.push({ id, name: body.name, description: body.description ?? "", color: body.color ?? "#9E9E9E", starred: body.starred ?? false, items: [] });
      changed();
      return json(200, { error: 0, id });
    },
  };
  assertImplemented(router, Object.keys(handlers));

  /** Counts the request against its key's window and adds the three headers to whatever `produce` answers. */
  function rateLimited(request: SandboxRequest, produce: (apiKey: string | undefined) => SandboxResponse): SandboxResponse {
    const apiKey = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.get("authorization") ?? "")?.[1];
    const window = counter.hit(apiKey ?? "(no key)");
    const response = window.allowed ? produce(apiKey) : refuse(429, "Rate limit exceeded: wait until X-RateLimit-Reset before sending more requests.");
    response.headers["x-ratelimit-limit"] = String(window.limit);
    response.headers["x-ratelimit-remaining"] = String(window.remaining);
    response.headers["x-ratelimit-reset"] = String(window.reset);
    if (!window.allowed) response.headers["retry-after"] = String(Math.max(1, window.reset - Math.floor((options.now ?? Date.now)() / 1000)));
    return response;
  }

  function respond(request: SandboxRequest, apiKey: string | undefined): SandboxResponse {
    const routing = routeRequest(router, request);
    if (!routing.ok) return refuse(routing.status, routing.message, routing.headers);
    if (apiKey === undefined) return refuse(401, "A valid API key is required: send Authorization: Bearer <API_KEY>.");
    const key = keys.get(apiKey);
    if (!key) return refuse(401, "The API key is not valid.");
    if (key.expired) return refuse(401, "The API key has expired.");
    const checked = checkRequest(routing.match, request);
    if (!checked.ok) return refuse(checked.status, checked.message);
    return handlers[routing.match.route.op.operationId]!({ state, params: checked.params, body: checked.body });
  }

  return {
    handle: async (request) => rateLimited(request, (apiKey) => respond(request, apiKey)),
    refuse: (status, message, request) => (request ? rateLimited(request, () => refuse(status, message)) : refuse(status, message)),
  };
}
