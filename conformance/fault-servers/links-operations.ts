// The operations of the fake links API (conformance/fault-servers/links.ts) over its state, one function each, each
// broken only where the server's fault says. The server checks the rate limit, the token and the request first.
import type { OperationId } from "../../lib/contract/index.js";
import type { IncomingCall, Reply } from "./http.js";
import type { LinksFault } from "./links.js";

/**
 * A stored domain, campaign or channel: the contract's fields, plus whether the `created-not-listed` fault hides it.
 */
export type Item = Record<string, unknown> & { id: number; hidden?: boolean };

export interface LinksState {
  domains: Item[];
  campaigns: Item[];
  channels: Item[];
}

/** What one request may change or read: the state, the account, and the fixed lists seeded from the examples. */
export interface LinksWorld {
  fault: LinksFault | undefined;
  state: LinksState;
  account: Record<string, unknown>;
  channelItems: unknown[];
  overlays: Item[];
  nextId: () => number;
}

/** A call as an operation reads it: a call without a body has `{}`. */
type LinksCall = IncomingCall & { body: Record<string, unknown> };

type Operation = (call: LinksCall, world: LinksWorld) => Reply;

const OPERATIONS: Record<OperationId<"links">, Operation> = {
  getAccount,
  updateAccount,
  listDomains: (call, { fault, state }) => page(call, fault, "domains", state.domains),
  addDomain,
  updateDomain,
  deleteDomain: (call, { fault, state }) =>
    deleteItem(call, fault, state.domains, "Domain has been deleted successfully."),
  listOverlays,
  listCampaigns: (call, { fault, state }) => page(call, fault, "campaigns", state.campaigns),
  addCampaign,
  assignLinkToCampaign,
  updateCampaign,
  deleteCampaign: (call, { fault, state }) =>
    deleteItem(call, fault, state.campaigns, "Campaign has been deleted successfully."),
  listChannels: (call, { fault, state }) => page(call, fault, "channels", state.channels),
  listChannelItems,
  addChannel,
};

/** The fake links API: each call goes to its operation; a call the contract does not name is an unknown endpoint. */
export function linksHandler(world: LinksWorld): (call: IncomingCall) => Reply {
  return (call) => {
    if (!isLinksOperation(call.operationId)) return error(404, "Unknown endpoint.");
    return OPERATIONS[call.operationId]({ ...call, body: call.body ?? {} }, world);
  };
}

function isLinksOperation(operationId: string): operationId is OperationId<"links"> {
  return Object.hasOwn(OPERATIONS, operationId);
}

/** A failing answer in the links envelope. */
export const error = (status: number, message: string): Reply => ({ status, body: { error: 1, message } });

const notFound = (): Reply => error(404, "The requested resource does not exist.");

const succeeded = (message: string): Reply => ({ status: 200, body: { error: 0, message } });

const find = (list: Item[], id: string) => list.find((item) => String(item.id) === id);

function getAccount(call: LinksCall, { fault, account }: LinksWorld): Reply {
  if (fault === "echoes-token-escaped") return echoToken(call, account);
  const answer = { error: 0, data: account };
  if (fault === "wrong-content-type") {
    return { status: 200, text: JSON.stringify(answer), headers: { "Content-Type": "text/plain" } };
  }
  return { status: 200, body: answer };
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

function updateAccount({ body }: LinksCall, { fault, account }: LinksWorld): Reply {
  if (body.email && fault !== "update-keeps-old-values") account.email = body.email;
  return succeeded("Account has been successfully updated.");
}

/**
 * One page of a list, as every links list answers; the faults break its numbers or the type of its `error`
 * (`drifted`: that of every list, and the type of `perpage` of the domains and of `maxpage` of the campaigns).
 */
function page(call: LinksCall, fault: LinksFault | undefined, key: string, all: unknown[]): Reply {
  const visible = (all as Item[]).filter((item) => !item.hidden).map(({ hidden: _hidden, ...item }) => item);
  const limit = fault === "ignores-limit" ? 10 : positive(call.query.get("limit"), 10);
  if (fault === "refuses-large-limit" && limit > 100) return error(400, "limit must be at most 100");
  const maxpage = Math.max(1, Math.ceil(visible.length / limit));
  const current = positive(call.query.get("page"), 1);
  const drifted = (list: string, value: number) => (fault === "drifted" && key === list ? String(value) : value);
  const data = {
    result: visible.length,
    perpage: drifted("domains", limit),
    currentpage: fault === "currentpage-from-zero" ? current - 1 : fault === "currentpage-always-1" ? 1 : current,
    nextpage: Math.min(current + 1, maxpage),
    maxpage: drifted("campaigns", maxpage),
    [key]: visible.slice((current - 1) * limit, current * limit),
  };
  const integerError = fault === "list-error-as-integer" || fault === "drifted";
  return { status: 200, body: { error: integerError ? 0 : "0", data } };
}

function positive(value: string | null, fallback: number): number {
  const n = Number(value);
  return value !== null && Number.isInteger(n) && n >= 1 ? n : fallback;
}

/** Removes the item the path names; the `delete-keeps-resource` fault keeps it and says it is deleted all the same. */
function deleteItem(call: LinksCall, fault: LinksFault | undefined, list: Item[], message: string): Reply {
  const item = find(list, call.path.id!);
  if (!item) return notFound();
  if (fault !== "delete-keeps-resource") list.splice(list.indexOf(item), 1);
  return succeeded(message);
}

function addDomain({ body }: LinksCall, { fault, state, nextId }: LinksWorld): Reply {
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

function updateDomain(call: LinksCall, { fault, state }: LinksWorld): Reply {
  const domain = find(state.domains, call.path.id!);
  if (!domain) return notFound();
  if (fault !== "update-keeps-old-values") Object.assign(domain, call.body);
  return succeeded("Domain has been updated successfully.");
}

function listOverlays(call: LinksCall, { fault, overlays }: LinksWorld): Reply {
  if (fault === "server-error") return error(500, "internal error");
  return page(call, fault, "cta", overlays);
}

const rotatorOf = (slug: string) => `https://go.example.com/r/${encodeURIComponent(slug)}`;

/** The answer to a campaign written: the campaign, its name as `domain`. */
function campaignSaved(campaign: Item): Reply {
  const { id, name, public: isPublic, rotator, list } = campaign;
  return { status: 200, body: { error: 0, id, domain: name, public: isPublic, rotator, list } };
}

function addCampaign({ body }: LinksCall, { fault, state, nextId }: LinksWorld): Reply {
  const id = nextId();
  const campaign = {
    id,
    name: body.name ?? "",
    public: body.public ?? false,
    rotator: typeof body.slug === "string" && body.slug ? rotatorOf(body.slug) : false,
    list: `https://go.example.com/u/demo/${id}`,
    hidden: fault === "created-not-listed",
  };
  state.campaigns.push(campaign);
  return campaignSaved(campaign);
}

function assignLinkToCampaign(call: LinksCall, { state }: LinksWorld): Reply {
  if (!find(state.campaigns, call.path.campaignid!)) return notFound();
  return succeeded("Link successfully added to the campaign.");
}

function updateCampaign({ path, body }: LinksCall, { fault, state }: LinksWorld): Reply {
  const campaign = find(state.campaigns, path.id!);
  if (!campaign) return notFound();
  if (fault === "update-keeps-old-values") return campaignSaved({ ...campaign, ...body });
  campaign.name = body.name;
  if (typeof body.public === "boolean") campaign.public = body.public;
  if (typeof body.slug === "string") campaign.rotator = rotatorOf(body.slug);
  return campaignSaved(campaign);
}

/** Channel 301 holds the example's items; every other channel is empty. */
function listChannelItems(call: LinksCall, { fault, state, channelItems }: LinksWorld): Reply {
  if (!find(state.channels, call.path.id!)) return notFound();
  return page(call, fault, "items", call.path.id === "301" ? channelItems : []);
}

function addChannel({ body }: LinksCall, { fault, state, nextId }: LinksWorld): Reply {
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
