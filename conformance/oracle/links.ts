// An independent links server, written the way a provider would write it from the seed alone (the link-management
// document): no contract file, no schema validator of this repository. It is lenient where the seed is silent (a
// campaign add without a body, an unknown property on channel add, empty redirect fields read back as "") and strict
// where the seed speaks (a domain includes http or https, a channel and a campaign update need a name, integer ids,
// the Bearer key, 30 requests per window with X-RateLimit-* on every response). `errors: "always-200"` answers every
// error with HTTP 200 and the envelope (error 1 and a message), which the seed allows: clients check the error key.
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import type { RunningServer } from "../fault-servers/http.js";

export interface OracleLinksOptions {
  token: string;
  port?: number;
  /** "http": 400/401/404 with the envelope; "always-200": HTTP 200 with the envelope. */
  errors?: "http" | "always-200";
  /** Length of the rate-limit window (the seed: 1 minute). */
  windowMs?: number;
  /** "channel-name-uppercased": a new channel's name is stored in capitals (not as sent). */
  fault?: "channel-name-uppercased";
}

type Item = Record<string, unknown> & { id: number };

const LIMIT = 30;

function now(): string {
  return new Date().toISOString().slice(0, 19).replace("T", " ");
}

function integer(text: string | null | undefined, fallback: number): number {
  return text && /^\d+$/.test(text) && Number(text) >= 1 ? Number(text) : fallback;
}

async function readJson(request: IncomingMessage): Promise<{ body: Record<string, unknown>; broken: boolean }> {
  let text = "";
  for await (const chunk of request) text += chunk;
  if (text.trim() === "") return { body: {}, broken: false };
  try {
    const parsed = JSON.parse(text) as unknown;
    return parsed !== null && typeof parsed === "object" && !Array.isArray(parsed) ? { body: parsed as Record<string, unknown>, broken: false } : { body: {}, broken: true };
  } catch {
    return { body: {}, broken: true };
  }
}

export async function startOracleLinksServer(options: OracleLinksOptions): Promise<RunningServer> {
  const windowMs = options.windowMs ?? 60_000;
  const log: RunningServer["log"] = [];
  let nextId = 500;
  const domains: Item[] = [{ id: 1, domain: "https://go.example.com", redirectroot: "https://example.com", redirect404: "https://example.com/404" }];
  const campaigns: Item[] = [{ id: 10, name: "Launch", public: true, rotator: false, list: "https://go.example.com/c/10" }];
  const channels: Item[] = [{ id: 20, name: "News", description: "", color: "#1E88E5", starred: false }];
  const items: Record<number, Item[]> = { 20: [{ type: "links", id: 30, title: "Hello", preview: "https://go.example.com/p/30", link: "https://go.example.com/30", date: "2024-03-01" }] };
  let window = { start: 0, count: 0 };

  const server = createServer(async (request, response) => {
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
    const send = (status: number, body: unknown) => {
      response.writeHead(status, headers);
      response.end(JSON.stringify(body));
    };
    const fail = (status: number, message: string) => send(options.errors === "always-200" ? 200 : status, { error: 1, message });
    if (window.count > LIMIT) return fail(429, "Rate limit exceeded.");
    if (request.headers.authorization !== `Bearer ${options.token}`) {
      request.resume();
      return fail(401, "A valid API key is required to use this service.");
    }
    const url = new URL(request.url ?? "/", "http://localhost");
    const method = request.method ?? "GET";
    const { body, broken } = method === "GET" || method === "DELETE" ? { body: {}, broken: false } : await readJson(request);
    if (broken) return fail(400, "The request body is not valid JSON.");
    const page = (key: string, all: Item[]) => {
      const perpage = integer(url.searchParams.get("limit"), 10);
      const maxpage = Math.max(1, Math.ceil(all.length / perpage));
      const currentpage = integer(url.searchParams.get("page"), 1);
      send(200, { error: "0", data: { result: all.length, perpage, currentpage, nextpage: Math.min(currentpage + 1, maxpage), maxpage, [key]: all.slice((currentpage - 1) * perpage, currentpage * perpage) } });
    };
    const text = (value: unknown) => (typeof value === "string" ? value : undefined);
    const parts = url.pathname.split("/").filter(Boolean); // ["api", ...]
    const route = `${method} /${parts.map((p) => (/^\d+$/.test(p) ? ":id" : p)).join("/")}`;
    const id = Number(parts.find((p) => /^\d+$/.test(p)));
    const find = (list: Item[]) => list.find((item) => item.id === id);
    const saved = (c: Item) => ({ error: 0, id: c.id, domain: c.name, public: c.public, rotator: c.rotator, list: c.list });

    switch (route) {
      case "GET /api/account":
        return send(200, { error: 0, data: { id: 1, email: "owner@example.com", username: "owner", avatar: "https://example.com/avatar.png", status: "pro", expires: "2030-01-01 00:00:00", registered: "2024-01-01 00:00:00" } });
      case "PUT /api/account/update":
        return send(200, { error: 0, message: "Account has been successfully updated." });
      case "GET /api/domains":
        return page("domains", domains);
      case "POST /api/domain/add": {
        const domain = text(body.domain);
        if (!domain || !/^https?:\/\/[^\s/]+/.test(domain)) return fail(400, "The domain must include http or https.");
        if (domains.some((d) => d.domain === domain)) return fail(409, "The domain already exists.");
        const created = { id: nextId++, domain, redirectroot: text(body.redirectroot) ?? "", redirect404: text(body.redirect404) ?? "" };
        domains.push(created);
        return send(200, { error: 0, id: created.id });
      }
      case "PUT /api/domain/:id/update": {
        const domain = find(domains);
        if (!domain) return fail(404, "Domain not found.");
        for (const key of ["redirectroot", "redirect404"]) if (text(body[key]) !== undefined) domain[key] = body[key];
        return send(200, { error: 0, message: "Domain has been updated successfully." });
      }
      case "DELETE /api/domain/:id/delete": {
        const domain = find(domains);
        if (!domain) return fail(404, "Domain not found.");
        domains.splice(domains.indexOf(domain), 1);
        return send(200, { error: 0, message: "Domain has been deleted successfully." });
      }
      case "GET /api/overlay":
        return page("cta", [{ id: 40, type: "message", name: "Welcome", date: "2024-03-01 10:15:00" }]);
      case "GET /api/campaigns":
        return page("campaigns", campaigns);
      case "POST /api/campaign/add": {
        const created: Item = { id: nextId++, name: text(body.name) ?? "", public: body.public === true, rotator: false, list: "" };
        created.list = `https://go.example.com/c/${created.id}`;
        if (text(body.slug)) created.rotator = `https://go.example.com/r/${encodeURIComponent(text(body.slug)!)}`;
        campaigns.push(created);
        return send(200, saved(created));
      }
      case "PUT /api/campaign/:id/update": {
        const campaign = find(campaigns);
        if (!campaign) return fail(404, "Campaign not found.");
        if (text(body.name) === undefined) return fail(400, "The name is required.");
        campaign.name = body.name;
        if (typeof body.public === "boolean") campaign.public = body.public;
        if (text(body.slug)) campaign.rotator = `https://go.example.com/r/${encodeURIComponent(text(body.slug)!)}`;
        return send(200, saved(campaign));
      }
      case "DELETE /api/campaign/:id/delete": {
        const campaign = find(campaigns);
        if (!campaign) return fail(404, "Campaign not found.");
        campaigns.splice(campaigns.indexOf(campaign), 1);
        return send(200, { error: 0, message: "Campaign has been deleted successfully." });
      }
      case "POST /api/campaign/:id/assign/:id":
        return find(campaigns) ? send(200, { error: 0, message: "Link successfully added to the campaign." }) : fail(404, "Campaign not found.");
      case "GET /api/channels":
        return page("channels", channels);
      case "GET /api/channel/:id":
        return find(channels) ? page("items", items[id] ?? []) : fail(404, "Channel not found.");
      case "POST /api/channel/add": {
        if (text(body.name) === undefined) return fail(400, "The name is required.");
        const color = text(body.color) && /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.test(text(body.color)!) ? body.color : "#000000";
        const name = options.fault === "channel-name-uppercased" ? String(body.name).toUpperCase() : body.name;
        const created = { id: nextId++, name, description: text(body.description) ?? "", color, starred: body.starred === true };
        channels.push(created);
        return send(200, { error: 0, id: created.id });
      }
      default:
        return fail(404, `Unknown endpoint ${method} ${url.pathname} (${now()}).`);
    }
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    log,
    secretsSeen: new Set([options.token]),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
