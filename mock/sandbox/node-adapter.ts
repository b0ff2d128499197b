// The node:http side of a sandbox API: who may call it (Host, Origin: access.ts), the body and its limits, the
// answer only once the change it acknowledges is durable (commit), and one log line for what a client broke off.
import type { IncomingMessage, RequestListener, ServerResponse } from "node:http";
import { type AccessPolicy, corsHeaders, hostAllowed, originAllowed, preflightHeaders } from "./access.js";
import { limitRefusal, type SandboxApi, tooLargeMessage, type SandboxRequest, type SandboxResponse } from "./http.js";
import { ABORTED, logAborted, readBody } from "./read-body.js";

export interface AdapterSettings {
  name: string;
  /** The API's own address, the base of request URLs. */
  baseUrl: string;
  /** The address the server listens on (always an allowed Host). */
  listenHost: string;
  maxBodyBytes: number;
  access: AccessPolicy;
  /** Resolves once every change made so far is durable; an answer waits for it. */
  commit: () => Promise<void>;
}

const EMPTY = new Uint8Array(0);

/** Why a request is refused before it reaches the API (a foreign Host or Origin), if it is. */
export function accessRefusal(settings: AdapterSettings, req: IncomingMessage): string | undefined {
  const { host, origin } = req.headers;
  if (!hostAllowed(settings.access, host, settings.listenHost))
    return `the Host ${host ?? "(none)"} is not an address of this sandbox; it answers loopback names and addresses, and names given with --allowed-host`;
  if (origin !== undefined && !originAllowed(settings.access, origin, host))
    return `pages of ${origin} may not call this sandbox; it answers its own and loopback origins, and origins given with --allowed-origin`;
  return undefined;
}

/** Serves one sandbox API over node:http. */
export function nodeListener(api: SandboxApi, settings: AdapterSettings): RequestListener {
  return (req, res) => {
    serve(api, settings, req, res).catch((error: unknown) => {
      console.error(`sandbox: ${settings.name}:`, error);
      if (!res.headersSent) send(res, api.refuse(500, "the sandbox failed on this request; see its log"));
      else res.end();
    });
  };
}

async function serve(api: SandboxApi, settings: AdapterSettings, req: IncomingMessage, res: ServerResponse) {
  const refused = accessRefusal(settings, req);
  if (refused) {
    res.setHeader("connection", "close");
    req.resume();
    return send(res, api.refuse(403, refused));
  }
  const origin = req.headers.origin;
  if (req.method === "OPTIONS" && req.headers["access-control-request-method"] && origin) {
    // A CORS preflight of an allowed origin: not counted as a request of the API.
    const headers = preflightHeaders(origin, req.headers["access-control-request-headers"]);
    return send(res, { status: 204, headers, body: "" });
  }
  let url: URL;
  try {
    url = new URL(req.url ?? "/", settings.baseUrl);
  } catch {
    return send(res, api.refuse(400, "the request target is not a valid URL"));
  }
  const headers = {
    get(name: string): string | null {
      const value = req.headers[name.toLowerCase()];
      return value === undefined ? null : Array.isArray(value) ? value.join(", ") : value;
    },
  };
  const request: SandboxRequest = { method: req.method ?? "GET", url, headers, body: EMPTY };
  if (req.headers["content-length"] !== undefined || req.headers["transfer-encoding"] !== undefined) {
    const body = await readBody(req, settings.maxBodyBytes);
    if (body === ABORTED) return logAborted(settings.name, req);
    if (body === undefined) {
      // readBody drops the rest of the body: the connection stays open until it has arrived, so that the client
      // reads the 413 rather than a reset (a close with the body still arriving resets the connection).
      return send(res, api.refuse(413, tooLargeMessage(settings.maxBodyBytes), request), origin);
    }
    request.body = body;
  }
  const response = limitRefusal(api, request, settings.maxBodyBytes) ?? (await api.handle(request));
  try {
    await settings.commit();
  } catch (error) {
    console.error(`sandbox: ${settings.name}: cannot save to the data file: ${(error as Error).message}`);
    return send(res, api.refuse(503, "the sandbox could not save this change to its data file; see its log"));
  }
  send(res, response, origin);
}

/** Writes the answer; JSON answers to an (allowed) page of another origin carry CORS headers, HTML pages never do. */
function send(res: ServerResponse, response: SandboxResponse, origin?: string): void {
  const cors = origin && !response.headers["content-type"]?.startsWith("text/html") ? corsHeaders(origin) : {};
  res.writeHead(response.status, {
    ...cors,
    ...response.headers,
    "content-length": Buffer.byteLength(response.body),
  });
  res.end(response.body);
}
