// The sandbox as real servers: the four APIs on node:http in one process (identity 4020, links 4021, catalog
// 4022, pay 4023 by default), seeded from the contracts' examples and the config, optionally persisted.
import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { API_NAMES, type ApiName } from "../../lib/contract/index.js";
import { createCatalogApi } from "./catalog.js";
import { defaultConfig, type SandboxConfig } from "./config.js";
import { DEFAULT_MAX_BODY_BYTES, DEFAULT_SANDBOX_PORTS, type SandboxApi, type SandboxRequest } from "./http.js";
import { createIdentitySandbox } from "./identity.js";
import { createLinksApi } from "./links.js";
import { createPayApi } from "./pay.js";
import { cannotWrite, createStateWriter, readState, type StateWriter, writeStateAtomically } from "./persistence.js";
import type { RateLimitPolicy } from "./rate-limit.js";
import { readBody } from "./read-body.js";
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
}

export interface RunningSandbox {
  urls: Record<ApiName, string>;
  config: SandboxConfig;
  state: SandboxState;
  /** Whether the state came from an existing data file (otherwise from the demo seed). */
  restored: boolean;
  /** Stops every server and writes pending state. */
  stop(): Promise<void>;
}

/** A problem the user can fix (a port in use, an unreadable data file), reported in one line. */
export class SandboxStartError extends Error {}

const EMPTY = new Uint8Array(0);

/** Serves one sandbox API over node:http: builds the SandboxRequest, enforces the body cap, writes the response. */
export function nodeListener(api: SandboxApi, baseUrl: string, maxBodyBytes = DEFAULT_MAX_BODY_BYTES): RequestListener {
  return (req, res) => {
    serve(api, baseUrl, maxBodyBytes, req, res).catch((error: unknown) => {
      console.error("sandbox:", error);
      if (!res.headersSent) send(res, api.refuse(500, "the sandbox failed on this request; see its log"));
      else res.end();
    });
  };
}

/** Response headers that let a frontend on another origin (e.g. a dev server on :5173) call the sandbox. */
const EXPOSED_HEADERS = "x-ratelimit-limit, x-ratelimit-remaining, x-ratelimit-reset, retry-after, idempotent-replayed";

function corsHeaders(req: IncomingMessage): Record<string, string> {
  const origin = req.headers.origin;
  return origin
    ? { "access-control-allow-origin": origin, "access-control-expose-headers": EXPOSED_HEADERS, vary: "Origin" }
    : {};
}

async function serve(
  api: SandboxApi,
  baseUrl: string,
  maxBodyBytes: number,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const cors = corsHeaders(req);
  if (req.method === "OPTIONS" && req.headers["access-control-request-method"] && req.headers.origin) {
    // A CORS preflight: allowed for any origin and header, and not counted as a request of the API.
    return send(res, {
      status: 204,
      headers: {
        ...cors,
        "access-control-allow-methods": "GET, POST, PUT, PATCH, DELETE",
        "access-control-allow-headers": req.headers["access-control-request-headers"] ?? "",
        "access-control-max-age": "600",
      },
      body: "",
    });
  }
  Object.entries(cors).forEach(([name, value]) => res.setHeader(name, value));
  const headers = {
    get(name: string): string | null {
      const value = req.headers[name.toLowerCase()];
      return value === undefined ? null : Array.isArray(value) ? value.join(", ") : value;
    },
  };
  let url: URL;
  try {
    url = new URL(req.url ?? "/", baseUrl);
  } catch {
    return send(res, api.refuse(400, "the request target is not a valid URL"));
  }
  const request: SandboxRequest = { method: req.method ?? "GET", url, headers, body: EMPTY };
  const hasBody = req.headers["content-length"] !== undefined || req.headers["transfer-encoding"] !== undefined;
  if (hasBody) {
    const body = await readBody(req, maxBodyBytes);
    if (body === undefined) {
      res.setHeader("connection", "close");
      return send(res, api.refuse(413, `the request body is larger than ${maxBodyBytes} bytes`, request));
    }
    request.body = body;
  }
  send(res, await api.handle(request));
}

function send(res: ServerResponse, response: { status: number; headers: Record<string, string>; body: string }): void {
  res.writeHead(response.status, { ...response.headers, "content-length": Buffer.byteLength(response.body) });
  res.end(response.body);
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

export async function startSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
  const host = options.host ?? "127.0.0.1";
  const config = options.config ?? defaultConfig();
  const { dataFile } = options;
  const saved = dataFile
    ? await readState(dataFile).catch((error: Error) => Promise.reject(new SandboxStartError(error.message)))
    : undefined;
  const state = saved ?? (await seedState(config));
  const writer: StateWriter | undefined = dataFile
    ? createStateWriter(dataFile, state, {
        onError: (error) => console.error(`sandbox: ${cannotWrite(dataFile, error)}`),
      })
    : undefined;
  const onChange = () => writer?.schedule();

  // Listen first (ports may be 0), then build the APIs, which need their own public addresses.
  const listeners = new Map<ApiName, RequestListener>();
  const servers = new Map<ApiName, Server>();
  const urls = {} as Record<ApiName, string>;
  try {
    for (const api of API_NAMES) {
      const server = createServer((req, res) => listeners.get(api)!(req, res));
      servers.set(api, server);
      const port = await listen(server, host, options.ports?.[api] ?? DEFAULT_SANDBOX_PORTS[api], api);
      urls[api] = `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
    }
    // Written once before the sandbox says it keeps its state there: a file that cannot be written (a missing
    // directory, no permission) would otherwise only log an error at every change and keep nothing.
    if (dataFile)
      await writeStateAtomically(dataFile, state).catch((error: Error) =>
        Promise.reject(new SandboxStartError(cannotWrite(dataFile, error))),
      );
  } catch (error) {
    await Promise.all([...servers.values()].map((server) => new Promise((resolve) => server.close(resolve))));
    throw error;
  }

  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const identity = createIdentitySandbox(state.identity, { issuer: urls.identity, config: config.identity, onChange });
  listeners.set("identity", identity.listener);
  listeners.set(
    "links",
    nodeListener(
      createLinksApi(state.links, { config: config.links, rateLimit: options.rateLimit, onChange }),
      urls.links,
      maxBodyBytes,
    ),
  );
  listeners.set(
    "catalog",
    nodeListener(createCatalogApi(state.catalog, { config: config.catalog, onChange }), urls.catalog, maxBodyBytes),
  );
  listeners.set(
    "pay",
    nodeListener(
      createPayApi(state.pay, { config: config.pay, baseUrl: () => urls.pay, onChange }),
      urls.pay,
      maxBodyBytes,
    ),
  );

  return {
    urls,
    config,
    state,
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
      await writer?.flush();
    },
  };
}
