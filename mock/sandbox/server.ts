// The sandbox as real servers: the four APIs on node:http in one process (identity 4020, links 4021, catalog
// 4022, pay 4023 by default), seeded from the contracts' examples and the config, optionally persisted.
import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { API_NAMES, type ApiName } from "../../lib/contract/index.js";
import { createCatalogApi } from "./catalog.js";
import { defaultConfig, type SandboxConfig } from "./config.js";
import { DEFAULT_MAX_BODY_BYTES, DEFAULT_SANDBOX_PORTS, tooLargeMessage } from "./http.js";
import { createIdentitySandbox } from "./identity.js";
import { createLinksApi } from "./links.js";
import { createPayApi } from "./pay.js";
import { accessRefusal, type AdapterSettings, nodeListener } from "./node-adapter.js";
import { cannotWrite, openDurableState, readState } from "./persistence.js";
import type { RateLimitPolicy } from "./rate-limit.js";
import { type SandboxState, seedState } from "./state.js";

export interface SandboxOptions {
  host?: string;
  /** Port per API; 0 picks a free one. Defaults to DEFAULT_SANDBOX_PORTS. */
  ports?: Partial<Record<ApiName, number>>;
  config?: SandboxConfig;
  /** Keep the state in this JSON file across restarts. */
  dataFile?: string;
  /** The links API's limit per key; defaults to the contract's (30 per minute); `false` switches it off. */
  rateLimit?: RateLimitPolicy | false;
  /** Bodies above this size are refused with 413 in the API's envelope (default 1 MiB). */
  maxBodyBytes?: number;
  /** Host names answered besides the loopback ones (`--allowed-host`); see access.ts. */
  allowedHosts?: string[];
  /** Origins whose pages may call the JSON APIs besides the sandbox's own and loopback ones (`--allowed-origin`). */
  allowedOrigins?: string[];
  /** How long a client has to send a whole request (default 10 s; its headers: at most 5 s). */
  requestTimeoutMs?: number;
  /** Told of every request as it arrives: the API, the method and the path (never the query, which may hold a
   * secret). What a test or `--log-requests` reads to see which operations a client called. */
  onRequest?: (request: { api: ApiName; method: string; path: string }) => void;
}

export interface RunningSandbox {
  urls: Record<ApiName, string>;
  config: SandboxConfig;
  state: SandboxState;
  /** Whether the state came from an existing data file (otherwise from the demo seed). */
  restored: boolean;
  /** Stops every server and folds the journal into the data file. */
  stop(): Promise<void>;
}

/** A problem the user can fix (a port in use, an unreadable data file), reported in one line. */
export class SandboxStartError extends Error {}

/** A client has this long to send its headers, and its whole request: a stalled client is cut off in seconds. */
const DEFAULT_HEADERS_TIMEOUT_MS = 5_000;
const DEFAULT_REQUEST_TIMEOUT_MS = 10_000;

/** The identity API's own front door: the same Host check and body cap, refusals as OAuth errors (JSON). */
function identityListener(listener: RequestListener, settings: AdapterSettings, durable: boolean): RequestListener {
  const refuse = (res: ServerResponse, status: number, description: string, headers: Record<string, string> = {}) => {
    res.writeHead(status, { "content-type": "application/json; charset=utf-8", ...headers });
    res.end(JSON.stringify({ error: "invalid_request", error_description: description }));
  };
  return (req: IncomingMessage, res: ServerResponse) => {
    const refused = accessRefusal({ ...settings, access: { ...settings.access, allowedOrigins: ["*"] } }, req);
    if (refused) return refuse(res, 403, refused, { connection: "close" });
    if (Number(req.headers["content-length"] ?? 0) > settings.maxBodyBytes) {
      // The rest of the body is read and dropped before the connection is closed or reused (within the request
      // timeout): closing it at once with the body still arriving resets it, and the client never reads the 413.
      req.resume();
      return refuse(res, 413, tooLargeMessage(settings.maxBodyBytes));
    }
    if (durable) endAfterCommit(res, settings.commit);
    return listener(req, res);
  };
}

/**
 * oidc-provider answers by itself (Koa ends the response), so its answer is held at the end instead: the body (a
 * code, a token) leaves once the changes the provider made are durable, as the other APIs' answers do.
 */
function endAfterCommit(res: ServerResponse, commit: () => Promise<void>): void {
  const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
  res.end = ((...args: unknown[]) => {
    commit().then(
      () => end(...args),
      (error: Error) => {
        console.error(`sandbox: identity: cannot save to the data file: ${error.message}`);
        res.destroy();
      },
    );
    return res;
  }) as ServerResponse["end"];
}

async function listen(server: Server, host: string, port: number, api: ApiName): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once("error", (error: NodeJS.ErrnoException) => {
      reject(
        new SandboxStartError(
          error.code === "EADDRINUSE"
            ? `port ${port} (${api}) is already in use; choose others with --port or --base-port`
            : `cannot listen on ${host}:${port} (${api}): ${error.message}`,
        ),
      );
    });
    server.listen(port, host, resolve);
  });
  return (server.address() as AddressInfo).port;
}

/** The state and how it is kept: in memory, or durable in the data file. */
async function openState(dataFile: string | undefined, config: SandboxConfig) {
  const saved = dataFile
    ? await readState(dataFile).catch((error: Error) => Promise.reject(new SandboxStartError(error.message)))
    : undefined;
  // A JSON copy: the seed shares objects with the contracts' examples, and the journal records paths, not objects.
  const state = saved ?? (JSON.parse(JSON.stringify(await seedState(config))) as SandboxState);
  if (!dataFile) return { state, view: state, saved, durable: undefined };
  const durable = await openDurableState(dataFile, state).catch((error: Error) =>
    Promise.reject(new SandboxStartError(cannotWrite(dataFile, error))),
  );
  return { state, view: durable.view, saved, durable };
}

export async function startSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
  const host = options.host ?? "127.0.0.1";
  const config = options.config ?? defaultConfig();
  const { dataFile } = options;
  const { state, view, saved, durable } = await openState(dataFile, config);
  const commit = durable ? () => durable.commit() : () => Promise.resolve();
  const requestTimeout = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  const timeouts = {
    requestTimeout,
    headersTimeout: Math.min(DEFAULT_HEADERS_TIMEOUT_MS, requestTimeout),
    connectionsCheckingInterval: Math.min(1000, requestTimeout / 2),
  };

  // Listen first (ports may be 0), then build the APIs, which need their own public addresses.
  const listeners = new Map<ApiName, RequestListener>();
  const servers = new Map<ApiName, Server>();
  const urls = {} as Record<ApiName, string>;
  try {
    for (const api of API_NAMES) {
      const server = createServer(timeouts, (req, res) => {
        options.onRequest?.({ api, method: req.method ?? "GET", path: (req.url ?? "/").split("?")[0]! });
        listeners.get(api)!(req, res);
      });
      servers.set(api, server);
      const port = await listen(server, host, options.ports?.[api] ?? DEFAULT_SANDBOX_PORTS[api], api);
      urls[api] = `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
    }
  } catch (error) {
    await Promise.all([...servers.values()].map((server) => new Promise((resolve) => server.close(resolve))));
    await durable?.close();
    throw error;
  }

  const settings = (name: ApiName): AdapterSettings => ({
    name,
    baseUrl: urls[name],
    listenHost: host,
    maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    access: { allowedHosts: options.allowedHosts ?? [], allowedOrigins: options.allowedOrigins ?? [] },
    commit,
  });
  // The identity provider keeps the raw objects it is given: its changes are noted as a whole, written soon after.
  const identityChanged = () => durable?.touch("identity");
  const identity = createIdentitySandbox(state.identity, {
    issuer: urls.identity,
    config: config.identity,
    onChange: identityChanged,
    access: settings("identity").access,
  });
  listeners.set("identity", identityListener(identity.listener, settings("identity"), durable !== undefined));
  const links = createLinksApi(view.links, { config: config.links, rateLimit: options.rateLimit });
  listeners.set("links", nodeListener(links, settings("links")));
  listeners.set(
    "catalog",
    nodeListener(createCatalogApi(view.catalog, { config: config.catalog }), settings("catalog")),
  );
  const pay = createPayApi(view.pay, { config: config.pay, baseUrl: () => urls.pay });
  listeners.set("pay", nodeListener(pay, settings("pay")));

  return {
    urls,
    config,
    state: view,
    restored: saved !== undefined,
    async stop() {
      await Promise.all(
        [...servers.values()].map(
          (server) =>
            new Promise<void>((resolve) => {
              server.close(() => resolve());
              server.closeAllConnections();
            }),
        ),
      );
      await durable?.close();
    },
  };
}
